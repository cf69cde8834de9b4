extension DatabaseWriter {
  /// Called when an observation starts: begins watching other processes.
  func observationDidStart() {
    guard let holder = self as? any SerializedWriterHolder else { return }
    let writer = holder.writer
    _ = try? writer.reentrantSync { db in try OtherProcessesWatch.start(for: db, writer: writer) }
  }
}
