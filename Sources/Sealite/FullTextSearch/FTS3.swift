/// The FTS3 full-text search module, for ``Database/create(virtualTable:options:using:_:)``:
///
///     try db.create(virtualTable: "book", using: FTS3()) { t in
///       t.column("title")
///       t.column("body")
///     }
///
/// See <https://www.sqlite.org/fts3.html>. Creating a table throws
/// ``SQLiteFeatureError`` when the linked SQLite lacks full-text search.
public struct FTS3 {
  /// How the `unicode61` tokenizer treats diacritics (see ``FTS3TokenizerDescriptor/unicode61(diacritics:separators:tokenCharacters:)``).
  public enum Diacritics: Sendable {
    /// Diacritics are kept: "e" and "é" are different tokens (`remove_diacritics=0`).
    case keep

    /// Diacritics are removed from Latin letters, as SQLite did before 3.27
    /// (the default of the tokenizer, `remove_diacritics=1`).
    case removeLegacy

    /// Diacritics are removed, including from the letters SQLite 3.27
    /// learned to decompose (`remove_diacritics=2`). On an older SQLite,
    /// creating a table or tokenizing with it throws ``SQLiteFeatureError``.
    case remove
  }

  /// The FTS3 module.
  public init() {}

  /// The tokens SQLite makes of `string` with `tokenizer`, in order:
  ///
  ///     FTS3.tokenize("SQLite database")                       // ["sqlite", "database"]
  ///     FTS3.tokenize("SQLite database", withTokenizer: .porter) // ["sqlite", "databas"]
  ///
  /// SQLite's `fts3tokenize` table does the work, in a private in-memory database.
  public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple)
    throws -> [String]
  {
    try SQLiteFeatures.linked.require(.fts4)
    try tokenizer.checkFeatures()
    // fts3tokenize takes the tokenizer's name, then each argument as a separate,
    // quoted, module argument (https://www.sqlite.org/fts3.html#querying_tokenizers).
    let moduleArguments = ([tokenizer.name] + tokenizer.arguments.map { "\"\($0)\"" })
      .joined(separator: ", ")
    return try DatabaseQueue().inDatabase { db in
      try db.execute(sql: "CREATE VIRTUAL TABLE tokens USING fts3tokenize(\(moduleArguments))")
      return try String.fetchAll(
        db, sql: "SELECT token FROM tokens WHERE input = ? ORDER BY position", arguments: [string])
    }
  }
}

extension FTS3: VirtualTableModule {
  /// `fts3`.
  public var moduleName: String { "fts3" }

  /// An empty definition: no column, the default tokenizer.
  public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
    FTS3TableDefinition()
  }

  /// The columns, then the tokenizer: `fts3(title, body, tokenize=porter)`.
  public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) throws -> [String] {
    try db.features.require(.fts4)
    var arguments = definition.columns
    if let tokenizer = definition.tokenizer {
      try tokenizer.checkFeatures()
      arguments.append(tokenizer.moduleArgument)
    }
    return arguments
  }

  /// An FTS3 table needs nothing more.
  public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition)
    throws
  {}
}
