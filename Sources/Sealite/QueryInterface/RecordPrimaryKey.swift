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

  /// The key's only column, or the misuse error of a key given as one value
  /// for the composite primary key of `table`.
  func singleColumn(of table: String) throws -> String {
    guard columns.count == 1 else {
      throw DatabaseError.misuse(
        "table \(table) has a composite primary key (\(columns.joined(separator: ", "))): use a key dictionary"
      )
    }
    return columns[0]
  }
}

/// The primary keys `recordPrimaryKey` found, by table name as spelled.
/// Unchecked exclusivity: one connection's state, used by one access at a time.
final class RecordPrimaryKeyCache: ConnectionState {
  @exclusivity(unchecked) var primaryKeys = LastHitDictionary<String, RecordPrimaryKey>()

  static func make(for db: Database) -> RecordPrimaryKeyCache { RecordPrimaryKeyCache() }

  func schemaDidChange() { primaryKeys.removeAll() }
}

extension Database {
  /// The primary key of `tableName`, from the schema layer's cached
  /// introspection. A single `INTEGER PRIMARY KEY` of a `WITHOUT ROWID` table
  /// is not a rowid.
  ///
  /// Remembered per connection until the schema changes: records and
  /// requests ask for the key of one table again and again (each save, each
  /// lookup by key), and the schema layer's cache looks facts up by a folded
  /// name through a key path.
  func recordPrimaryKey(_ tableName: String) throws -> RecordPrimaryKey {
    validateSchemaFacts()
    // Borrowed, not retained (see withState(for:_:)).
    return try withState(for: RecordPrimaryKeyCache.self) { cache in
      if let primaryKey = cache.primaryKeys.value(for: tableName) { return primaryKey }
      let info = try primaryKey(tableName)
      let primaryKey = RecordPrimaryKey(
        columns: info.columns, rowIDColumn: info.tableHasRowID ? info.rowIDColumn : nil,
        isWithoutRowID: !info.tableHasRowID)
      cache.primaryKeys.set(primaryKey, for: tableName)
      return primaryKey
    }
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
