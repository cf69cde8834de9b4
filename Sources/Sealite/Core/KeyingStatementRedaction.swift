import CSQLCipher

/// Recognizes statements that carry key material, so that no trace, error or
/// description ever prints them.
///
/// The SQL is read as SQLite reads it (``SQLTokenizer``), statement by
/// statement: a statement carries a key when SQLite would run it as
///
/// - a pragma whose name ends with `key` (`key`, `rekey`, `hexkey`,
///   `hexrekey`, `textkey`, `textrekey`, …) or one that takes other secret
///   material (`cipher_salt`, `cipher_add_random`), however its name and schema
///   are spelled (`'key'`, `[key]`, `"main".key`, comments between the words),
///   after `EXPLAIN` or `EXPLAIN QUERY PLAN` too;
/// - an `ATTACH … KEY …`;
/// - a call of `sqlcipher_export`, or of a keying pragma's function
///   (`pragma_key`), which copy or name keyed databases.
///
/// What SQLite can not read to its end is judged on the safe side, since its
/// error message then quotes the rest of the text: a `PRAGMA` or `ATTACH`
/// statement with a token SQLite refuses or leaves open, and any statement
/// whose refused or open token mentions a key. Over-redacting is the safe side.
enum KeyingStatementRedaction {
  /// What is printed instead of a keying statement.
  static let redacted = "<redacted keying statement>"

  /// True if any statement of `sql` carries key material (see the type).
  static func isKeyingStatement(_ sql: String) -> Bool {
    var sql = sql
    return sql.withUTF8 { text in
      // This runs for every traced statement and every error: most SQL never
      // names a key or a cipher and is not tokenized at all.
      guard mentionsKeyMaterial(text, in: 0..<text.count) else { return false }
      var statement = KeyingStatementReader(text: text)
      for token in SQLTokenizer(text) {
        switch token.kind {
        case .space:
          continue
        case .semicolon, .end:
          if statement.finish() { return true }
          statement = KeyingStatementReader(text: text)
        default:
          statement.read(token)
          if statement.carriesKey { return true }
        }
      }
      return statement.finish()
    }
  }

  /// A message of SQLite's error log, or, when it mentions key material (it
  /// may quote the statement that failed), SQLite's text of `code` and a
  /// note that details were withheld.
  static func redactedLogMessage(_ message: String, code: CInt) -> String {
    var message = message
    let mentionsKey = message.withUTF8 { text in mentionsKeyMaterial(text, in: 0..<text.count) }
    guard mentionsKey else { return message }
    return String(cString: sqlite3_errstr(code)) + " (details withheld: they may quote a key)"
  }

  /// True if the bytes in `range` contain `key` or `cipher`, in any ASCII case:
  /// every keying statement names one or the other (SQLite compares names
  /// without ASCII case only, and names have no escapes that could hide them).
  static func mentionsKeyMaterial(_ text: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> Bool {
    var index = range.lowerBound
    while index + 3 <= range.upperBound {
      switch text[index] | 0x20 {
      case UInt8(ascii: "k"):
        if text[index + 1] | 0x20 == UInt8(ascii: "e"), text[index + 2] | 0x20 == UInt8(ascii: "y") {
          return true
        }
      case UInt8(ascii: "c"):
        if index + 6 <= range.upperBound,
          equalsIgnoringCase(UnsafeBufferPointer(rebasing: text[index..<(index + 6)]), "cipher")
        {
          return true
        }
      default:
        break
      }
      index += 1
    }
    return false
  }
}

/// Follows one statement, token by token, as far as needed to tell whether it
/// carries key material.
private struct KeyingStatementReader {
  private enum Phase {
    /// Before the first word.
    case start
    /// After `EXPLAIN`, or `EXPLAIN QUERY PLAN`.
    case explained
    /// After `EXPLAIN QUERY`.
    case explainQuery
    /// After `PRAGMA`, or after `PRAGMA schema.`: a name comes next.
    case pragmaName(qualified: Bool)
    /// After the first (or qualified) name of a pragma: `.` or its argument.
    case pragmaAfterName(name: SQLTokenizer.Token, qualified: Bool)
    /// The rest of a pragma whose name was judged.
    case pragma
    /// The rest of an `ATTACH`.
    case attach
    /// The rest of any other statement.
    case other
  }

  let text: UnsafeBufferPointer<UInt8>
  private var phase = Phase.start
  private(set) var carriesKey = false

  init(text: UnsafeBufferPointer<UInt8>) {
    self.text = text
  }

