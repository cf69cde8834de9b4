extension DatabaseWriter {
  /// Rebuilds the database file, reclaiming free pages (`VACUUM`).
  @_disfavoredOverload
  public func vacuum() throws {
    try writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
  }

  /// Rebuilds the database file, reclaiming free pages (`VACUUM`), without
  /// blocking the caller.
  public func vacuum() async throws {
    try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
  }

  /// Writes a compacted copy of the database to `filePath` (`VACUUM INTO`,
  /// SQLite 3.27+). The copy of an encrypted database is encrypted with the
  /// same key.
  @_disfavoredOverload
  public func vacuum(into filePath: String) throws {
    try Self.checkVacuumIntoIsSupported()
    try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
  }

  /// Writes a compacted copy of the database to `filePath` (`VACUUM INTO`,
  /// SQLite 3.27+), without blocking the caller.
  public func vacuum(into filePath: String) async throws {
    try Self.checkVacuumIntoIsSupported()
    try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
  }

  private static func checkVacuumIntoIsSupported() throws {
    guard SQLiteFeatures.linked.sqliteVersionNumber >= 3_027_000 else {
      throw DatabaseError.misuse(
        "VACUUM INTO needs SQLite 3.27.0 or later; the linked SQLCipher bundles SQLite "
          + SQLiteFeatures.linked.sqliteVersion)
    }
  }
}
