import CSQLCipher
import Foundation

extension DatabaseQueue {
  /// Writes a copy of a database into a new file, encrypted with another key,
  /// or in plaintext (`sqlcipher_export`). This is how a database gets its
  /// first key (import a plaintext file), loses it (export to plaintext), or
  /// moves to a new file with a new key.
  ///
  ///     try DatabaseQueue.exportDatabase(
  ///       atPath: "plain.sqlite", key: nil, to: "secret.sqlite", destinationKey: .randomRaw())
  ///
  /// The copy is written to a temporary file beside the destination, checked
  /// (it opens with `destinationKey`, `PRAGMA integrity_check` passes, and
  /// every table holds as many rows as in the source), synced to disk, and only
  /// then renamed to `destinationPath`. On any failure the temporary file is
  /// removed, and the source and any existing destination are left as they
  /// were. The schema version (`user_version`) is copied too.
  ///
  /// - parameter sourcePath: the database to copy.
  /// - parameter key: the key of the source, nil for a plaintext source.
  /// - parameter cipher: the cipher settings of the source (an SQLCipher 3
  ///   file, say); the copy always gets the linked SQLCipher's defaults, so
  ///   exporting also upgrades the format.
  /// - parameter destinationPath: the file to write the copy to.
  /// - parameter destinationKey: the key of the copy, nil for plaintext.
  /// - parameter overwrite: whether an existing destination file is replaced
  ///   (default false: an existing destination is an error).
  /// - parameter progress: called about ten times a second while the copy is
  ///   written, then once with ``DatabaseExportProgress/isCompleted`` true, on
  ///   a background queue (a command line tool shows it to its user).
  public static func exportDatabase(
    atPath sourcePath: String, key: DatabaseKey?, cipher: CipherConfiguration = CipherConfiguration(),
    to destinationPath: String, destinationKey: DatabaseKey?, overwrite: Bool = false,
    progress: (@Sendable (DatabaseExportProgress) -> Void)? = nil
  ) throws {
    let fileManager = FileManager.default
    try Database.requireFile(atPath: sourcePath)
    if !overwrite && fileManager.fileExists(atPath: destinationPath) {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN,
        message: "\(destinationPath) already exists: refusing to overwrite it")
    }
    let destinationURL = URL(fileURLWithPath: destinationPath)
    let directory = destinationURL.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
      fileManager.isWritableFile(atPath: directory)
    else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN,
        message: "\(directory) is not a writable directory: can not create \(destinationPath)")
    }
    let temporaryPath =
      destinationURL.deletingLastPathComponent()
      .appendingPathComponent(
        ".\(destinationURL.lastPathComponent).sealite-export-\(UUID().uuidString.prefix(8))"
      )
      .path
    defer {
      for suffix in ["", "-journal", "-wal", "-shm"] {
        try? fileManager.removeItem(atPath: temporaryPath + suffix)
      }
    }

    var sourceConfiguration = Configuration()
    sourceConfiguration.key = key
    sourceConfiguration.cipher = cipher
    // Not read-only: SQLite would open the attached copy read-only too. The
    // source itself is only read.
    let source = try DatabaseQueue(path: sourcePath, configuration: sourceConfiguration)
    defer { try? source.close() }
    let (rowCounts, totalPageCount) = try source.writer.sync { db in
      let pageCount = try db.integerPragma("page_count") ?? 0
      let pageSize = try db.integerPragma("page_size") ?? 4096
      let sampler = progress.map {
        ExportProgressSampler(path: temporaryPath, pageSize: pageSize, totalPageCount: pageCount, report: $0)
      }
      defer { sampler?.stop() }
      return (try db.exportContents(to: temporaryPath, key: destinationKey), pageCount)
    }

    // The copy must open with its key and hold the same rows.
    var copyConfiguration = Configuration()
    copyConfiguration.key = destinationKey
    let copy = try DatabaseQueue(path: temporaryPath, configuration: copyConfiguration)
    try copy.writer.sync { db in
      let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
      guard check == ["ok"] else {
        throw DatabaseError(
          resultCode: .SQLITE_CORRUPT,
          message: "the exported copy fails its integrity check: \(check.joined(separator: "; "))")
      }
      for (table, count) in rowCounts {
        let copied = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? -1
        guard copied == count else {
          throw DatabaseError(
            resultCode: .SQLITE_CORRUPT,
            message: "the exported copy of table \(table) holds \(copied) rows instead of \(count)")
        }
      }
    }
    try copy.close()
    try syncFile(atPath: temporaryPath)
    guard Glibc.rename(temporaryPath, destinationPath) == 0 else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN,
        message: "could not move the exported copy to \(destinationPath): \(String(cString: strerror(errno)))"
      )
    }
    try syncFile(atPath: directory)
    progress?(
      DatabaseExportProgress(
        completedPageCount: totalPageCount, totalPageCount: totalPageCount, isCompleted: true))
  }

  /// Flushes a file (or directory) to disk.
  private static func syncFile(atPath path: String) throws {
    let descriptor = Glibc.open(path, O_RDONLY)
    guard descriptor >= 0 else { return }
    defer { _ = Glibc.close(descriptor) }
    _ = fsync(descriptor)
  }
}

extension Database {
  /// Attaches a new file with `key`, copies this database into it with
  /// `sqlcipher_export`, and returns the row count of each table of the source.
  fileprivate func exportContents(to path: String, key: DatabaseKey?) throws -> [(String, Int)] {
    let tables = try String.fetchAll(
      self,
      sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    var rowCounts: [(String, Int)] = []
    for table in tables {
      rowCounts.append(
        (table, try Int.fetchOne(self, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0))
    }
    let userVersion = try Int.fetchOne(self, sql: "PRAGMA user_version") ?? 0
    // The key is bound, never written into the SQL text; an empty key attaches
    // a plaintext database.
    let attach = try makeStatement(sql: "ATTACH DATABASE ? AS sealite_export KEY ?")
    let pathCode = sqlite3_bind_text(attach.sqliteStatement, 1, path, -1, sqliteTransient)
    let keyCode: CInt
    if let key {
      keyCode = key.withSQLCipherKeyBytes { bytes in
        sqlite3_bind_blob(attach.sqliteStatement, 2, bytes.baseAddress, CInt(bytes.count), sqliteTransient)
      }
    } else {
      keyCode = sqlite3_bind_text(attach.sqliteStatement, 2, "", 0, sqliteTransient)
    }
    guard pathCode == SQLITE_OK, keyCode == SQLITE_OK else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not prepare the export file")
    }
    try attach.execute()
    sqlite3_clear_bindings(attach.sqliteStatement)
    defer { try? execute(sql: "DETACH DATABASE sealite_export") }
    do {
      _ = try Row.fetchAll(self, sql: "SELECT sqlcipher_export('sealite_export')")
    } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
      // sqlcipher_export reports every failure as SQLITE_ERROR, with SQLite's
      // text for the real code: give a full disk or an I/O error its own code.
      for code in [ResultCode.SQLITE_FULL, .SQLITE_IOERR]
      where error.message == String(cString: sqlite3_errstr(code.rawValue)) {
        throw DatabaseError(resultCode: code, message: error.message, sql: error.sql)
      }
      throw error
    }
    try execute(sql: "PRAGMA sealite_export.user_version = \(userVersion)")
    return rowCounts
  }
}
