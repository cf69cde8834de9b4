/// A full-text pattern that SQLite accepts for an ``FTS5`` table, for
/// `matching(_:)` requests and `MATCH` arguments.
///
///     let pattern = FTS5Pattern(matchingAllTokensIn: "SQLite database")
///     let books = try Book.matching(pattern).fetchAll(db)
///
/// See <https://www.sqlite.org/fts5.html#full_text_query_syntax>.
public struct FTS5Pattern: Sendable {
  /// The pattern, in FTS5's query syntax: always one SQLite accepts.
  public let rawPattern: String

  /// A pattern that matches any token of `string` (`foo OR bar`); nil if
  /// `string` has no token.
  public init?(matchingAnyTokenIn string: String) {
    self.init(tokensOf: string) { $0.joined(separator: " OR ") }
  }

  /// A pattern that matches all tokens of `string`, in any order (`foo bar`);
  /// nil if `string` has no token.
  public init?(matchingAllTokensIn string: String) {
    self.init(tokensOf: string) { $0.joined(separator: " ") }
  }

  /// A pattern that matches words that begin with each token of `string`
  /// (`foo* bar*`); nil if `string` has no token.
  public init?(matchingAllPrefixesIn string: String) {
    self.init(tokensOf: string) { $0.map { "\($0)*" }.joined(separator: " ") }
  }

  /// A pattern that matches the tokens of `string` in a row (`"foo bar"`); nil if
  /// `string` has no token.
  public init?(matchingPhrase string: String) {
    self.init(tokensOf: string) { "\"" + $0.joined(separator: " ") + "\"" }
  }

  /// A pattern that matches a column that begins with the tokens of `string`
  /// (`^"foo bar"`): "the bat" matches "the bat is happy", not "mind the bat" nor
  /// "the batcave is dark". Nil if `string` has no token.
  public init?(matchingPrefixPhrase string: String) {
    self.init(tokensOf: string) { "^\"" + $0.joined(separator: " ") + "\"" }
  }

  /// A pattern made of the tokens of user input (as the `ascii` tokenizer reads
  /// them, so that its syntax characters are dropped), or nil.
  private init?(tokensOf string: String, _ pattern: ([String]) -> String) {
    guard let tokens = try? FTS5.queryTokens(string), !tokens.isEmpty,
      let valid = try? FTS5Pattern(rawPattern: pattern(tokens))
    else { return nil }
    self = valid
  }

  /// A pattern written in FTS5's query syntax, checked by SQLite. A pattern that
  /// names columns (`title:brest`) must list them in `allowedColumns`.
  ///
  ///     let pattern = try FTS5Pattern(rawPattern: "sqlite AND database")
  ///     try FTS5Pattern(rawPattern: "AND") // throws: fts5: syntax error near "AND"
  ///
  /// Throws ``DatabaseError`` for a pattern SQLite refuses (the error holds no
  /// SQL), and ``SQLiteFeatureError`` where the linked SQLite has no FTS5.
  public init(rawPattern: String, allowedColumns: [String] = []) throws {
    do {
      // An empty table with the columns: SQLite checks the pattern on the
      // first step of a query that matches it.
      try DatabaseQueue().inDatabase { db in
        try db.create(virtualTable: "document", using: FTS5()) { t in
          for column in allowedColumns.isEmpty ? ["__sealite__"] : allowedColumns { t.column(column) }
        }
        _ = try Row.fetchOne(
          db, sql: "SELECT * FROM document WHERE document MATCH ?", arguments: [rawPattern])
      }
    } catch let error as DatabaseError {
      // The statement and its argument are no business of the caller's.
      throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
    }
    self.rawPattern = rawPattern
  }
}

extension FTS5Pattern: DatabaseValueConvertible {
  /// The raw pattern, as text.
  public var databaseValue: DatabaseValue { rawPattern.databaseValue }

  /// A pattern from text that SQLite accepts, or nil.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
    String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
  }
}

extension Database {
  /// A pattern written in FTS5's query syntax, checked by SQLite against the
  /// columns of the full-text table `table`:
  ///
  ///     let pattern = try db.makeFTS5Pattern(rawPattern: "title:brest", forTable: "book")
  ///
  /// Throws ``DatabaseError`` for a pattern SQLite refuses or a table that does
  /// not exist, and ``SQLiteFeatureError`` where the linked SQLite has no FTS5.
  public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
    try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
  }
}
