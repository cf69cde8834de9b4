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
  /// same key. Throws ``SQLiteFeatureError`` if the linked SQLite has no
  /// `VACUUM INTO`.
  @_disfavoredOverload
  public func vacuum(into filePath: String) throws {
    try SQLiteFeatures.linked.require(.vacuumInto)
    try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
  }

  /// Writes a compacted copy of the database to `filePath` (`VACUUM INTO`,
  /// SQLite 3.27+), without blocking the caller. Throws ``SQLiteFeatureError``
  /// if the linked SQLite has no `VACUUM INTO`.
  public func vacuum(into filePath: String) async throws {
    try SQLiteFeatures.linked.require(.vacuumInto)
    try await writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
  }
}
