extension FTS5: VirtualTableModule {
  /// `fts5`.
  public var moduleName: String { "fts5" }

  /// A fresh definition, without columns.
  public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
    FTS5TableDefinition(configuration: configuration)
  }

  /// The columns, then the options: `title, body UNINDEXED, tokenize='''porter''',
  /// content='book', content_rowid='id', prefix='2 3', columnSize=0, detail=column`.
  ///
  /// Throws ``SQLiteFeatureError`` where the linked SQLite lacks FTS5 or the
  /// chosen tokenizer, and a misuse error for a table without columns.
  public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
    try db.features.require(.fts5)
    guard !definition.columns.isEmpty else {
      throw DatabaseError.misuse("an FTS5 table needs at least one column")
    }
    // Column names are written as they are, as GRDB writes them.
    var arguments = definition.columns.map { $0.isIndexed ? $0.name : "\($0.name) UNINDEXED" }
    if let tokenizer = definition.tokenizer {
      try tokenizer.requireSupport(db.features)
      // Each component is a string literal; the list is one more.
      let list = tokenizer.components.map(\.quotedDatabaseLiteral).joined(separator: " ")
      arguments.append("tokenize=\(list.quotedDatabaseLiteral)")
    }
    switch definition.contentMode {
    case .raw(let content, let contentRowID):
      if let content { arguments.append("content=\(content.quotedDatabaseLiteral)") }
      if let contentRowID { arguments.append("content_rowid=\(contentRowID.quotedDatabaseLiteral)") }
    case .synchronized(let contentTable):
      arguments.append("content=\(contentTable.quotedDatabaseLiteral)")
      if let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn {
        arguments.append("content_rowid=\(rowIDColumn.quotedDatabaseLiteral)")
      }
    }
    if let prefixes = definition.prefixes {
      let list = prefixes.sorted().map(String.init).joined(separator: " ")
      arguments.append("prefix=\(list.quotedDatabaseLiteral)")
    }
    if let columnSize = definition.columnSize { arguments.append("columnSize=\(columnSize)") }
    if let detail = definition.detail { arguments.append("detail=\(detail)") }
    return arguments
  }

  /// Creates the synchronization triggers of an external-content table, and
  /// fills the index with the rows the content table already has.
  public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition)
    throws
  {
    guard case .synchronized(let contentTable) = definition.contentMode else { return }
    // SQLite can not rebuild the index of a temporary external-content table.
    if definition.configuration.temporary {
      throw DatabaseError.misuse("a temporary FTS5 table can not be synchronized with a table")
    }
    let triggers = FTS5SynchronizationTriggers(
      ftsTable: tableName, contentTable: contentTable,
      rowIDColumn: try db.primaryKey(contentTable).rowIDColumn ?? "rowid",
      columns: definition.columns.map(\.name))
    try db.execute(sql: triggers.createSQL(ifNotExists: definition.configuration.ifNotExists))
    // https://www.sqlite.org/fts5.html#the_rebuild_command
    try db.execute(
      sql:
        "INSERT INTO \(tableName.quotedDatabaseIdentifier)(\(tableName.quotedDatabaseIdentifier)) VALUES('rebuild')"
    )
  }
}
