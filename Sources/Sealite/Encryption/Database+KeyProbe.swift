import CSQLCipher

// Whether a key opens a file, asked of connections of their own.
//
// SQLCipher 1's format has no HMAC: a wrong key decrypts page 1 to noise
// that SQLite takes for a header, instead of failing. One time in 256 its
// byte 19 says "WAL", and SQLite creates -wal and -shm beside the file before
// it rejects the rest of the header (a read-only connection leaves them
// behind). So a key whose settings authenticate no page first reads the file
// through an immutable open, which opens no WAL or journal and takes no lock:
// a wrong key stops there. An immutable open of an empty file whose pages are
// all in its -wal reads an empty database; the real open then decides.

extension Database {
  /// True if a new connection, keyed with `key` and then given
  /// `cipherPragmas`, reads the schema of the file at `path`. Read-only unless
  /// `writable` (a writable connection rolls back the hot journal a crash
  /// left, which it must before reading anything). Throws `SQLITE_BUSY` when
  /// another connection kept it from reading: that tells nothing of the key.
  static func keyOpensFile(
    atPath path: String, key: DatabaseKey, cipherPragmas: [String], writable: Bool = false
  ) throws -> Bool {
    let flags = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_URI
    guard let connection = keyedConnection(path, flags: flags, key: key, cipherPragmas: cipherPragmas) else {
      return false
    }
    defer { sqlite3_close_v2(connection) }
    if !authenticatesPages(connection) {
      guard immutableSchemaRead(atPath: path, key: key, cipherPragmas: cipherPragmas) == SQLITE_OK else {
        return false
      }
    }
    let code = sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
    if code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED {
      throw DatabaseError(
        resultCode: .SQLITE_BUSY, message: "\(path) is locked by another connection: try again later")
    }
    return code == SQLITE_OK
  }

  /// On a new connection whose cipher settings authenticate no page, before
  /// its first read: throws the error of a key that does not open the file
  /// when an immutable read with the same key and settings finds no database
  /// header. Nothing then appears beside the file.
  func checkKeyOfUnauthenticatedFormat() throws {
    guard isKeyed, Database.isFile(path), let connection = sqliteConnection,
      !Database.authenticatesPages(connection), let keying = existingState(for: KeyingState.self),
      let key = keying.derivedKey ?? keying.keyOfFirstRead
    else { return }
    // The settings the connection has now, prepareDatabase's included; when
    // SQLCipher can not list them, no check (a read with other settings could
    // take the right key for a wrong one).
    let settings = Database.codecSettings(connection)
    guard !settings.isEmpty,
      Database.immutableSchemaRead(atPath: path, key: key, cipherPragmas: settings) == SQLITE_NOTADB
    else { return }
    throw OpeningFailure.classify(
      path: path, isKeyed: true,
      underlying: DatabaseError(resultCode: .SQLITE_NOTADB, message: "file is not a database"))
  }

  /// The result code of reading the schema of `path` through an immutable,
  /// read-only connection keyed with `key` and `cipherPragmas`; nil when the
  /// connection can not be made.
  private static func immutableSchemaRead(atPath path: String, key: DatabaseKey, cipherPragmas: [String])
    -> CInt?
  {
    let uri = fileURI(path, parameters: "immutable=1")
    guard
      let connection = keyedConnection(
        uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, key: key, cipherPragmas: cipherPragmas)
    else { return nil }
    defer { sqlite3_close_v2(connection) }
    return sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil) & 0xFF
  }

  /// A new connection to `path`, keyed with `key` and then given
  /// `cipherPragmas`, that has read nothing yet; nil if it can not be made.
  private static func keyedConnection(
    _ path: String, flags: CInt, key: DatabaseKey, cipherPragmas: [String]
  ) -> SQLiteConnection? {
    var connection: SQLiteConnection?
    guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK, let connection else {
      sqlite3_close_v2(connection)
      return nil
    }
    sqlite3_busy_timeout(connection, 5000)
    let keyed = key.withSQLCipherKeyBytes { bytes in
      sqlite3_key_v2(connection, "main", bytes.baseAddress, CInt(bytes.count))
    }
    var applied = keyed == SQLITE_OK
    if applied {
      sqlite3_exec(connection, "PRAGMA cipher_log_level = NONE", nil, nil, nil)
      applied = cipherPragmas.allSatisfy { sqlite3_exec(connection, $0, nil, nil, nil) == SQLITE_OK }
    }
    guard applied else {
      sqlite3_close_v2(connection)
      return nil
    }
    return connection
  }

  /// False when the connection's cipher settings authenticate no page (no
  /// HMAC, SQLCipher 1's format), or when SQLCipher does not say.
  private static func authenticatesPages(_ connection: SQLiteConnection) -> Bool {
    integerPragma(connection, "PRAGMA cipher_use_hmac").map { $0 != 0 } ?? false
  }

  /// The settings of the connection's codec, as pragmas that give another
  /// connection the same: `PRAGMA cipher_settings` (SQLCipher 4), or those
  /// SQLCipher 3 can tell one by one. Empty if it can tell none.
  private static func codecSettings(_ connection: SQLiteConnection) -> [String] {
    let listed = cipherSettings(connection)
    if !listed.isEmpty { return listed }
    var settings: [String] = []
    for name in ["kdf_iter", "cipher_page_size", "cipher_use_hmac"] {
      guard let value = integerPragma(connection, "PRAGMA \(name)") else { return [] }
      settings.append("PRAGMA \(name) = \(value)")
    }
    return settings
  }

}
