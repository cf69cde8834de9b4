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
  /// The copy is written to a temporary file beside the destination (created
  /// with `O_EXCL`, mode 0600, so a plaintext copy is never readable by others
  /// either), checked (it opens with `destinationKey`, `PRAGMA
  /// integrity_check` passes, and every table holds as many rows as in the
  /// source), synced to disk, and only then renamed to `destinationPath`: the
  /// rename is the commit point. On any failure, and on cancellation, the
  /// temporary file is removed, and the source and any existing destination
  /// are left as they were. The schema version (`user_version`) is copied too.
  /// The export holds the destination's ``DatabaseFileLock``.
  ///
  /// A destination that is a symbolic link is refused (nothing is ever
  /// written through a link: give the path of the file itself), and so is a
  /// destination that is the source itself. Without `overwrite`, a file that
  /// another program creates at the destination while the copy is written is
  /// not replaced either: the export fails.
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
  /// - parameter cancellation: stops the export before the rename; it then
  ///   throws `SQLITE_INTERRUPT`, having changed nothing.
  /// - parameter willPublish: called once the copy is written and checked,
  ///   right before the rename; an error it throws ends the export with
  ///   nothing changed. (The keyring stores the copy's key there, so that a
  ///   key exists before the file it opens.)
  public static func exportDatabase(
    atPath sourcePath: String, key: DatabaseKey?, cipher: CipherConfiguration = CipherConfiguration(),
    to destinationPath: String, destinationKey: DatabaseKey?, overwrite: Bool = false,
    progress: (@Sendable (DatabaseExportProgress) -> Void)? = nil,
    cancellation: OperationCancellation? = nil,
    willPublish: (() throws -> Void)? = nil
  ) throws {
    try Database.requireFile(atPath: sourcePath)
    let pageCount = try DatabaseFileLock.withLock(
      forDatabaseAtPath: destinationPath, cancellation: cancellation
    ) {
      try cancellation.check("the export")
      let output = try NewDatabaseFile(
        destination: destinationPath, overwrite: overwrite, sourcePath: sourcePath)
      var published = false
      defer { if !published { output.discard() } }
      let pageCount = try writeCopy(
        ofDatabaseAtPath: sourcePath, key: key, cipher: cipher, to: output.temporaryPath,
        destinationKey: destinationKey, progress: progress, cancellation: cancellation,
        operation: "the export")
      try cancellation.check("the export")
      try willPublish?()
      try cancellation.check("the export")
      try output.publish(replacing: overwrite)
      published = true
      return pageCount
    }
    progress?(
      DatabaseExportProgress(completedPageCount: pageCount, totalPageCount: pageCount, isCompleted: true))
  }

  /// Copies the database at `sourcePath` into the empty file at `copyPath`
  /// and checks the copy; returns the source's page count. `journalMode`
  /// (e.g. "wal") is given to the copy. Cancellation interrupts the SQL that
  /// runs, and throws the cancellation error.
  static func writeCopy(
    ofDatabaseAtPath sourcePath: String, key: DatabaseKey?, cipher: CipherConfiguration, to copyPath: String,
    destinationKey: DatabaseKey?, journalMode: String? = nil,
    progress: (@Sendable (DatabaseExportProgress) -> Void)?, cancellation: OperationCancellation?,
    operation: String
  ) throws -> Int {
    do {
      var sourceConfiguration = Configuration()
      sourceConfiguration.key = key
      sourceConfiguration.cipher = cipher
      // Not read-only: SQLite would open the attached copy read-only too. The
      // source itself is only read.
      let source = try DatabaseQueue(path: sourcePath, configuration: sourceConfiguration)
      defer { try? source.close() }
      let (rowCounts, pageCount) = try source.writer.sync { db in
        let pageCount = try db.integerPragma("page_count") ?? 0
        let pageSize = try db.integerPragma("page_size") ?? 4096
        let sampler = progress.map {
          ExportProgressSampler(path: copyPath, pageSize: pageSize, totalPageCount: pageCount, report: $0)
        }
        defer { sampler?.stop() }
        let rowCounts = try cancellation.interrupting(db.connection) {
          try db.exportContents(to: copyPath, key: destinationKey)
        }
        return (rowCounts, pageCount)
      }
      try cancellation.check(operation)

      // The copy must open with its key and hold the same rows.
      var copyConfiguration = Configuration()
      copyConfiguration.key = destinationKey
      copyConfiguration.observesOtherProcesses = false
      let copy = try DatabaseQueue(path: copyPath, configuration: copyConfiguration)
      defer { try? copy.close() }
      try copy.writer.sync { db in
        try cancellation.interrupting(db.connection) {
          try db.checkCopy(rowCounts: rowCounts)
          if let journalMode { try db.execute(sql: "PRAGMA journal_mode = \(journalMode)") }
        }
      }
      try copy.close()
      return pageCount
    } catch let error as DatabaseError where cancellation?.isCancelled == true {
      _ = error
      throw OperationCancellation.error(operation)
    }
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
    try attachExport(path: path, key: key)
    defer { try? execute(sql: "DETACH DATABASE sealite_export") }
    do {
      _ = try Row.fetchAll(self, sql: "SELECT sqlcipher_export('sealite_export')")
    } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
      // sqlcipher_export reports every failure as SQLITE_ERROR, with SQLite's
      // text for the real code: give a full disk, an I/O error or an
      // interruption its own code.
      for code in [ResultCode.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_INTERRUPT]
      where error.message == String(cString: sqlite3_errstr(code.rawValue)) {
        throw DatabaseError(resultCode: code, message: error.message, sql: error.sql)
      }
      throw error
    }
    try execute(sql: "PRAGMA sealite_export.user_version = \(userVersion)")
    return rowCounts
  }

  /// `ATTACH DATABASE path AS sealite_export KEY key`, the key bound, never
  /// written into the SQL text; an empty key attaches a plaintext database.
  /// The key is bound without a copy (SQLITE_STATIC): SQLite would free its
  /// own copy without wiping it. The binding ends before the bytes are wiped.
  private func attachExport(path: String, key: DatabaseKey?) throws {
    let attach = try makeStatement(sql: "ATTACH DATABASE ? AS sealite_export KEY ?")
    let statement = attach.sqliteStatement
    // Bound below through the C API, never as StatementArguments.
    attach.argumentsWereGiven = true
    defer { sqlite3_clear_bindings(statement) }
    guard sqlite3_bind_text(statement, 1, path, -1, sqliteTransient) == SQLITE_OK else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not prepare the export file")
    }
    guard let key else {
      guard sqlite3_bind_text(statement, 2, "", 0, nil) == SQLITE_OK else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not prepare the export file")
      }
      try attach.execute()
      return
    }
    try key.withSQLCipherKeyBytes { bytes in
      defer { sqlite3_clear_bindings(statement) }
      guard sqlite3_bind_blob(statement, 2, bytes.baseAddress, CInt(bytes.count), nil) == SQLITE_OK else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not prepare the export file")
      }
      try attach.execute()
    }
  }

  /// Checks an exported copy: its integrity, and the row count of each table.
  fileprivate func checkCopy(rowCounts: [(String, Int)]) throws {
    let check = try String.fetchAll(self, sql: "PRAGMA integrity_check")
    guard check == ["ok"] else {
      throw DatabaseError(
        resultCode: .SQLITE_CORRUPT,
        message: "the exported copy fails its integrity check: \(check.joined(separator: "; "))")
    }
    for (table, count) in rowCounts {
      let copied = try Int.fetchOne(self, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? -1
      guard copied == count else {
        throw DatabaseError(
          resultCode: .SQLITE_CORRUPT,
          message: "the exported copy of table \(table) holds \(copied) rows instead of \(count)")
      }
    }
  }
}
