import CSQLCipher

extension Database {
  /// SQLite's default `cache_size` (a compile-time setting, -2000 unless the
  /// library was built otherwise), read once from a connection to memory.
  static let defaultCacheSize: Int? = {
    var connection: OpaquePointer?
    defer { sqlite3_close_v2(connection) }
    SQLiteErrorLog.install()
    guard sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let connection
    else { return nil }
    return integerPragma(connection, "PRAGMA cache_size").map { Int($0) }
  }()

  /// The integer a pragma statement (`"PRAGMA schema_version"`) returns, read
  /// with the C API: nothing is cached, traced or observed, and a keyed
  /// connection reads no page for a `cipher_*` pragma. Nil if it returns no row.
  static func integerPragma(_ connection: SQLiteConnection, _ sql: String) -> Int64? {
    var statement: SQLiteStatement?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
    else { return nil }
    return sqlite3_column_int64(statement, 0)
  }

  /// The value of an integer pragma. SQLCipher answers some as text
  /// (`page_size` of a keyed database), and SQLite others as integers.
  func integerPragma(_ name: String) throws -> Int? {
    guard let value = try DatabaseValue.fetchOne(self, sql: "PRAGMA \(name)") else { return nil }
    return Int.fromDatabaseValue(value) ?? String.fromDatabaseValue(value).flatMap { Int($0) }
  }
}
