import CSQLCipher

// How a DatabaseCollation reaches SQLite: the collation itself, retained, is
// the user data of `sqlite3_create_collation_v2`, released by the destroy
// callback when the collation is replaced, removed, or the connection closes.

extension DatabaseCollation {
  /// Registers the collation on `connection`, replacing the one of the same
  /// name. SQLite's result code.
  func register(on connection: SQLiteConnection) -> CInt {
    let userData = Unmanaged.passRetained(self).toOpaque()
    let code = sqlite3_create_collation_v2(
      connection, name, SQLITE_UTF8, userData,
      { userData, length1, bytes1, length2, bytes2 in
        let collation = Unmanaged<DatabaseCollation>.fromOpaque(userData!).takeUnretainedValue()
        let result = collation.compare(
          DatabaseCollation.text(bytes1, length1), DatabaseCollation.text(bytes2, length2))
        return CInt(result.rawValue)
      },
      { userData in
        if let userData { Unmanaged<DatabaseCollation>.fromOpaque(userData).release() }
      })
    // Unlike a function's, a collation's destroy callback is not called when
    // the registration fails.
    if code != SQLITE_OK { Unmanaged<DatabaseCollation>.fromOpaque(userData).release() }
    return code
  }

  /// Removes the collation from `connection`. SQLite's result code.
  func unregister(from connection: SQLiteConnection) -> CInt {
    sqlite3_create_collation_v2(connection, name, SQLITE_UTF8, nil, nil, nil)
  }

  /// The UTF-8 text SQLite compares.
  private static func text(_ bytes: UnsafeRawPointer?, _ length: CInt) -> String {
    String(
      decoding: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(length)), as: UTF8.self)
  }
}
