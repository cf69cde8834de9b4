import CSQLCipher

extension Database {
  /// SQLite's default `cache_size` (a compile-time setting, -2000 unless the
  /// library was built otherwise), read once from a connection to memory.
  static let defaultCacheSize: Int? = {
    var connection: OpaquePointer?
    defer { sqlite3_close_v2(connection) }
    SQLiteErrorLog.install()
    guard sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
      return nil
    }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(connection, "PRAGMA cache_size", -1, &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
    else { return nil }
    return Int(sqlite3_column_int64(statement, 0))
  }()

  /// The value of an integer pragma. SQLCipher answers some as text
  /// (`page_size` of a keyed database), and SQLite others as integers.
  func integerPragma(_ name: String) throws -> Int? {
    guard let value = try DatabaseValue.fetchOne(self, sql: "PRAGMA \(name)") else { return nil }
    return Int.fromDatabaseValue(value) ?? String.fromDatabaseValue(value).flatMap { Int($0) }
  }
}
