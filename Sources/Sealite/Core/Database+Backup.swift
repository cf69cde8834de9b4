import CSQLCipher

/// How far a backup is (see ``Database/backup(to:pagesPerStep:progress:)``).
public struct DatabaseBackupProgress: Sendable {
  /// The pages left to copy.
  public let remainingPageCount: Int
  /// The pages of the source database.
  public let totalPageCount: Int
  /// The pages copied.
  public var completedPageCount: Int { totalPageCount - remainingPageCount }
  /// Whether the backup is complete.
  public let isCompleted: Bool
}

extension Database {
  /// Copies this database into `destDb` with SQLite's backup API, replacing
  /// its content.
  ///
  ///     let source = try DatabaseQueue(path: "/path/to/source.sqlite", configuration: config)
  ///     let destination = try DatabaseQueue(path: "/path/to/backup.sqlite", configuration: config)
  ///     try source.read { sourceDb in
  ///       try destination.barrierWriteWithoutTransaction { destDb in
  ///         try sourceDb.backup(to: destDb, pagesPerStep: 100) { progress in
  ///           print("\(progress.completedPageCount) / \(progress.totalPageCount)")
  ///         }
  ///       }
  ///     }
  ///
  /// Encryption is kept on both sides: SQLCipher reads each page with the
  /// source's key and writes it with the destination's, so an encrypted
  /// database backs up into an encrypted one, even with another key (the
  /// copy then opens with the destination's key), and a plaintext database
  /// into a plaintext one. SQLCipher refuses the other two cases, and so does
  /// Sealite, before anything is copied: an `SQLITE_ERROR` that says so, and
  /// names the way to write a plaintext copy of an encrypted database, or an
  /// encrypted copy of a plaintext one: `sqlcipher_export`, which
  /// ``DatabaseQueue`` runs safely as
  /// `exportDatabase(atPath:key:to:destinationKey:)`, and `dbkey export` or
  /// `dbkey import` as commands. Cipher settings that change the page layout
  /// (page size, reserved bytes) must match too.
  ///
  /// - parameter destDb: the connection whose database receives the copy.
  /// - parameter pagesPerStep: the pages copied between two calls of
  ///   `progress`; -1 (the default) copies everything in one step.
  /// - parameter progress: called after each step. An error it throws stops
  ///   the backup, and is thrown; the destination then keeps its content.
  public func backup(
    to destDb: Database, pagesPerStep: CInt = -1, progress: ((DatabaseBackupProgress) throws -> Void)? = nil
  ) throws {
    let source = try connection
    let destination = try destDb.connection
    if isKeyed != destDb.isKeyed {
      throw DatabaseError(
        resultCode: .SQLITE_ERROR,
        message: isKeyed
          ? "an encrypted database can not be backed up into a plaintext one (SQLCipher's backup keeps "
            + "encryption on both sides). To write a plaintext copy, use sqlcipher_export "
            + "(DatabaseQueue.exportDatabase(atPath:key:to:destinationKey:), or dbkey export)"
          : "a plaintext database can not be backed up into an encrypted one (SQLCipher's backup keeps "
            + "encryption on both sides). To write an encrypted copy, use sqlcipher_export "
            + "(DatabaseQueue.exportDatabase(atPath:key:to:destinationKey:), or dbkey import)")
    }
    guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
      throw backupFailure(DatabaseError.fromConnection(destination, code: sqlite3_errcode(destination)))
    }
    do {
      while true {
        let code = sqlite3_backup_step(backup, pagesPerStep)
        let step = DatabaseBackupProgress(
          remainingPageCount: Int(sqlite3_backup_remaining(backup)),
          totalPageCount: Int(sqlite3_backup_pagecount(backup)), isCompleted: code == SQLITE_DONE)
        switch code {
        case SQLITE_DONE:
          // The copy is complete: an error of its last report is ignored, as
          // GRDB ignores it (nothing is left to stop).
          try? progress?(step)
        case SQLITE_OK:
          try progress?(step)
          continue
        default:
          throw backupFailure(DatabaseError.fromConnection(destination, code: code))
        }
        break
      }
    } catch {
      // Finishing an unfinished backup rolls the destination back.
      sqlite3_backup_finish(backup)
      destDb.schemaDidChange()
      throw error
    }
    let code = sqlite3_backup_finish(backup)
    destDb.schemaDidChange()
    guard code == SQLITE_OK else {
      throw backupFailure(DatabaseError.fromConnection(destination, code: code))
    }
  }

  /// SQLCipher's refusal of a backup between different keys, with the way
  /// to copy between keys; other errors as they are.
  private func backupFailure(_ error: DatabaseError) -> DatabaseError {
    guard let message = error.message, message.contains("backup is not supported") else { return error }
    return DatabaseError(
      resultCode: error.extendedResultCode,
      message: "\(message): both databases must be encrypted, with cipher settings of the same page layout, "
        + "or both in plaintext. To copy between them, use sqlcipher_export "
        + "(DatabaseQueue.exportDatabase(atPath:key:to:destinationKey:), or dbkey export)")
  }
}
