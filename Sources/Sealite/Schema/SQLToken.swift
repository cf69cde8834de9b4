/// A token of SQL text, as the table rebuild needs it: identifiers (bare or
/// quoted) are told apart from string literals, punctuation and white space, and
/// every token keeps its exact text so that a statement is rebuilt unchanged
/// except where a token is replaced on purpose.
struct SQLToken: Equatable {
  enum Kind: Equatable {
    /// A bare word (keyword or name) or a quoted name; `name` is unquoted.
    case identifier(name: String, quoted: Bool)
    /// A string literal, a blob literal or a number.
    case literal
    /// White space or a comment.
    case space
    /// Anything else: parentheses, commas, operators.
    case punctuation
  }

  var kind: Kind
  var text: String

  /// The unquoted name if the token is an identifier.
  var identifierName: String? {
    if case .identifier(let name, _) = kind { return name }
    return nil
  }

  /// True for a bare word equal to `keyword`, whatever its case.
  func isKeyword(_ keyword: String) -> Bool {
    if case .identifier(let name, false) = kind {
      return name.sameName(as: keyword)
    }
    return false
  }

  /// True for an identifier naming `name` (SQLite compares names without ASCII case).
  func names(_ name: String) -> Bool {
    identifierName.map { $0.sameName(as: name) } ?? false
  }

  var isSpace: Bool { kind == .space }

  /// Splits SQL into tokens, read by SQLite's own lexical rules
  /// (``SQLTokenizer``); the texts of the tokens, joined, are `sql` again.
  /// Quotes left open do not occur here: the rebuild reads SQL that SQLite
  /// compiled and stored in the schema.
  static func tokenize(_ sql: String) -> [SQLToken] {
    var sql = sql
    return sql.withUTF8 { text in
      SQLTokenizer(text).map { token in
        let bytes = UnsafeBufferPointer(rebasing: text[token.range])
        let tokenText = String(decoding: bytes, as: UTF8.self)
        let kind: Kind
        switch token.kind {
        case .word:
          kind = .identifier(name: tokenText, quoted: false)
        case .quotedName:
          kind = .identifier(name: unquotedName(bytes), quoted: true)
        case .string, .blob, .number:
          kind = .literal
        case .space:
          kind = .space
        case .parameter, .semicolon, .punctuation, .end, .illegal, .unterminated:
          kind = .punctuation
        }
        return SQLToken(kind: kind, text: tokenText)
      }
    }
  }

  /// The name inside `"…"`, `` `…` `` or `[…]`: a doubled quote stands for
  /// one (brackets have no escape).
  private static func unquotedName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let delimiter = bytes[bytes.count - 1]
    var name: [UInt8] = []
    name.reserveCapacity(bytes.count - 2)
    var index = 1
    while index < bytes.count - 1 {
      name.append(bytes[index])
      index += delimiter != UInt8(ascii: "]") && bytes[index] == delimiter ? 2 : 1
    }
    return String(decoding: name, as: UTF8.self)
  }
}

extension Array where Element == SQLToken {
  /// The SQL text of the tokens.
  var sql: String { map { $0.text }.joined() }

  /// The tokens without white space and comments.
  var significant: [SQLToken] { filter { !$0.isSpace } }
}
