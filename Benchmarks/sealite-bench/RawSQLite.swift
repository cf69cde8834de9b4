// The baseline: the SQLCipher C API called directly, set up as Sealite sets up
// its connections (Database.init and Database.setUp), so that both sides run
// with the same key, the same pragmas and the same open flags:
//
//   - sqlite3_open_v2 with READWRITE | CREATE | NOMUTEX | URI (READONLY | NOMUTEX
//     | URI for a read-only connection), extended result codes on;
//   - busy timeout 0 (Sealite's default BusyMode.immediateError);
//   - sqlite3_key_v2 with the bytes Sealite gives SQLCipher: the passphrase's
//     UTF-8 bytes, or the text x'<64 lowercase hex digits>' for a raw key
//     (DatabaseKey.withSQLCipherKeyBytes); then PRAGMA cipher_log_level = NONE;
//   - SELECT count(*) FROM sqlite_master, where SQLCipher derives the key;
//   - on an empty file, BEGIN IMMEDIATE; PRAGMA user_version = 0; COMMIT, as
//     Sealite writes the encrypted header at once;
//   - PRAGMA foreign_keys = ON, PRAGMA temp_store = MEMORY (keyed connections),
//     and PRAGMA cache_size = N when --cache-size is given (Configuration.pageCacheSize).
//
// The tight C loop is the same connection, with text bound and read by its
// byte count, as a careful C programmer writes it: sqlite3_bind_text with the
// UTF-8 length, and sqlite3_column_text + sqlite3_column_bytes into
// String(decoding:as:) instead of String(cString:), which scans for the NUL.
//
// Sealite also installs an authorizer on every connection (it records what
// statements read and write, for observation): that is Sealite's own work and
// is not copied here.

import CSQLCipher
import Foundation

let sqliteTransientDestructor = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)

/// A raw SQLite connection with Sealite's settings (see the top of this file).
final class RawConnection {
  let handle: OpaquePointer
  /// The tight C loop: text bound and read by its byte count.
  let isTight: Bool

  init(path: String, key: BenchKey, readOnly: Bool = false, cacheSize: Int? = nil, tight: Bool = false) throws
  {
    isTight = tight
    var connection: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
      | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      sqlite3_close_v2(connection)
      throw BenchError("sqlite3_open_v2 failed with code \(code)")
    }
    handle = connection
    sqlite3_extended_result_codes(connection, 1)
    sqlite3_busy_timeout(connection, 0)
    let keyBytes = key.sqlcipherKeyBytes
    if !keyBytes.isEmpty {
      let keyed = keyBytes.withUnsafeBytes { buffer in
        sqlite3_key_v2(connection, "main", buffer.baseAddress, CInt(buffer.count))
      }
      guard keyed == SQLITE_OK else { throw BenchError("sqlite3_key_v2 failed with code \(keyed)") }
    }
    try execute("PRAGMA cipher_log_level = NONE")
    try execute("SELECT count(*) FROM sqlite_master")
    if !readOnly, RawConnection.isEmptyFile(path) {
      try execute("BEGIN IMMEDIATE TRANSACTION")
      try execute("PRAGMA user_version = 0")
      try execute("COMMIT TRANSACTION")
    }
    try execute("PRAGMA foreign_keys = ON")
    try execute("PRAGMA temp_store = MEMORY")
    // Sealite's default for encrypted connections (Configuration.pageCacheSize).
    if let cacheSize = cacheSize ?? (keyBytes.isEmpty ? nil : -16_384) {
      try execute("PRAGMA cache_size = \(cacheSize)")
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  static func isEmptyFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return true }
    return info.st_size == 0
  }

  func execute(_ sql: String) throws {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, sql) }
  }

  func prepare(_ sql: String) throws -> RawStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw error(code, sql) }
    return RawStatement(handle: statement, isTight: isTight)
  }

  /// The single integer a query returns.
  func integer(_ sql: String) throws -> Int {
    let statement = try prepare(sql)
    guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw error(sqlite3_errcode(handle), sql) }
    return Int(sqlite3_column_int64(statement.handle, 0))
  }

  func error(_ code: CInt, _ sql: String) -> BenchError {
    BenchError("SQLite error \(code) (\(String(cString: sqlite3_errmsg(handle)))) in \(sql)")
  }
}

/// A prepared statement, finalized when released.
final class RawStatement {
  let handle: OpaquePointer
  /// Text bound and read by its byte count (the tight C loop).
  let isTight: Bool

  init(handle: OpaquePointer, isTight: Bool) {
    self.handle = handle
    self.isTight = isTight
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Reads the current row of `SELECT id, name, score, flag` into Swift values.
  @inline(__always)
  func item() -> Item {
    Item(
      id: Int(sqlite3_column_int64(handle, 0)),
      name: isTight ? text(1) : String(cString: sqlite3_column_text(handle, 1)),
      score: sqlite3_column_double(handle, 2),
      flag: Int(sqlite3_column_int64(handle, 3)))
  }

  /// The text of a column, read by its byte count.
  @inline(__always)
  func text(_ column: CInt) -> String {
    let bytes = sqlite3_column_text(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Binds an item to the four parameters of `INSERT INTO item (id, name,
  /// score, flag) VALUES (?, ?, ?, ?)` (or of an upsert that starts so).
  @inline(__always)
  func bind(_ item: Item) {
    sqlite3_bind_int64(handle, 1, Int64(item.id))
    bindText(item.name, at: 2)
    sqlite3_bind_double(handle, 3, item.score)
    sqlite3_bind_int64(handle, 4, Int64(item.flag))
  }

  /// Binds a text parameter: by its byte count in the tight loop, as a C
  /// string otherwise.
  @inline(__always)
  func bindText(_ text: String, at index: CInt) {
    if isTight {
      var text = text
      text.withUTF8 { utf8 in
        _ = sqlite3_bind_text(
          handle, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
          CInt(utf8.count), sqliteTransientDestructor)
      }
    } else {
      sqlite3_bind_text(handle, index, text, -1, sqliteTransientDestructor)
    }
  }

  /// Binds an item, runs the statement and resets it.
  @inline(__always)
  func insert(_ item: Item) throws {
    bind(item)
    let code = sqlite3_step(handle)
    sqlite3_reset(handle)
    guard code == SQLITE_DONE else { throw BenchError("insert failed with code \(code)") }
  }
}
