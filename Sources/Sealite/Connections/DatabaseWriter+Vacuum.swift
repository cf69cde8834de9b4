extension DatabaseWriter {
  /// Rebuilds the database file, reclaiming free pages (`VACUUM`).
  public func vacuum() throws {
    try writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
  }

  /// Writes a compacted copy of the database to `filePath` (`VACUUM INTO`,
  /// SQLite 3.27+). The copy of an encrypted database is encrypted with the
  /// same key.
  public func vacuum(into filePath: String) throws {
    let versionNumber = SQLiteFeatures.linked.sqliteVersionNumber
    guard versionNumber >= 3_027_000 else {
      throw DatabaseError.misuse(
        "VACUUM INTO needs SQLite 3.27.0 or later; the linked SQLCipher bundles SQLite "
          + SQLiteFeatures.linked.sqliteVersion)
    }
    try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
  }
}
