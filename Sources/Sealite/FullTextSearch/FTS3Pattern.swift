/// A full-text pattern that SQLite accepts in a `MATCH` against an FTS3 or FTS4
/// table (see <https://www.sqlite.org/fts3.html#full_text_index_queries>):
///
///     let pattern = FTS3Pattern(matchingAllTokensIn: "moby dick")
///     let books = try Book.matching(pattern).fetchAll(db)
///
/// Every pattern is checked by SQLite when it is made: a `MATCH` with an
/// invalid one would only fail when its statement runs.
public struct FTS3Pattern: Sendable {
  /// The pattern, as SQLite reads it after `MATCH`.
  public let rawPattern: String

  /// A pattern written in SQLite's full-text query syntax:
  ///
  ///     try FTS3Pattern(rawPattern: "sqlite AND database")
  ///     try FTS3Pattern(rawPattern: "\"full text\" NOT search")
  ///
  /// Throws ``DatabaseError`` if SQLite refuses the pattern (`"OR"`, `"a OR"`, an unbalanced `"`),
  /// and ``SQLiteFeatureError`` if the linked SQLite lacks full-text search.
  public init(rawPattern: String) throws {
    try SQLiteFeatures.linked.require(.fts4)
    // SQLite validates a pattern only when a statement that matches it steps:
    // run one against an empty table of a private database.
    do {
      try DatabaseQueue().inDatabase { db in
        try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts3()")
        try db.execute(sql: "SELECT * FROM documents WHERE content MATCH ?", arguments: [rawPattern])
      }
    } catch let error as DatabaseError {
      // The statement and its argument are of no use to the caller, and the
      // argument may be private: only SQLite's verdict is kept.
      throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
    }
    self.rawPattern = rawPattern
  }

  /// A pattern that matches any of the tokens of `string`, or nil if it has
  /// none. Query syntax in `string` is ignored:
  ///
  ///     FTS3Pattern(matchingAnyTokenIn: "years months")?.rawPattern // "years OR months"
  public init?(matchingAnyTokenIn string: String) {
    guard let tokens = FTS3Pattern.simpleTokens(of: string) else { return nil }
    try? self.init(rawPattern: tokens.joined(separator: " OR "))
  }

  /// A pattern that matches all the tokens of `string`, in any order, or nil
  /// if it has none. Query syntax in `string` is ignored:
  ///
  ///     FTS3Pattern(matchingAllTokensIn: "years months")?.rawPattern // "years months"
  public init?(matchingAllTokensIn string: String) {
    guard let tokens = FTS3Pattern.simpleTokens(of: string) else { return nil }
    try? self.init(rawPattern: tokens.joined(separator: " "))
  }

  /// A pattern that matches tokens that begin with each token of `string`, or
  /// nil if it has none. Query syntax in `string` is ignored:
  ///
  ///     FTS3Pattern(matchingAllPrefixesIn: "year month")?.rawPattern // "year* month*"
  public init?(matchingAllPrefixesIn string: String) {
    guard let tokens = FTS3Pattern.simpleTokens(of: string) else { return nil }
    try? self.init(rawPattern: tokens.map { $0 + "*" }.joined(separator: " "))
  }

  /// A pattern that matches the tokens of `string` in a row, or nil if it has
  /// none. Query syntax in `string` is ignored:
  ///
  ///     FTS3Pattern(matchingPhrase: "years months")?.rawPattern // "\"years months\""
  public init?(matchingPhrase string: String) {
    guard let tokens = FTS3Pattern.simpleTokens(of: string) else { return nil }
    try? self.init(rawPattern: "\"" + tokens.joined(separator: " ") + "\"")
  }

  /// The tokens of `string` by the `simple` tokenizer, or nil if there are none
  /// (or full-text search is missing).
  private static func simpleTokens(of string: String) -> [String]? {
    guard let tokens = try? FTS3.tokenize(string, withTokenizer: .simple), !tokens.isEmpty else {
      return nil
    }
    return tokens
  }
}

extension FTS3Pattern: DatabaseValueConvertible {
  /// The raw pattern, as text.
  public var databaseValue: DatabaseValue { rawPattern.databaseValue }

  /// A pattern from text that SQLite accepts as one; nil otherwise.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
    guard let string = String.fromDatabaseValue(dbValue) else { return nil }
    return try? FTS3Pattern(rawPattern: string)
  }
}
