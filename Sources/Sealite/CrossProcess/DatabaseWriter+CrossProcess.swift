extension DatabaseWriter {
  /// Called on the writer connection `db` when an observation starts: begins
  /// watching other processes, if the configuration says so. Returns the
  /// watch, if there is one. Throws what prevents the watch from starting
  /// (its first read of the database): the observation then fails with it,
  /// rather than silently missing the other processes' commits.
  func startWatchingOtherProcesses(_ db: Database) throws -> OtherProcessesWatch? {
    guard let holder = self as? any SerializedWriterHolder else { return nil }
    try OtherProcessesWatch.start(for: db, writer: holder.writer)
    return OtherProcessesWatch.current(in: db)
  }
}
