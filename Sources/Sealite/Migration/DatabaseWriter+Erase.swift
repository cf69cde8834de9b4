extension DatabaseWriter {
  /// Erases the database: drops every table, index, view and trigger, and
  /// resets the user version, once every read in progress has ended.
  @_disfavoredOverload
  public func erase() throws {
    try barrierWriteWithoutTransaction { db in try DatabaseEraser.erase(db) }
  }

  /// Erases the database, without blocking the caller.
  public func erase() async throws {
    try await barrierWriteWithoutTransaction { db in try DatabaseEraser.erase(db) }
  }
}
