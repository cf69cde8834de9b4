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
      return name.caseInsensitiveCompare(keyword) == .orderedSame
    }
    return false
  }

  /// True for an identifier naming `name` (SQLite compares names without case).
  func names(_ name: String) -> Bool {
    identifierName.map { $0.caseInsensitiveCompare(name) == .orderedSame } ?? false
  }

  var isSpace: Bool { kind == .space }

  /// Splits SQL into tokens. Unterminated quotes run to the end of the text,
  /// as SQLite would then reject the statement anyway.
  static func tokenize(_ sql: String) -> [SQLToken] {
    let characters = Array(sql)
    var tokens: [SQLToken] = []
    var index = 0

    func scan(upTo terminator: Character, from start: Int) -> Int {
      var end = start + 1
      while end < characters.count {
        if characters[end] == terminator {
          // A doubled quote is an escaped quote, not the end.
          if terminator != "]" && end + 1 < characters.count && characters[end + 1] == terminator {
            end += 2
            continue
          }
          return end + 1
        }
        end += 1
      }
      return end
    }

    while index < characters.count {
      let character = characters[index]
      let start = index
      let kind: Kind
      if character.isWhitespace {
        while index < characters.count && characters[index].isWhitespace { index += 1 }
        kind = .space
      } else if character == "-" && index + 1 < characters.count && characters[index + 1] == "-" {
        while index < characters.count && characters[index] != "\n" { index += 1 }
        kind = .space
      } else if character == "/" && index + 1 < characters.count && characters[index + 1] == "*" {
        index += 2
        while index < characters.count
          && !(characters[index] == "*" && index + 1 < characters.count && characters[index + 1] == "/")
        {
          index += 1
        }
        index = Swift.min(index + 2, characters.count)
        kind = .space
      } else if character == "'" {
        index = scan(upTo: "'", from: index)
        kind = .literal
      } else if character == "\"" || character == "`" || character == "[" {
        let terminator: Character = character == "[" ? "]" : character
        index = scan(upTo: terminator, from: index)
        var name = String(characters[(start + 1)..<Swift.max(start + 1, index - 1)])
        if terminator != "]" {
          name = name.replacingOccurrences(
            of: String(repeating: terminator, count: 2), with: String(terminator))
        }
        kind = .identifier(name: name, quoted: true)
      } else if (character == "x" || character == "X") && index + 1 < characters.count
        && characters[index + 1] == "'"
      {
        index = scan(upTo: "'", from: index + 1)
        kind = .literal
      } else if character.isNumber
        || (character == "." && index + 1 < characters.count && characters[index + 1].isNumber)
      {
        while index < characters.count
          && (characters[index].isLetter || characters[index].isNumber || characters[index] == "."
            || ((characters[index] == "+" || characters[index] == "-")
              && (characters[index - 1] == "e" || characters[index - 1] == "E")))
        {
          index += 1
        }
        kind = .literal
      } else if character.isLetter || character == "_" || character == "$" {
        while index < characters.count
          && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
            || characters[index] == "$")
        {
          index += 1
        }
        kind = .identifier(name: String(characters[start..<index]), quoted: false)
      } else {
        index += 1
        kind = .punctuation
      }
      tokens.append(SQLToken(kind: kind, text: String(characters[start..<index])))
    }
    return tokens
  }
}

extension Array where Element == SQLToken {
  /// The SQL text of the tokens.
  var sql: String { map(\.text).joined() }

  /// The tokens without white space and comments.
  var significant: [SQLToken] { filter { !$0.isSpace } }
}