  mutating func read(_ token: SQLTokenizer.Token) {
    if token.kind == .illegal || token.kind == .unterminated {
      // SQLite's error quotes this token ("unrecognized token: …"), and an
      // open quote or comment runs to the end of the text.
      if isPragmaOrAttach || KeyingStatementRedaction.mentionsKeyMaterial(text, in: token.range) {
        carriesKey = true
      }
    }
    if token.kind == .word || token.kind == .quotedName, withName(of: token, namesKeyingFunction) {
      carriesKey = true
    }
    switch phase {
    case .start, .explained, .explainQuery:
      readVerb(token)
    case .pragmaName(let qualified):
      if isName(token) {
        phase = .pragmaAfterName(name: token, qualified: qualified)
      } else {
        // Not a pragma SQLite could run: whatever it is, it is not printed.
        carriesKey = true
        phase = .pragma
      }
    case .pragmaAfterName(let name, let qualified):
      if !qualified, token.kind == .punctuation, text[token.range.lowerBound] == UInt8(ascii: ".") {
        phase = .pragmaName(qualified: true)
      } else {
        judgePragma(named: name)
        phase = .pragma
      }
    case .attach:
      if isKeyword(token, "key") { carriesKey = true }
    case .pragma, .other:
      break
    }
  }

  /// Judges what the end of the statement leaves open; true if it carries a key.
  mutating func finish() -> Bool {
    switch phase {
    case .pragmaName:
      // `PRAGMA` or `PRAGMA schema.` without a name.
      carriesKey = true
    case .pragmaAfterName(let name, _):
      judgePragma(named: name)
    default:
      break
    }
    return carriesKey
  }

  private mutating func readVerb(_ token: SQLTokenizer.Token) {
    switch phase {
    case .start where isKeyword(token, "explain"):
      phase = .explained
    case .explained where isKeyword(token, "query"):
      phase = .explainQuery
    case .explainQuery:
      phase = isKeyword(token, "plan") ? .explained : .other
    default:
      if isKeyword(token, "pragma") {
        phase = .pragmaName(qualified: false)
      } else if isKeyword(token, "attach") {
        phase = .attach
      } else {
        phase = .other
      }
    }
  }

  private var isPragmaOrAttach: Bool {
    switch phase {
    case .pragmaName, .pragmaAfterName, .pragma, .attach: return true
    case .start, .explained, .explainQuery, .other: return false
    }
  }

  private mutating func judgePragma(named name: SQLTokenizer.Token) {
    if withName(of: name, isKeyingPragmaName) { carriesKey = true }
  }

  /// A name where SQLite's grammar takes one (`nm`): a word, a quoted name or
  /// a string.
  private func isName(_ token: SQLTokenizer.Token) -> Bool {
    token.kind == .word || token.kind == .quotedName || token.kind == .string
  }

  /// True for a bare word that is `keyword` (given in lowercase).
  private func isKeyword(_ token: SQLTokenizer.Token, _ keyword: StaticString) -> Bool {
    token.kind == .word && equalsIgnoringCase(UnsafeBufferPointer(rebasing: text[token.range]), keyword)
  }

  /// Lends the name a word, quoted name or string spells, without its quotes.
  private func withName(
    of token: SQLTokenizer.Token, _ body: (UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Bool {
    guard token.kind != .word else { return body(UnsafeBufferPointer(rebasing: text[token.range])) }
    let delimiter = text[token.range.lowerBound]
    let inner = UnsafeBufferPointer(
      rebasing: text[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)])
    // Brackets have no escapes; other quotes stand for themselves when doubled.
    guard delimiter != UInt8(ascii: "["), inner.contains(delimiter) else { return body(inner) }
    var name: [UInt8] = []
    name.reserveCapacity(inner.count)
    var index = 0
    while index < inner.count {
      name.append(inner[index])
      index += inner[index] == delimiter ? 2 : 1
    }
    return name.withUnsafeBufferPointer(body)
  }
}

/// A pragma that takes key material: any name that ends with `key` (SQLCipher's
/// `key`, `rekey`, `hexkey`, `hexrekey`, `textkey`, `textrekey`, and any later
/// one), `cipher_salt` and `cipher_add_random`.
private func isKeyingPragmaName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
  (name.count >= 3 && equalsIgnoringCase(UnsafeBufferPointer(rebasing: name[(name.count - 3)...]), "key"))
    || equalsIgnoringCase(name, "cipher_salt") || equalsIgnoringCase(name, "cipher_add_random")
}

/// `sqlcipher_export`, or the table-valued function of a keying pragma.
private func namesKeyingFunction(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
  if equalsIgnoringCase(name, "sqlcipher_export") { return true }
  let prefix = 7  // "pragma_"
  return name.count > prefix
    && equalsIgnoringCase(UnsafeBufferPointer(rebasing: name[..<prefix]), "pragma_")
    && isKeyingPragmaName(UnsafeBufferPointer(rebasing: name[prefix...]))
}

/// Compares `bytes` to a lowercase ASCII `target` without ASCII case, as
/// SQLite compares names and keywords.
private func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ target: StaticString) -> Bool {
  target.withUTF8Buffer { target in
    guard bytes.count == target.count else { return false }
    for index in 0..<bytes.count {
      var byte = bytes[index]
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
      if byte != target[index] { return false }
    }
    return true
  }
}
