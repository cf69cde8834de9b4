/// The seam through which observations hear of the commits of other
/// processes. Observation declares it; the layer that watches other
/// processes (CrossProcess) makes the database writers conform, so that
/// Observation never names it.
protocol OtherProcessesChangeSource {
  /// Called on the writer connection `db` when an observation starts: begins
  /// watching other processes, if the configuration says so, and returns the
  /// watch. Throws what prevents the watch from starting (its first read of
  /// the database): the observation then fails with it, rather than silently
  /// missing the other processes' commits.
  func startWatchingOtherProcesses(_ db: Database) throws -> (any OtherProcessesWatching)?
}

/// A started watch on other processes, as observations use it.
protocol OtherProcessesWatching: AnyObject, Sendable {
  /// True if the database is in WAL mode, where readers never block writers.
  var isWAL: Bool { get }
  /// The reader of fetches caused only by other processes' commits to a
  /// rollback-journal database, which must take no lock; nil when such a
  /// read is not possible now.
  var availableLockFreeReader: (any LockFreeReading)? { get }
}

/// Reads without taking any lock.
protocol LockFreeReading: Sendable {
  /// Runs `body` on a connection that takes no lock, in a read that saw no
  /// commit; nil if `isCancelled` said to stop first.
  func read<T>(isCancelled: () -> Bool, _ body: (Database) throws -> T) throws -> T?
}

extension DatabaseWriter {
  /// Starts watching other processes, if this writer can (see
  /// ``OtherProcessesChangeSource``).
  func startWatchingOtherProcessesIfPossible(_ db: Database) throws -> (any OtherProcessesWatching)? {
    try (self as? any OtherProcessesChangeSource)?.startWatchingOtherProcesses(db)
  }
}
