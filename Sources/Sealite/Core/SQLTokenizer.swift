/// Splits SQL text into tokens by SQLite's own lexical rules (those of its
/// `tokenize.c`), for code that must judge a statement SQLite may never compile
/// (a statement whose compilation failed is still printed in its error): a word
/// inside a string or a comment is no word, `/**/` separates words as a space
/// does, and `[key]`, `"key"`, `` `key` `` and `'key'` can all be names.
///
/// It reads the UTF-8 bytes SQLite is given. As in SQLite, every byte from 0x80
/// up may be part of a bare name, and names compare without ASCII case only.
struct SQLTokenizer: Sequence, IteratorProtocol {
  /// What a token is.
  enum Kind: Equatable {
    /// White space or a complete comment: SQLite skips both alike.
    case space
    /// A bare word: a keyword or a name.
    case word
    /// A name in `"…"`, `[…]` or `` `…` ``.
    case quotedName
    /// A string literal, `'…'`.
    case string
    /// A blob literal, `x'…'`.
    case blob
    /// A numeric literal.
    case number
    /// A parameter: `?`, `?NNN`, `:name`, `@name`, `$name` or `#name`.
    case parameter
    /// `;`, which ends a statement.
    case semicolon
    /// An operator or punctuation: `(`, `)`, `,`, `.`, `=`, `<=`, `||`, …
    case punctuation
    /// A byte SQLite reads no further than: NUL. SQLite is given C strings, so
    /// the text ends there for SQLite, but what follows may still be printed.
    case end
    /// Text SQLite refuses ("unrecognized token"): a stray `!` or `\`, a
    /// number run into letters, a malformed blob.
    case illegal
    /// A string, quoted name, blob or comment still open at the end of the
    /// text: the token runs to the end, and SQLite's error quotes all of it.
    case unterminated
  }

  /// A token: its kind and where it lies in the text, in bytes.
  struct Token: Equatable {
    var kind: Kind
    var range: Range<Int>
  }

  /// The text being read; it must stay valid while tokens are read.
  let text: UnsafeBufferPointer<UInt8>
  private var position = 0

  init(_ text: UnsafeBufferPointer<UInt8>) {
    self.text = text
  }

  mutating func next() -> Token? {
    guard position < text.count else { return nil }
    let start = position
    let kind = scanToken()
    return Token(kind: kind, range: start..<position)
  }

  /// The byte at `index`, or NUL past the end (as SQLite's C string reads).
  private func byte(_ index: Int) -> UInt8 {
    index < text.count ? text[index] : 0
  }

