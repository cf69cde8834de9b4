/// The three triggers that keep an external-content FTS5 table in sync with
/// its content table, named `__<fts table>_ai`, `_ad` and `_au` as GRDB names them
/// (https://www.sqlite.org/fts5.html#external_content_tables).
struct FTS5SynchronizationTriggers {
  let ftsTable: String
  let contentTable: String
  let rowIDColumn: String
  let columns: [String]

  /// The names of the triggers of a full-text table.
  static func names(forTable ftsTable: String) -> [String] {
    ["ai", "ad", "au"].map { "__\(ftsTable)_\($0)" }
  }

  /// The statements that create the triggers.
  func createSQL(ifNotExists: Bool) -> String {
    let fts = ftsTable.quotedDatabaseIdentifier
    let content = contentTable.quotedDatabaseIdentifier
    let ftsColumns = (["rowid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    func values(of row: String) -> String {
      ([rowIDColumn] + columns).map { "\(row).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
    }
    let insertNew = "INSERT INTO \(fts)(\(ftsColumns)) VALUES (\(values(of: "new")));"
    let deleteOld = "INSERT INTO \(fts)(\(fts), \(ftsColumns)) VALUES('delete', \(values(of: "old")));"
    let names = Self.names(forTable: ftsTable).map(\.quotedDatabaseIdentifier)
    let create = ifNotExists ? "CREATE TRIGGER IF NOT EXISTS" : "CREATE TRIGGER"
    return """
      \(create) \(names[0]) AFTER INSERT ON \(content) BEGIN
          \(insertNew)
      END;
      \(create) \(names[1]) AFTER DELETE ON \(content) BEGIN
          \(deleteOld)
      END;
      \(create) \(names[2]) AFTER UPDATE ON \(content) BEGIN
          \(deleteOld)
          \(insertNew)
      END;
      """
  }
}

extension Database {
  /// Drops the triggers that ``FTS5TableDefinition/synchronize(withTable:)``
  /// created for the full-text table `tableName`. Call it after you drop the
  /// full-text table, so that the content table can still be written:
  ///
  ///     try db.drop(table: "book_ft")
  ///     try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
  public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
    for name in FTS5SynchronizationTriggers.names(forTable: tableName) {
      try execute(sql: "DROP TRIGGER IF EXISTS \(name.quotedDatabaseIdentifier)")
    }
  }
}
