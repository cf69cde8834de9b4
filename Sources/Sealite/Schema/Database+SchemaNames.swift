extension Database {
  /// The schemas of the connection, in SQLite's order of name resolution:
  /// temp (if it exists), main, then attached databases.
  func schemaNames() throws -> [String] {
    let names = try Row.fetchAll(self, sql: "PRAGMA database_list").map { $0[1] as String }
    return names.filter { $0 == "temp" } + names.filter { $0 != "temp" }
  }

  /// The name of the table `name` as the schema spells it, or nil if no
  /// schema has a table of that name (views are no tables). `sqlite_master`
  /// always exists; `sqlite_temp_master` once the temp schema does.
  func canonicalTableName(_ name: String) throws -> String? {
    try cachedSchemaFact(\.canonicalTableNames, name) { try lookUpCanonicalTableName(name) }
  }

  private func lookUpCanonicalTableName(_ name: String) throws -> String? {
    let schemas = try schemaNames()
    switch name.nameKey {
    case "sqlite_master", "sqlite_schema":
      return name
    case "sqlite_temp_master", "sqlite_temp_schema":
      return schemas.contains("temp") ? name : nil
    default:
      for schema in schemas {
        let master =
          schema == "temp" ? "sqlite_temp_master" : "\(schema.quotedDatabaseIdentifier).sqlite_master"
        if let found = try String.fetchOne(
          self, sql: "SELECT name FROM \(master) WHERE type = 'table' AND name = ? COLLATE NOCASE",
          arguments: [name])
        {
          return found
        }
      }
      return nil
    }
  }

  /// The names of the tables of every schema (the region of a request that
  /// reads the whole database).
  func allTableNames() throws -> [String] {
    try schemaNames().flatMap { schema in
      let master =
        schema == "temp" ? "sqlite_temp_master" : "\(schema.quotedDatabaseIdentifier).sqlite_master"
      return try String.fetchAll(self, sql: "SELECT name FROM \(master) WHERE type = 'table' ORDER BY name")
    }
  }
}