  /// Reads one token from `position`, leaving `position` after it.
  private mutating func scanToken() -> Kind {
    let first = text[position]
    switch first {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x0C, UInt8(ascii: "\r"):
      // A vertical tab may continue white space, though it can not start it.
      while position < text.count, SQLTokenizer.isSpace(text[position]) { position += 1 }
      return .space
    case UInt8(ascii: "-") where byte(position + 1) == UInt8(ascii: "-"):
      // A line comment stops before its newline, which is a space of its own.
      while position < text.count, text[position] != UInt8(ascii: "\n"), text[position] != 0 { position += 1 }
      return .space
    case UInt8(ascii: "/") where byte(position + 1) == UInt8(ascii: "*"):
      return scanBlockComment()
    case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
      return scanQuoted(delimiter: first)
    case UInt8(ascii: "["):
      // No escapes inside brackets: the first `]` ends the name.
      position += 1
      while position < text.count, text[position] != UInt8(ascii: "]"), text[position] != 0 { position += 1 }
      guard byte(position) == UInt8(ascii: "]") else { return .unterminated }
      position += 1
      return .quotedName
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      return scanNumber()
    case UInt8(ascii: ".") where SQLTokenizer.isDigit(byte(position + 1)):
      return scanNumber()
    case UInt8(ascii: "?"):
      position += 1
      while SQLTokenizer.isDigit(byte(position)) { position += 1 }
      return .parameter
    case UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "#"):
      return scanNamedParameter()
    case UInt8(ascii: ";"):
      position += 1
      return .semicolon
    case 0:
      position += 1
      return .end
    case 0xEF where byte(position + 1) == 0xBB && byte(position + 2) == 0xBF:
      // SQLite skips a UTF-8 byte order mark where a token starts.
      position += 3
      return .space
    default:
      if first | 0x20 == UInt8(ascii: "x"), byte(position + 1) == UInt8(ascii: "'") {
        return scanBlob()
      }
      if SQLTokenizer.isNameStart(first) {
        position += 1
        while SQLTokenizer.isNamePart(byte(position)) { position += 1 }
        return .word
      }
      return scanOperator()
    }
  }

  /// `/* … */`. SQLite looks for the closing `*/` from the third byte on (so
  /// `/*/` is still open), and accepts a comment left open at the end.
  private mutating func scanBlockComment() -> Kind {
    var index = position + 2
    while index + 1 < text.count {
      if text[index] == 0 { break }
      if text[index] == UInt8(ascii: "*"), text[index + 1] == UInt8(ascii: "/") {
        position = index + 2
        return .space
      }
      index += 1
    }
    position = endOfText(from: position + 2)
    return .unterminated
  }

  /// `'…'`, `"…"` or `` `…` ``, where a doubled delimiter stands for itself.
  private mutating func scanQuoted(delimiter: UInt8) -> Kind {
    var index = position + 1
    while index < text.count, text[index] != 0 {
      if text[index] == delimiter {
        if byte(index + 1) == delimiter {
          index += 2
          continue
        }
        position = index + 1
        return delimiter == UInt8(ascii: "'") ? .string : .quotedName
      }
      index += 1
    }
    position = index
    return .unterminated
  }

  /// `x'…'`: an even number of hexadecimal digits. Anything else up to the
  /// next quote is one illegal token, as in SQLite.
  private mutating func scanBlob() -> Kind {
    var index = position + 2
    while SQLTokenizer.isHexDigit(byte(index)) { index += 1 }
    var kind = Kind.blob
    if byte(index) != UInt8(ascii: "'") || (index - position) % 2 != 0 {
      kind = .illegal
      while index < text.count, text[index] != 0, text[index] != UInt8(ascii: "'") { index += 1 }
    }
    guard byte(index) == UInt8(ascii: "'") else {
      position = index
      return .unterminated
    }
    position = index + 1
    return kind
  }

  /// Decimal (`12`, `1.5`, `.5`, `1e-3`) or hexadecimal (`0x1F`) numbers, with
  /// `_` between digits (SQLite 3.46; older versions refuse it, which reads
  /// the same span as one illegal token). A number run into a name is illegal.
  private mutating func scanNumber() -> Kind {
    if text[position] == UInt8(ascii: "0"), byte(position + 1) | 0x20 == UInt8(ascii: "x"),
      SQLTokenizer.isHexDigit(byte(position + 2))
    {
      position += 3
      while SQLTokenizer.isHexDigit(byte(position)) || byte(position) == UInt8(ascii: "_") { position += 1 }
    } else {
      skipDigits()
      if byte(position) == UInt8(ascii: ".") {
        position += 1
        skipDigits()
      }
      let sign = byte(position + 1)
      if byte(position) | 0x20 == UInt8(ascii: "e"),
        SQLTokenizer.isDigit(sign)
          || ((sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"))
            && SQLTokenizer.isDigit(byte(position + 2)))
      {
        position += 2
        skipDigits()
      }
    }
    guard SQLTokenizer.isNamePart(byte(position)) else { return .number }
    while SQLTokenizer.isNamePart(byte(position)) { position += 1 }
    return .illegal
  }

  private mutating func skipDigits() {
    while SQLTokenizer.isDigit(byte(position)) || byte(position) == UInt8(ascii: "_") { position += 1 }
  }

  /// `:name`, `@name`, `$name`, `#name`, with SQLite's Tcl forms: `::` inside
  /// the name, and a suffix in parentheses that runs to the first space or
  /// `)` — quotes included, so `$a(';x')` is a single parameter.
  private mutating func scanNamedParameter() -> Kind {
    var nameLength = 0
    position += 1
    while position < text.count {
      let current = text[position]
      if SQLTokenizer.isNamePart(current) {
        nameLength += 1
        position += 1
      } else if current == UInt8(ascii: "("), nameLength > 0 {
        position += 1
        while position < text.count, text[position] != 0, !SQLTokenizer.isSpace(text[position]),
          text[position] != UInt8(ascii: ")")
        {
          position += 1
        }
        guard byte(position) == UInt8(ascii: ")") else { return .illegal }
        position += 1
        return .parameter
      } else if current == UInt8(ascii: ":"), byte(position + 1) == UInt8(ascii: ":") {
        position += 2
      } else {
        break
      }
    }
    return nameLength > 0 ? .parameter : .illegal
  }

  /// Operators of one or two bytes (`->>` of three); any other byte is illegal.
  private mutating func scanOperator() -> Kind {
    let first = text[position]
    let second = byte(position + 1)
    position += 1
    switch first {
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "+"),
      UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "~"):
      return .punctuation
    case UInt8(ascii: "-"):
      if second == UInt8(ascii: ">") { position += byte(position + 1) == UInt8(ascii: ">") ? 2 : 1 }
      return .punctuation
    case UInt8(ascii: "="):
      if second == UInt8(ascii: "=") { position += 1 }
      return .punctuation
    case UInt8(ascii: "<"):
      if second == UInt8(ascii: "=") || second == UInt8(ascii: ">") || second == UInt8(ascii: "<") {
        position += 1
      }
      return .punctuation
    case UInt8(ascii: ">"):
      if second == UInt8(ascii: "=") || second == UInt8(ascii: ">") { position += 1 }
      return .punctuation
    case UInt8(ascii: "|"):
      if second == UInt8(ascii: "|") { position += 1 }
      return .punctuation
    case UInt8(ascii: "!"):
      guard second == UInt8(ascii: "=") else { return .illegal }
      position += 1
      return .punctuation
    default:
      return .illegal
    }
  }

  /// The end of the text as SQLite sees it from `index`: the end, or a NUL.
  private func endOfText(from index: Int) -> Int {
    var index = index
    while index < text.count, text[index] != 0 { index += 1 }
    return index
  }

  // MARK: SQLite's classes of bytes

  /// SQLite's `sqlite3Isspace`: space, tab, newline, vertical tab, form feed
  /// and carriage return.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
  }

  static func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
      || byte >= 0x80
  }

  static func isNamePart(_ byte: UInt8) -> Bool {
    isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: "$")
  }
}

