import CSQLCipher
import Foundation

extension DatabaseQueue {
  /// Upgrades, in place, a database written by an older SQLCipher (format 1, 2
  /// or 3) to the format of the linked SQLCipher. Returns false, writing
  /// nothing, when the database is in that format already.
  ///
  ///     try DatabaseQueue.migrateCipherFormat(atPath: path, key: .passphrase("secret"))
  ///     let dbQueue = try DatabaseQueue(path: path, configuration: configKeyedWithSecret)
  ///
  /// The key stays the same. The migration writes a new copy beside the file
  /// (as ``exportDatabase(atPath:key:cipher:to:destinationKey:overwrite:progress:cancellation:willPublish:)``
  /// does), checks it, and renames it over the original: a crash or a
  /// cancellation at any moment leaves the original as it was, or the whole
  /// new file. A database in WAL mode is checkpointed first (so the backup
  /// and the copy hold every commit) and stays in WAL mode. While the copy is
  /// written, a read transaction keeps other connections from committing
  /// (they wait, or fail with `SQLITE_BUSY`): close every other connection
  /// first, since one still open afterwards would keep writing to the
  /// replaced file. Holds the database's ``DatabaseFileLock``.
  ///
  /// - parameter path: the database to upgrade.
  /// - parameter key: its key.
  /// - parameter backupPath: where to keep the original file (a hard link to
  ///   it, or a copy where links are not possible), or nil for no backup. It
  ///   must not exist, unless it is a hard link to the database itself (which
  ///   an interrupted migration leaves).
  /// - parameter cancellation: stops the migration before the rename.
  /// - Throws: `SQLITE_NOTADB` if the key does not open the file in any known
  ///   format, `SQLITE_READONLY` for a file that can not be written,
  ///   `SQLITE_BUSY` while other connections have it open in WAL mode.
  @discardableResult
  public static func migrateCipherFormat(
    atPath path: String, key: DatabaseKey, backupPath: String? = nil,
    cancellation: OperationCancellation? = nil
  ) throws -> Bool {
    try Database.requireFile(atPath: path)
    return try DatabaseFileLock.withLock(forDatabaseAtPath: path, cancellation: cancellation) {
      guard access(path, W_OK) == 0 else {
        throw DatabaseError(
          resultCode: .SQLITE_READONLY, message: "\(path) can not be migrated: the database file is read-only"
        )
      }
      // Writable probes: a transaction a crash interrupted is rolled back first.
      guard let format = try openingFormat(atPath: path, key: key, writable: true) else {
        throw DatabaseError(
          resultCode: .SQLITE_NOTADB,
          message: "SQLCipher could not migrate \(path): the key does not open it in any known format")
      }
      guard format.format < linkedCipherFormat else { return false }
      if let backupPath {
        var backup = stat()
        var original = stat()
        if lstat(backupPath, &backup) == 0 {
          // A hard link to the database itself is what a migration interrupted
          // before its rename left: the same file, not a backup to keep apart.
          guard stat(path, &original) == 0, backup.st_dev == original.st_dev, backup.st_ino == original.st_ino
          else {
            throw DatabaseError(
              resultCode: .SQLITE_CANTOPEN, message: "\(backupPath) already exists: move it away first")
          }
          unlink(backupPath)
        }
      }
      try cancellation.check("the migration")
      try migrate(
        path: path, key: key, cipher: format.cipher, backupPath: backupPath, cancellation: cancellation)
      return true
    }
  }

  private static func migrate(
    path: String, key: DatabaseKey, cipher: CipherConfiguration, backupPath: String?,
    cancellation: OperationCancellation?
  ) throws {
    var config = Configuration()
    config.key = key
    config.cipher = cipher
    config.allowsUnsafeTransactions = true
    config.observesOtherProcesses = false
    let holder = try DatabaseQueue(path: path, configuration: config)
    defer { try? holder.close() }
    let originalMode = try holder.writer.sync { db in
      try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() ?? "delete"
    }
    if originalMode == "wal" {
      // Every commit into the main file, and no WAL left beside the new one.
      let mode = try holder.writer.sync { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") }
      guard mode?.lowercased() == "delete" else {
        throw DatabaseError(
          resultCode: .SQLITE_BUSY,
          message: "\(path) can not be migrated while other connections have it open: close them first")
      }
    }
    var migrated = false
    defer {
      if !migrated && originalMode == "wal" {
        try? holder.writer.sync { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
      }
    }
    let output = try NewDatabaseFile(destination: path, overwrite: true)
    defer { if !migrated { output.discard() } }
    // A shared lock until the new file is in place: no commit can be lost.
    // (The rollback is registered first: the read after BEGIN may fail.)
    defer { try? holder.writer.sync { db in try db.execute(sql: "ROLLBACK") } }
    try holder.writer.sync { db in
      try db.execute(sql: "BEGIN DEFERRED TRANSACTION; SELECT count(*) FROM sqlite_master")
    }
    _ = try writeCopy(
      ofDatabaseAtPath: path, key: key, cipher: cipher, to: output.temporaryPath, destinationKey: key,
      journalMode: originalMode == "wal" ? "wal" : nil, progress: nil, cancellation: cancellation,
      operation: "the migration")
    try cancellation.check("the migration")
    if let backupPath { try keepBackup(of: path, at: backupPath) }
    try output.publish(replacing: true)
    migrated = true
  }

  /// Keeps the original file at `backupPath`: a hard link (no copy, and the
  /// same bytes), or a copy where the file system has no links.
  private static func keepBackup(of path: String, at backupPath: String) throws {
    if link(path, backupPath) == 0 { return }
    // Copied through a descriptor that stays open: the migration's shared
    // lock on the file, which keeps commits out until the new file is in
    // place, must outlive the copy. (nil once copied; ENOENT if the file
    // could not be opened at all.)
    let failure = LockPreservingFileRead.withDescriptor(of: path) { copyFile($0, to: backupPath) } ?? ENOENT
    if let failure {
      throw DatabaseError(
        resultCode: failure == ENOSPC ? .SQLITE_FULL : .SQLITE_CANTOPEN,
        message: "could not write the backup \(backupPath): \(String(cString: strerror(failure)))")
    }
    do {
      try NewDatabaseFile.sync(backupPath)
    } catch {
      unlink(backupPath)
      throw error
    }
  }

  /// Copies the file open at `source` to a new file at `path`; returns the
  /// `errno` of a failure (having removed what it wrote), or nil.
  private static func copyFile(_ source: Int32, to path: String) -> Int32? {
    // O_EXCL: a file already at `path` is never overwritten, nor removed.
    let destination = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard destination >= 0 else { return errno }
    let failure = copyBytes(from: source, to: destination)
    Glibc.close(destination)
    if failure != nil { unlink(path) }
    return failure
  }

  private static func copyBytes(from source: Int32, to destination: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var offset: off_t = 0
    while true {
      let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, $0.count, offset) }
      if count < 0 { return errno }
      if count == 0 { return nil }
      var written = 0
      while written < count {
        let result = buffer.withUnsafeBytes {
          Glibc.write(destination, $0.baseAddress! + written, count - written)
        }
        if result < 0 { return errno }
        written += result
      }
      offset += off_t(count)
    }
  }

