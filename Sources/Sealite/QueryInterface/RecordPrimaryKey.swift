/// The primary key of a table, as requests and records need it.
struct RecordPrimaryKey: Sendable {
  /// The primary key columns; `["rowid"]` for a table without one.
  let columns: [String]
  /// The column that aliases the rowid (`INTEGER PRIMARY KEY` of a rowid table).
  let rowIDColumn: String?
  /// True for a `WITHOUT ROWID` table.
  let isWithoutRowID: Bool

  /// True when the primary key is the hidden rowid.
  var isHiddenRowID: Bool { columns == ["rowid"] && !isWithoutRowID }
}

extension Database {
  /// The primary key of `tableName`, from the schema layer's cached
  /// introspection. A single `INTEGER PRIMARY KEY` of a `WITHOUT ROWID` table
  /// is not a rowid.
  func recordPrimaryKey(_ tableName: String) throws -> RecordPrimaryKey {
    let info = try primaryKey(tableName)
    return RecordPrimaryKey(
      columns: info.columns, rowIDColumn: info.tableHasRowID ? info.rowIDColumn : nil,
      isWithoutRowID: !info.tableHasRowID)
  }

  /// The number of columns of a table (what `table.*` selects).
  func recordColumnCount(_ tableName: String) throws -> Int {
    try columns(in: tableName).count
  }

  /// True if triggers are attached to the table: RETURNING then reports values
  /// from before AFTER triggers ran, so `…AndFetch` methods read the row again.
  func tableHasTriggers(_ tableName: String) throws -> Bool {
    let sql = """
      SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE)
        OR EXISTS (SELECT 1 FROM sqlite_temp_master WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE)
      """
    return try Bool.fetchOne(self, sql: sql, arguments: [tableName, tableName]) ?? false
  }
}
