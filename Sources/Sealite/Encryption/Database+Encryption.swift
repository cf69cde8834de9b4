import CSQLCipher
import Foundation

extension Database {
  /// Keys the connection with a passphrase. Call it from
  /// ``Configuration/prepareDatabase(_:)``, before anything reads the database:
  ///
  ///     var config = Configuration()
  ///     config.prepareDatabase { db in try db.usePassphrase("secret") }
  public func usePassphrase(_ passphrase: String) throws {
    try use(key: .passphrase(passphrase))
  }

  /// Keys the connection with a passphrase given as bytes.
  public func usePassphrase(_ passphrase: Data) throws {
    try use(key: .passphrase(passphrase))
  }

  /// Keys the connection with a passphrase or a raw key, then applies the
  /// configuration's cipher settings.
  public func use(key: DatabaseKey) throws {
    let connection = try self.connection
    let key = configuration.rekeyedKey ?? key
    try configuration.cipher.validate()
    let code = key.withSQLCipherKeyBytes { bytes in
      sqlite3_key_v2(connection, "main", bytes.baseAddress, CInt(bytes.count))
    }
    guard code == SQLITE_OK else {
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "SQLCipher refused the key")
    }
    isKeyed = true
    let keying = state(for: KeyingState.self)
    keying.passphraseInUse = key.kind == .passphrase ? key : nil
    keying.isKeyedWithRawKey = key.kind != .passphrase
    if !hasReadPages { keying.keyOfFirstRead = key }
    // SQLCipher 4 logs decryption failures to stderr once a codec is active. A
    // library must not print: failures reach the caller as thrown errors. (The
    // level is process-wide and reset when SQLCipher activates, hence here.)
    sqlite3_exec(connection, "PRAGMA cipher_log_level = NONE", nil, nil, nil)
    for pragma in configuration.cipher.pragmas {
      try execute(sql: pragma)
    }
  }

  /// Re-encrypts the database with a new passphrase. On a ``DatabasePool``,
  /// prefer ``DatabasePool/changePassphrase(_:)``, which also reconnects readers.
  public func changePassphrase(_ passphrase: String) throws {
    try changeKey(to: .passphrase(passphrase))
  }

  /// Re-encrypts the database with a new passphrase given as bytes.
  public func changePassphrase(_ passphrase: Data) throws {
    try changeKey(to: .passphrase(passphrase))
  }

  /// Re-encrypts the database with a new key (passphrase or raw). Every page is
  /// rewritten; on failure the database keeps its old key.
  public func changeKey(to key: DatabaseKey) throws {
    let connection = try self.connection
    guard isKeyed else {
      throw DatabaseError.misuse(
        "this database is not encrypted: SQLCipher can not add a key in place; export it into an encrypted copy"
      )
    }
    guard !isInsideTransaction else {
      throw DatabaseError.misuse("the key can not be changed inside a transaction")
    }
    // SQLite opens a file it may not write read-only, without a word.
    guard sqlite3_db_readonly(connection, "main") != 1 else {
      throw DatabaseError(
        resultCode: .SQLITE_READONLY,
        message: "the key can not be changed: the database file is read-only (\(path))")
    }
    // The re-encryption goes through a journal beside the file: SQLCipher
    // would fail to create it without a word.
    if Database.isFile(path) {
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      guard access(directory, W_OK | X_OK) == 0 else {
        throw DatabaseError(
          resultCode: .SQLITE_READONLY,
          message: "the key can not be changed: \(directory) is read-only, and the key change writes a "
            + "journal beside the database (\(path))")
      }
    }
    // SQLCipher reports success even when another connection's lock kept it
    // from rewriting the pages: take the write lock first, so that a locked
    // database fails here (after the busy timeout), before anything changes…
    try execute(sql: "BEGIN IMMEDIATE TRANSACTION")
    try execute(sql: "ROLLBACK TRANSACTION")
    let code = key.withSQLCipherKeyBytes { bytes in
      sqlite3_rekey_v2(connection, "main", bytes.baseAddress, CInt(bytes.count))
    }
    guard code == SQLITE_OK else {
      throw DatabaseError.fromConnection(connection, code: code)
    }
    // … and check from a new connection that the file now opens with the new
    // key (another connection may have taken the lock in between).
    if Database.isFile(path), !opensFile(with: key) {
      // SQLCipher may leave the transaction of a key change it gave up open
      // (a page that failed authentication): rolled back.
      if sqlite3_get_autocommit(connection) == 0 { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
      // It may also leave the journal, emptied: not hot, but not removed either.
      _ = try? removeStaleJournal()
      throw keyChangeFailure()
    }
    existingState(for: KeyingState.self)?.keyChangeObserver?(key)
  }

  /// Why a key change SQLCipher reported as done left the file with its old
  /// key (SQLCipher keeps the reason to itself): a page that fails
  /// authentication (it can not be re-encrypted), too little free space for
  /// the journal or WAL that rewrites every page, else another connection's lock.
  private func keyChangeFailure() -> DatabaseError {
    var damage = (try? String.fetchAll(self, sql: "PRAGMA cipher_integrity_check")) ?? []
    // SQLCipher 3 has no cipher_integrity_check, and this connection's cache
    // may hide a damaged page: a new connection with the key that still
    // opens the file reads every page again.
    if damage.isEmpty, let key = configuration.rekeyedKey ?? configuration.key {
      var config = Configuration()
      config.key = key
      config.cipher = configuration.cipher
      config.readonly = true
      config.observesOtherProcesses = false
      do {
        // A bare connection: this layer opens no queue.
        let check = try Database(path: path, description: "key check", configuration: config, readOnly: true)
        defer { check.close() }
        try check.setUp()
        damage += try check.withAccess { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }.filter {
          $0 != "ok"
        }
      } catch let error as DatabaseError
        where [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_AUTH].contains(error.resultCode)
      {
        damage.append(error.message ?? "\(error.resultCode)")
      } catch {}
    }
    if !damage.isEmpty {
      return DatabaseError(
        resultCode: .SQLITE_CORRUPT,
        message: "the key change did not take effect: the database is damaged or was tampered with "
          + "(\(damage.prefix(3).joined(separator: "; ")))")
    }
    var file = stat()
    var disk = statvfs()
    if stat(path, &file) == 0, statvfs(path, &disk) == 0 {
      let free = Int64(disk.f_bavail) * Int64(disk.f_frsize)
      // Each page goes to the journal or WAL with a few bytes of its own.
      let needed = Int64(file.st_size) + Int64(file.st_size) / 32 + 65536
      if free < needed {
        return DatabaseError(
          resultCode: .SQLITE_FULL,
          message:
            "the key change did not take effect: the disk is full (re-encrypting \(path) needs about "
            + "\(needed) bytes free, \(free) are)")
      }
    }
    return DatabaseError(
      resultCode: .SQLITE_BUSY,
      message: "the key change did not take effect: another connection holds the database locked")
  }

  /// True for a database in a file (not in memory).
  static func isFile(_ path: String) -> Bool {
    !path.isEmpty && path != ":memory:" && !path.contains("mode=memory")
  }

  /// True if a new connection keyed with `key` (and this connection's cipher
  /// settings) reads the schema of the file.
  func opensFile(with key: DatabaseKey) -> Bool {
    (try? Database.keyOpensFile(atPath: path, key: key, cipherPragmas: configuration.cipher.pragmas)) ?? false
  }

  /// The SQLCipher settings in force on this connection (`cipher_*` pragmas),
  /// for diagnostics. Empty for an unencrypted connection.
  public func cipherSettings() throws -> [String: String] {
    guard isKeyed else { return [:] }
    var result: [String: String] = [:]
    for name in [
      "cipher_version", "cipher_provider", "cipher_page_size", "kdf_iter", "cipher_hmac_algorithm",
      "cipher_kdf_algorithm",
    ] {
      if let value = try? String.fetchOne(self, sql: "PRAGMA \(name)") { result[name] = value }
    }
    return result
  }
}
