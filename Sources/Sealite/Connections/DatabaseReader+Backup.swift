extension DatabaseReader {
  /// Copies this database into `writer`'s, replacing its content (SQLite's
  /// backup API; see ``Database/backup(to:pagesPerStep:progress:)`` for what
  /// SQLCipher allows: the same key on both sides, or plaintext on both).
  ///
  ///     let source = try DatabaseQueue(path: "/path/to/source.sqlite", configuration: config)
  ///     let destination = try DatabaseQueue(path: "/path/to/backup.sqlite", configuration: config)
  ///     try source.backup(to: destination)
  ///
  /// The source is read in one read transaction, so the copy is one
  /// consistent state; the destination is written in a barrier write, so no
  /// read of a destination pool sees a half-copied database.
  public func backup(
    to writer: some DatabaseWriter, pagesPerStep: CInt = -1,
    progress: ((DatabaseBackupProgress) throws -> Void)? = nil
  ) throws {
    try read { sourceDb in
      try writer.barrierWriteWithoutTransaction { destDb in
        try sourceDb.backup(to: destDb, pagesPerStep: pagesPerStep, progress: progress)
      }
    }
  }
}
