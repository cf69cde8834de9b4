// Here rather than in Core/DatabaseCursor.swift: regions belong to the
// observation layer, above the core (see docs/ARCHITECTURE.md).

extension DatabaseCursor {
  /// The part of the database the cursor's statement reads.
  ///
  ///     let rows = try Row.fetchCursor(db, sql: "SELECT name FROM player")
  ///     rows.databaseRegion.description  // "player(name)"
  public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}