  /// The format of the linked SQLCipher (3 or 4).
  static var linkedCipherFormat: Int {
    SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) } ?? 0
  }

  /// The format a key opens a file in, with the settings that open it:
  /// the linked version's first, then each older one.
  static func openingFormat(atPath path: String, key: DatabaseKey, writable: Bool) throws
    -> (format: Int, cipher: CipherConfiguration)?
  {
    let linked = linkedCipherFormat
    guard linked > 0 else { return nil }
    // The settings of each older format, as the linked version spells them:
    // SQLCipher 4 has `cipher_compatibility`; SQLCipher 3 only the settings
    // themselves (formats 1 and 2 differ from 3 by their KDF iterations and HMAC).
    let older: [(Int, CipherConfiguration)] =
      linked >= 4
      ? (1...linked - 1).reversed().map { ($0, CipherConfiguration(compatibility: $0)) }
      : [
        (2, CipherConfiguration(kdfIterations: 4000)),
        (
          1,
          { () -> CipherConfiguration in
            var cipher = CipherConfiguration(kdfIterations: 4000)
            cipher.otherPragmas = ["PRAGMA cipher_use_hmac = OFF"]
            return cipher
          }()
        ),
      ]
    for (format, cipher) in [(linked, CipherConfiguration())] + older
    where try Database.keyOpensFile(atPath: path, key: key, cipherPragmas: cipher.pragmas, writable: writable)
    {
      return (format, cipher)
    }
    return nil
  }
}

extension DatabaseQueue {
  /// The SQLCipher file format (1 to 4) of an encrypted database: the major
  /// SQLCipher version whose default settings open the file with `key`. Nil
  /// when the key opens it in no known format: a wrong key, a plaintext file,
  /// or a file that is not a database.
  ///
  ///     if try DatabaseQueue.cipherFormat(atPath: path, key: key) == 3 {
  ///       try DatabaseQueue.migrateCipherFormat(atPath: path, key: key)
  ///     }
  ///
  /// A format older than the linked SQLCipher's opens with
  /// ``CipherConfiguration/compatibility`` set to it, or after
  /// ``migrateCipherFormat(atPath:key:backupPath:cancellation:)``. Nothing is written.
  public static func cipherFormat(atPath path: String, key: DatabaseKey) throws -> Int? {
    try Database.requireFile(atPath: path)
    return try openingFormat(atPath: path, key: key, writable: false)?.format
  }
}

extension DatabaseQueue {
  /// The cipher settings that open an encrypted database with `key`: the
  /// linked SQLCipher's defaults, or those of the older format the file is in
  /// (see ``cipherFormat(atPath:key:)``). Nil when the key opens it in no
  /// known format. Nothing is written.
  ///
  ///     var config = Configuration()
  ///     config.key = key
  ///     config.cipher = try DatabaseQueue.cipherConfiguration(atPath: path, key: key) ?? CipherConfiguration()
  public static func cipherConfiguration(atPath path: String, key: DatabaseKey) throws -> CipherConfiguration?
  {
    try Database.requireFile(atPath: path)
    return try openingFormat(atPath: path, key: key, writable: false)?.cipher
  }
}

extension Database {
  /// Throws unless a database file is at `path`: whole-file operations must
  /// not create a database by opening a missing or empty file (SQLite would
  /// turn it into a new, empty database), nor try to open a directory.
  ///
  /// - `SQLITE_CANTOPEN` "no database file at …" when nothing is there,
  /// - `SQLITE_CANTOPEN` "… is a directory, not a database file",
  /// - `SQLITE_NOTADB` "… is empty: not a database" for a zero-length file.
  static func requireFile(atPath path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      throw DatabaseError(resultCode: .SEALITE_CANTOPEN_NOFILE, message: "no database file at \(path)")
    }
    guard !isDirectory(path) else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN, message: "\(path) is a directory, not a database file")
    }
    if isZeroLengthFile(path) {
      throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "\(path) is empty: not a database")
    }
  }
}
