import CSQLCipher

extension Statement {
  /// The name keys of the tables the statement's program opens for
  /// reading, found in its `EXPLAIN` listing (`OpenRead` root pages, matched
  /// against the schema). Old SQLite versions do not report to the authorizer
  /// the tables of which no column is read (`SELECT COUNT(*) FROM t`): this is
  /// how the observation layer learns them there. A virtual table (`VOpen`)
  /// has no root page, and the listing does not name it: such a program may
  /// read any virtual table of the schema, and they all count. Computed once
  /// per statement.
  var tablesOpenedForReading: Set<String> {
    if let cached = openedTablesCache { return cached }
    let tables = Statement.openedTables(sql: sql, connection: sqlite3_db_handle(sqliteStatement))
    openedTablesCache = tables
    return tables
  }

  /// Runs raw C calls, outside of Sealite's statement machinery, so that
  /// nothing is recorded or observed.
  private static func openedTables(sql: String, connection: SQLiteConnection?) -> Set<String> {
    guard let connection else { return [] }
    var rootPages: [CInt: Set<CInt>] = [:]  // database index → root pages
    var opensVirtualTable = false
    forEachRow(sql: "EXPLAIN " + sql, connection: connection) { statement in
      guard let opcode = sqlite3_column_text(statement, 1) else { return }
      let name = String(cString: opcode)
      if name == "VOpen" { opensVirtualTable = true }
      guard name == "OpenRead" || name == "ReopenIdx" else { return }
      rootPages[sqlite3_column_int(statement, 4), default: []].insert(sqlite3_column_int(statement, 3))
    }
    var tables: Set<String> = []
    if opensVirtualTable {
      for schema in ["sqlite_master", "sqlite_temp_master"] {
        let sql = "SELECT tbl_name FROM \(schema) WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'"
        forEachRow(sql: sql, connection: connection) { statement in
          guard let name = sqlite3_column_text(statement, 0) else { return }
          tables.insert(String(cString: name).nameKey)
        }
      }
    }
    for (databaseIndex, pages) in rootPages {
      let schema = databaseIndex == 1 ? "sqlite_temp_master" : "sqlite_master"
      guard databaseIndex <= 1 else { continue }
      forEachRow(sql: "SELECT rootpage, tbl_name FROM \(schema)", connection: connection) { statement in
        guard pages.contains(sqlite3_column_int(statement, 0)), let name = sqlite3_column_text(statement, 1)
        else { return }
        tables.insert(String(cString: name).nameKey)
      }
    }
    return tables
  }

  private static func forEachRow(
    sql: String, connection: SQLiteConnection, _ body: (SQLiteStatement) -> Void
  ) {
    var statement: SQLiteStatement?
    guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return }
    defer { sqlite3_finalize(statement) }
    while sqlite3_step(statement) == SQLITE_ROW { body(statement) }
  }
}
