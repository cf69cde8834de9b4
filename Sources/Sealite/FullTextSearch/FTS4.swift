/// The FTS4 full-text search module, for ``Database/create(virtualTable:options:using:_:)``:
///
///     try db.create(virtualTable: "book", using: FTS4()) { t in
///       t.tokenizer = .unicode61()
///       t.column("title")
///       t.column("isbn").notIndexed()
///     }
///
/// See <https://www.sqlite.org/fts3.html>. Creating a table throws
/// ``SQLiteFeatureError`` when the linked SQLite lacks FTS4.
public struct FTS4 {
  /// The FTS4 module.
  public init() {}
}

extension FTS4: VirtualTableModule {
  /// `fts4`.
  public var moduleName: String { "fts4" }

  /// An empty definition: no column, the default tokenizer, no option.
  public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
    FTS4TableDefinition(configuration: configuration)
  }

  /// The columns (with their `notindexed=` and `languageid=` options), the
  /// tokenizer, then the FTS4 options, in the order GRDB writes them:
  /// `fts4(body, languageid="lid", content="", prefix="2,4")`.
  public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) throws -> [String] {
    try db.features.require(.fts4)
    var arguments: [String] = []
    for column in definition.columns {
      if column.isLanguageId {
        arguments.append("languageid=\"\(column.name)\"")
        continue
      }
      arguments.append(column.name)
      if !column.isIndexed { arguments.append("notindexed=\(column.name)") }
    }
    if let tokenizer = definition.tokenizer {
      try tokenizer.checkFeatures()
      arguments.append(tokenizer.moduleArgument)
    }
    if let content = definition.content { arguments.append("content=\"\(content)\"") }
    if let compress = definition.compress { arguments.append("compress=\"\(compress)\"") }
    if let uncompress = definition.uncompress { arguments.append("uncompress=\"\(uncompress)\"") }
    if let matchinfo = definition.matchinfo { arguments.append("matchinfo=\"\(matchinfo)\"") }
    if let prefixes = definition.prefixes {
      arguments.append("prefix=\"\(prefixes.sorted().map(String.init).joined(separator: ","))\"")
    }
    return arguments
  }

  /// For a table synchronized with its content table (``FTS4TableDefinition/synchronize(withTable:)``),
  /// creates the triggers that keep the index up to date, and indexes the rows
  /// the content table already holds.
  public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition)
    throws
  {
    guard let contentTable = definition.synchronizedContentTable else { return }
    try FTS4Synchronization(ftsTable: tableName, contentTable: contentTable, definition: definition)
      .install(in: db)
  }
}
