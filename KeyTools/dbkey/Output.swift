import Foundation

/// What dbkey writes: result lines and JSON on standard output, messages on
/// standard error. Writes go straight to the descriptors: a closed standard
/// output (`dbkey keyring list | head -1`) ends dbkey quietly with status 0
/// (SIGPIPE is ignored, so the write fails with EPIPE instead of killing it),
/// never with a crash.
enum Output {
  /// Set by `--json`: results and errors are JSON objects.
  nonisolated(unsafe) static var json = false

  /// Writes `text` whole to `descriptor`; false if the reader went away.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    bytes.removeAll()
    return true
  }

  /// Prints a line for people on standard output, escaped (see ``escaped(_:)``).
  static func line(_ line: String) {
    raw(escaped(line))
  }

  /// Prints text of dbkey's own (help), which may span lines, as it is.
  static func text(_ text: String) {
    raw(text)
  }

  private static func raw(_ line: String) {
    if !write(line + "\n", to: 1) { readerWentAway() }
  }

  /// Prints `object` as JSON on standard output, keys sorted, on one line.
  static func json(_ object: Any) {
    raw(jsonText(object))
  }

  static func jsonText(_ object: Any) -> String {
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// Prints a result: `text` for people, or `object` with `--json`.
  static func result(_ text: String, _ object: [String: Any]) {
    if json { self.json(object) } else { line(text) }
  }

  /// Prints an error message on standard error (as JSON with `--json`).
  static func error(_ message: String, code: Int32) {
    let text =
      json
      ? jsonText(["error": ["message": message, "exitCode": code]])
      : "dbkey: \(escaped(message))"
    write(text + "\n", to: 2)
  }

  /// The reader of standard output is gone: nothing more can be said, and
  /// everything dbkey did so far stands.
  static func readerWentAway() -> Never {
    _exit(0)
  }

  /// `message` on one line, safe to show on a terminal: control characters and
  /// line separators (from a mistyped argument or an odd file name the message
  /// quotes) are written as escapes, such as `\n` or `\u{1B}`.
  static func escaped(_ message: String) -> String {
    var result = ""
    for scalar in message.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator, .format: result += scalar.escaped(asASCII: true)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
