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

  /// Splits SQL into tokens. Unterminated quotes run to the end of the text,
  /// as SQLite would then reject the statement anyway.
  ///
  /// Works on Unicode scalars, with SQLite's classes of characters: a quote
  /// followed by a combining mark is one Character to Swift, yet a quote to
  /// SQLite, and any non-ASCII scalar may be part of a bare name.
  static func tokenize(_ sql: String) -> [SQLToken] {
    let scalars = Array(sql.unicodeScalars)
    var tokens: [SQLToken] = []
    var index = 0

    func text(_ range: Range<Int>) -> String {
      String(String.UnicodeScalarView(scalars[range]))
    }
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      [" ", "\t", "\n", "\r", "\u{0C}"].contains(scalar)
    }
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }
    func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
      isNameStart(scalar) || isDigit(scalar) || scalar == "$"
    }
    func scan(upTo terminator: Unicode.Scalar, from start: Int) -> Int {
      var end = start + 1
      while end < scalars.count {
        if scalars[end] == terminator {
          // A doubled quote is an escaped quote, not the end.
          if terminator != "]" && end + 1 < scalars.count && scalars[end + 1] == terminator {
            end += 2
            continue
          }
          return end + 1
        }
        end += 1
      }
      return end
    }

    while index < scalars.count {
      let scalar = scalars[index]
      let start = index
      let kind: Kind
      if isSpace(scalar) {
        while index < scalars.count && isSpace(scalars[index]) { index += 1 }
        kind = .space
      } else if scalar == "-" && index + 1 < scalars.count && scalars[index + 1] == "-" {
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
        kind = .space
      } else if scalar == "/" && index + 1 < scalars.count && scalars[index + 1] == "*" {
        index += 2
        while index < scalars.count
          && !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/")
        {
          index += 1
        }
        index = Swift.min(index + 2, scalars.count)
        kind = .space
      } else if scalar == "'" {
        index = scan(upTo: "'", from: index)
        kind = .literal
      } else if scalar == "\"" || scalar == "`" || scalar == "[" {
        let terminator: Unicode.Scalar = scalar == "[" ? "]" : scalar
        index = scan(upTo: terminator, from: index)
        // The name between the quotes, each doubled quote read as one.
        var name = String.UnicodeScalarView()
        var position = start + 1
        while position < Swift.max(start + 1, index - 1) {
          name.append(scalars[position])
          let doubled = terminator != "]" && scalars[position] == terminator && position + 1 < index - 1
          position += doubled ? 2 : 1
        }
        kind = .identifier(name: String(name), quoted: true)
      } else if (scalar == "x" || scalar == "X") && index + 1 < scalars.count && scalars[index + 1] == "'" {
        index = scan(upTo: "'", from: index + 1)
        kind = .literal
      } else if isDigit(scalar) || (scalar == "." && index + 1 < scalars.count && isDigit(scalars[index + 1]))
      {
        while index < scalars.count
          && (isNamePart(scalars[index]) || scalars[index] == "."
            || ((scalars[index] == "+" || scalars[index] == "-")
              && (scalars[index - 1] == "e" || scalars[index - 1] == "E")))
        {
          index += 1
        }
        kind = .literal
      } else if isNameStart(scalar) || scalar == "$" {
        while index < scalars.count && isNamePart(scalars[index]) { index += 1 }
        kind = .identifier(name: text(start..<index), quoted: false)
      } else {
        index += 1
        kind = .punctuation
      }
      tokens.append(SQLToken(kind: kind, text: text(start..<index)))
    }
    return tokens
  }
}

extension Array where Element == SQLToken {
  /// The SQL text of the tokens.
  var sql: String { map { $0.text }.joined() }

  /// The tokens without white space and comments.
  var significant: [SQLToken] { filter { !$0.isSpace } }
}
