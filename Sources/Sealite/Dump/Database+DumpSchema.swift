// The schema and the whole content of a database, written to a dump stream,
// without the objects of SQLite, GRDB and Sealite themselves.

extension Database {
  /// Writes `sqlite_master`, then the SQL of each schema object, grouped by
  /// table: the table (or view) first, then its indexes, then its triggers.
  func dumpSchema(into stream: inout DumpStream) throws {
    stream.writeLine("sqlite_master")
    let isLeftOut = try dumpLeavesOut()
    let rows = try Row.fetchCursor(
      self,
      sql: """
        SELECT sql || ';', name FROM sqlite_master
        WHERE sql IS NOT NULL
        ORDER BY tbl_name COLLATE NOCASE,
          CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END,
          name COLLATE NOCASE,
          sql
        """)
    while let row = try rows.next() {
      let name: String = row[1]
      if isLeftOut(name) { continue }
      stream.writeLine(row[0])
    }
  }

  /// Writes the schema, then every table under its name, in the order of the
  /// names, each sorted by its primary key.
  func dumpContent(format: some DumpFormat, into stream: inout DumpStream) throws {
    try dumpSchema(into: &stream)
    // A blank line between the schema and the first table, if there is one.
    stream.margin()
    let isLeftOut = try dumpLeavesOut()
    let tables = try String.fetchAll(
      self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name COLLATE NOCASE"
    ).filter { !isLeftOut($0) }
    try dumpTables(tables, format: format, tableHeader: .always, stableOrder: true, into: &stream)
  }

  /// Tells the schema objects a dump of the whole database leaves out: the
  /// library's own, which are no content of the application (SQLite's
  /// `sqlite_` tables, GRDB's `grdb_` ones, such as the migrations, and
  /// Sealite's `sealite_` ones, such as the change journal), and the shadow
  /// tables of virtual tables, whose content the virtual table shows.
  private func dumpLeavesOut() throws -> (String) -> Bool {
    let shadowTables = try self.shadowTables()
    return { name in
      let key = name.nameKey
      return key.hasPrefix("sqlite_") || key.hasPrefix("grdb_") || key.hasPrefix("sealite_")
        || shadowTables.contains(key)
    }
  }

  /// The name keys of the shadow tables of the main schema. SQLite tells them
  /// from 3.37 on (`PRAGMA table_list`). Before, `table_list` is an unknown
  /// pragma, which returns no row: a shadow table is then told by SQLite's
  /// naming rule, the name of a virtual table followed by `_` and a suffix.
  private func shadowTables() throws -> Set<String> {
    var names: Set<String> = []
    if Database.sqliteLibVersionNumber >= 3_037_000 {
      for row in try Row.fetchAll(self, sql: "PRAGMA main.table_list") {
        let type: String? = row["type"]
        if type == "shadow", let name: String = row["name"] { names.insert(name.nameKey) }
      }
      return names
    }
    let virtualTables = try String.fetchAll(
      self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'"
    ).map { $0.nameKey + "_" }
    guard !virtualTables.isEmpty else { return names }
    for name in try String.fetchAll(self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
      let key = name.nameKey
      if virtualTables.contains(where: { key.hasPrefix($0) }) { names.insert(key) }
    }
    return names
  }
}
