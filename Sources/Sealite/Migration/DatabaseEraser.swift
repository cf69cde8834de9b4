/// Empties a database for ``DatabaseMigrator/eraseDatabaseOnSchemaChange``,
/// and describes a schema so two can be compared.
enum DatabaseEraser {
  /// The schema as comparable text: every table, index, trigger and view with
  /// its SQL, sorted, SQLite's own objects left out.
  static func schemaDescription(_ db: Database) throws -> [String] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
        ORDER BY type, name
        """
    ).map { row in
      [row["type"], row["name"], row["tbl_name"], row["sql"] as String? ?? ""].joined(separator: "|")
    }
  }

  /// Drops every view, trigger, table and index, and resets the user version,
  /// in one transaction with foreign keys off (no cascade runs, no check fails).
  static func erase(_ db: Database) throws {
    let enforcesForeignKeys = try db.foreignKeysAreEnforced
    if enforcesForeignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
    defer { if enforcesForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
    try db.inTransaction(.immediate) {
      let objects = try Row.fetchAll(
        db,
        sql: """
          SELECT type, name FROM sqlite_master
          WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
          ORDER BY CASE type WHEN 'view' THEN 0 WHEN 'trigger' THEN 1 ELSE 2 END
          """)
      for object in objects {
        let type: String = object["type"]
        let name: String = object["name"]
        try db.execute(sql: "DROP \(type.uppercased()) IF EXISTS \(name.quotedDatabaseIdentifier)")
      }
      if try db.tableExists("sqlite_sequence") { try db.execute(sql: "DELETE FROM sqlite_sequence") }
      try db.execute(sql: "PRAGMA user_version = 0")
      return .commit
    }
  }
}
