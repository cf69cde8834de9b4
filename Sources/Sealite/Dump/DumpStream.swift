/// The text output a ``DumpFormat`` writes to: the stream given to a dump
/// method, or standard output.
///
/// Besides writing, it can keep a blank line pending: the line that separates
/// the rows of two statements in the line format is written only if more text
/// follows, so that a dump never ends with a blank line of its own.
///
///     stream.write("a = 1\n")
///     stream.margin()
///     stream.write("b = 2\n")  // writes "\nb = 2\n"
public struct DumpStream {
  private var base: any TextOutputStream
  private var needsMarginLine = false

  init(_ base: (any TextOutputStream)?) {
    self.base = base ?? StandardOutputStream()
  }

  /// Asks for a line feed before the next text that is not empty, unless that
  /// text starts with one.
  ///
  ///     stream.margin()
  ///     stream.write("")       // writes nothing
  ///     stream.write("next\n") // writes "\nnext\n"
  public mutating func margin() {
    needsMarginLine = true
  }
}

extension DumpStream: TextOutputStream {
  /// Writes `string`, after the line feed ``margin()`` asked for.
  ///
  ///     stream.write("1|Arthur\n")
  public mutating func write(_ string: String) {
    if needsMarginLine && !string.isEmpty {
      needsMarginLine = false
      if !string.hasPrefix("\n") { base.write("\n") }
    }
    base.write(string)
  }

  /// Writes `line` and a line feed.
  mutating func writeLine(_ line: String) {
    write(line)
    write("\n")
  }
}

/// Standard output, where a dump writes when it is given no stream: through
/// `print`, which shares the buffer of the program's other prints.
struct StandardOutputStream: TextOutputStream {
  func write(_ string: String) {
    print(string, terminator: "")
  }
}
