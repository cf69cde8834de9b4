/// A `CREATE TABLE` statement taken apart into the text before the definitions,
/// each column definition and table constraint, and the table options after
/// them (`WITHOUT ROWID`, `STRICT`). The table rebuild edits the parts and puts
/// them back together, so everything it does not touch keeps its exact text.
struct CreateTableStatement {
  /// One element of the parenthesized list.
  struct Element {
    var tokens: [SQLToken]

    /// The tokens of a column definition split at the end of its declared type:
    /// the name and type (never renamed: a type may look like a column name),
    /// and the constraints.
    var columnParts: (nameAndType: [SQLToken], constraints: [SQLToken]) {
      let keywords = [
        "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES",
        "GENERATED", "AS",
      ]
      guard let firstName = tokens.firstIndex(where: { !$0.isSpace }) else { return (tokens, []) }
      let split =
        tokens[(firstName + 1)...].firstIndex { token in keywords.contains { token.isKeyword($0) } }
        ?? tokens.endIndex
      return (Array(tokens[..<split]), Array(tokens[split...]))
    }

    /// True for a table constraint, false for a column definition.
    var isTableConstraint: Bool {
      guard let first = tokens.significant.first else { return false }
      return ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains { first.isKeyword($0) }
    }

    /// The column name, for a column definition.
    var columnName: String? {
      isTableConstraint ? nil : tokens.significant.first?.identifierName
    }
  }

  /// Everything up to and including the opening parenthesis.
  var head: [SQLToken]
  var elements: [Element]
  /// Everything from the closing parenthesis on.
  var tail: [SQLToken]

  /// Parses the SQL of a table, as stored in `sqlite_master`. Returns nil for
  /// what is not a `CREATE TABLE … (…)` statement (e.g. `CREATE TABLE … AS SELECT`).
  init?(sql: String) {
    let tokens = SQLToken.tokenize(sql)
    guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return nil }
    head = Array(tokens[...open])
    elements = []
    var depth = 0
    var current: [SQLToken] = []
    var closeIndex: Int?
    for index in (open + 1)..<tokens.count {
      let token = tokens[index]
      if token.text == "(" {
        depth += 1
      } else if token.text == ")" {
        if depth == 0 {
          closeIndex = index
          break
        }
        depth -= 1
      } else if token.text == "," && depth == 0 {
        elements.append(Element(tokens: current))
        current = []
        continue
      }
      current.append(token)
    }
    guard let closeIndex else { return nil }
    elements.append(Element(tokens: current))
    tail = Array(tokens[closeIndex...])
  }

  /// True if the table options say `WITHOUT ROWID`.
  var isWithoutRowID: Bool {
    tail.significant.contains { $0.isKeyword("WITHOUT") }
  }

  /// The statement for a table of another name, with the same definitions.
  func sql(tableName: String) -> String {
    let prefix = head.significant.prefix { !$0.isKeyword("TABLE") }.map { $0.text }.joined(separator: " ")
    let definitions = elements.map { $0.tokens.sql.trimmingCharacters(in: .whitespacesAndNewlines) }
    return "\(prefix) TABLE \(tableName.quotedDatabaseIdentifier) (\(definitions.joined(separator: ", ")))"
      + Array(tail.dropFirst()).sql
  }
}

extension Array where Element == SQLToken {
  /// The tokens with every identifier naming column `old` renamed to `new`.
  /// Names that refer to something else are left alone: function names
  /// (followed by a parenthesis) and the columns of another table in a
  /// `REFERENCES other(…)` clause.
  func renamingColumn(_ old: String, to new: String, inTable table: String) -> [SQLToken] {
    var result = self
    let significantIndexes = indices.filter { !self[$0].isSpace }
    var skipDepth: Int?
    var depth = 0
    for (position, index) in significantIndexes.enumerated() {
      let token = self[index]
      let next = position + 1 < significantIndexes.count ? self[significantIndexes[position + 1]] : nil
      let previous = position > 0 ? self[significantIndexes[position - 1]] : nil
      if token.text == "(" {
        depth += 1
        continue
      }
      if token.text == ")" {
        depth -= 1
        if let skip = skipDepth, depth < skip { skipDepth = nil }
        continue
      }
      if previous?.isKeyword("REFERENCES") == true, let name = token.identifierName {
        // The columns after `REFERENCES other` belong to the other table.
        if !name.sameName(as: table) && next?.text == "(" { skipDepth = depth + 1 }
        continue
      }
      // A collation name, or a function name, is not a column.
      guard skipDepth == nil, token.names(old), next?.text != "(", previous?.isKeyword("COLLATE") != true
      else {
        continue
      }
      result[index] = SQLToken(kind: .identifier(name: new, quoted: true), text: new.quotedDatabaseIdentifier)
    }
    return result
  }

  /// True if an identifier names column `name` (see ``renamingColumn(_:to:inTable:)``
  /// for what is not counted).
  func mentionsColumn(_ name: String, inTable table: String) -> Bool {
    renamingColumn(name, to: "\u{0}", inTable: table) != self
  }
}