extension SQLTokenizer {
  /// True if the first token of the statement `sql`, past spaces and
  /// comments, is the bare word `keyword` (ASCII letters, compared without
  /// case, as SQLite compares keywords). For the statements of which SQLite's
  /// authorizer says nothing (VACUUM).
  static func firstWordIs(_ keyword: StaticString, in sql: UnsafePointer<CChar>) -> Bool {
    withText(of: sql) { text in
      for token in SQLTokenizer(text) {
        if token.kind == .space { continue }
        guard token.kind == .word, token.range.count == keyword.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: keyword.utf8Start, count: keyword.utf8CodeUnitCount)
        return zip(text[token.range], expected).allSatisfy { $0 | 0x20 == $1 | 0x20 }
      }
      return false
    }
  }

  /// True if the C string `sql` holds a statement for SQLite: a token other
  /// than white space, a comment or a semicolon before its end. The text that
  /// follows a compiled statement (`sqlite3_prepare_v2`'s tail) is judged so,
  /// as SQLite would judge it when asked to compile it: a byte order mark is
  /// white space there, a vertical tab or a lone `/*` is not.
  static func holdsStatement(_ sql: UnsafePointer<CChar>) -> Bool {
    withText(of: sql) { text in
      for token in SQLTokenizer(text) {
        switch token.kind {
        case .space, .semicolon:
          continue
        case .end:
          return false
        case .unterminated where token.range.count > 2 && text[token.range.lowerBound] == UInt8(ascii: "/"):
          // A comment left open runs to the end as white space. (`/*` with
          // nothing after it is `/` then `*` to SQLite: a statement.)
          continue
        default:
          return true
        }
      }
      return false
    }
  }

  /// Calls `body` with the bytes of the C string `sql`, its NUL excluded.
  private static func withText<T>(of sql: UnsafePointer<CChar>, _ body: (UnsafeBufferPointer<UInt8>) -> T)
    -> T
  {
    var count = 0
    while sql[count] != 0 { count += 1 }
    return body(
      UnsafeBufferPointer(start: UnsafeRawPointer(sql).assumingMemoryBound(to: UInt8.self), count: count))
  }
}
