extension DatabaseWriter {
  /// Called on the writer connection `db` when an observation starts: begins
  /// watching other processes, if the configuration says so. Returns the
  /// watch, if there is one. A watch that can not start leaves the
  /// observation to its own commits.
  func startWatchingOtherProcesses(_ db: Database) -> OtherProcessesWatch? {
    guard let holder = self as? any SerializedWriterHolder else { return nil }
    try? OtherProcessesWatch.start(for: db, writer: holder.writer)
    return OtherProcessesWatch.current(in: db)
  }
}
