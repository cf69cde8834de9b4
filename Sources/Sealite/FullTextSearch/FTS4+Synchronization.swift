/// The triggers that keep an FTS4 index in step with its external content
/// table, after <https://www.sqlite.org/fts3.html#_external_content_fts4_tables_>:
/// the index forgets a row before it is updated or deleted, and learns it
/// after it is inserted or updated.
struct FTS4Synchronization {
  let ftsTable: String
  let contentTable: String
  let definition: FTS4TableDefinition

  /// The names of the four triggers of `ftsTable`: before update, before
  /// delete, after update, after insert. GRDB's names, so that a database
  /// made by GRDB is cleaned up by Sealite and the other way round.
  static func triggerNames(forTable ftsTable: String) -> [String] {
    ["bu", "bd", "au", "ai"].map { "__\(ftsTable)_\($0)" }
  }

  /// Creates the triggers, then rebuilds the index from the rows the content
  /// table already holds.
  func install(in db: Database) throws {
    if definition.configuration.temporary {
      // SQLite refuses to rebuild the index of a temporary external content table.
      throw DatabaseError.misuse("temporary external content FTS4 tables are not supported")
    }
    // The FTS docid is the content table's rowid, under whatever name it has.
    let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn ?? Column.rowID.name
    let fts = ftsTable.quotedDatabaseIdentifier
    let content = contentTable.quotedDatabaseIdentifier
    let columnNames = definition.columns.map(\.name)
    let ftsColumns = (["docid"] + columnNames).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    let newValues = ([rowIDColumn] + columnNames).map { "new.\($0.quotedDatabaseIdentifier)" }
      .joined(separator: ", ")
    let forget = "DELETE FROM \(fts) WHERE docid=old.\(rowIDColumn.quotedDatabaseIdentifier);"
    let learn = "INSERT INTO \(fts)(\(ftsColumns)) VALUES(\(newValues));"
    let ifNotExists = definition.configuration.ifNotExists ? "IF NOT EXISTS " : ""
    let names = Self.triggerNames(forTable: ftsTable).map(\.quotedDatabaseIdentifier)
    let triggers = [
      (names[0], "BEFORE UPDATE", forget),
      (names[1], "BEFORE DELETE", forget),
      (names[2], "AFTER UPDATE", learn),
      (names[3], "AFTER INSERT", learn),
    ]
    // One statement each, without a final semicolon: traces show the SQL GRDB's
    // tests expect.
    for (name, event, body) in triggers {
      try db.execute(
        sql: "CREATE TRIGGER \(ifNotExists)\(name) \(event) ON \(content) BEGIN\n    \(body)\nEND")
    }
    // https://www.sqlite.org/fts3.html#*fts4rebuidcmd
    try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES('rebuild')")
  }
}

extension Database {
  /// Drops the triggers that ``FTS4TableDefinition/synchronize(withTable:)``
  /// created for the FTS4 table `tableName`; call it after dropping that table,
  /// so that its former content table can change again:
  ///
  ///     try db.drop(table: "book_ft")
  ///     try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
  ///
  /// Triggers that do not exist are ignored.
  public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
    let sql = FTS4Synchronization.triggerNames(forTable: tableName)
      .map { "DROP TRIGGER IF EXISTS \($0.quotedDatabaseIdentifier);" }
      .joined(separator: "\n")
    try execute(sql: sql)
  }
}
