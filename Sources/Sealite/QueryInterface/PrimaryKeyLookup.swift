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
  /// The primary key of `tableName`, cached until the schema changes. A
  /// single `INTEGER PRIMARY KEY` of a `WITHOUT ROWID` table is not a rowid.
  func recordPrimaryKey(_ tableName: String) throws -> RecordPrimaryKey {
    let cacheKey = "record.primaryKey." + tableName.lowercased()
    try validateSchemaCache()
    if let cached = schemaCache.entries[cacheKey] as? RecordPrimaryKey { return cached }
    let columns = try Row.fetchAll(self, sql: "PRAGMA table_info(\(tableName.quotedDatabaseIdentifier))")
    guard !columns.isEmpty else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)")
    }
    let createSQL =
      try String.fetchOne(
        self, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
        arguments: [tableName]) ?? ""
    let isWithoutRowID =
      createSQL.range(
        of: #"\)\s*(?:STRICT\s*,\s*)?WITHOUT\s+ROWID"#, options: [.regularExpression, .caseInsensitive])
      != nil
    let keyColumns = columns.filter { ($0["pk"] as Int? ?? 0) > 0 }.sorted {
      ($0["pk"] as Int) < ($1["pk"] as Int)
    }
    let primaryKey: RecordPrimaryKey
    if keyColumns.isEmpty {
      primaryKey = RecordPrimaryKey(columns: ["rowid"], rowIDColumn: nil, isWithoutRowID: false)
    } else {
      let names = keyColumns.map { $0["name"] as String }
      let type = (keyColumns[0]["type"] as String?)?.uppercased() ?? ""
      let aliasesRowID = names.count == 1 && type == "INTEGER" && !isWithoutRowID
      primaryKey = RecordPrimaryKey(
        columns: names, rowIDColumn: aliasesRowID ? names[0] : nil, isWithoutRowID: isWithoutRowID)
    }
    schemaCache.entries[cacheKey] = primaryKey
    return primaryKey
  }

  /// The number of columns of a table (what `table.*` selects), cached until
  /// the schema changes.
  func recordColumnCount(_ tableName: String) throws -> Int {
    let cacheKey = "record.columnCount." + tableName.lowercased()
    try validateSchemaCache()
    if let cached = schemaCache.entries[cacheKey] as? Int { return cached }
    let count = try Row.fetchAll(self, sql: "PRAGMA table_info(\(tableName.quotedDatabaseIdentifier))").count
    guard count > 0 else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)")
    }
    schemaCache.entries[cacheKey] = count
    return count
  }

  /// Empties the schema cache if the schema changed since it was filled.
  func validateSchemaCache() throws {
    let version = try Int32.fetchOne(self, sql: "PRAGMA schema_version")
    if version != schemaCache.schemaVersion {
      schemaCache.entries.removeAll()
      schemaCache.schemaVersion = version
    }
  }
}
