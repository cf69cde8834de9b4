/// Tells when a transaction changed a region of the database, right after
/// it committed (never after a rollback, once per transaction).
///
///     let observation = DatabaseRegionObservation(tracking: Table("player"))
///     let cancellable = observation.start(in: dbQueue) { error in
///       print(error)
///     } onChange: { db in
///       print("players were changed")
///     }
///
/// Changes to `WITHOUT ROWID` tables, rows deleted by foreign key actions and
/// writes made by triggers are all seen. Commits of other connections and
/// processes are seen only with ``Configuration/observesOtherProcesses``.
public struct DatabaseRegionObservation: Sendable {
  private let regions: [any DatabaseRegionConvertible]

  /// Observes the union of `regions`.
  public init(tracking regions: any DatabaseRegionConvertible...) {
    self.regions = regions
  }

  /// Observes the union of `regions`.
  public init(tracking regions: [any DatabaseRegionConvertible]) {
    self.regions = regions
  }

  /// Starts the observation: `onChange` runs on the writer's dispatch queue
  /// after each commit that changed the region, with the connection (which
  /// may read the committed state). Changes committed after `start` returned
  /// are all seen. An error computing the region goes to `onError` and ends
  /// the observation, and so does an error that keeps the observation from
  /// seeing the commits of other processes (the database was rekeyed by
  /// another process, say: its pages no longer open with this connection's key).
  public func start(
    in writer: some DatabaseWriter,
    onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Database) -> Void
  ) -> AnyDatabaseCancellable {
    let observer = RegionObservationObserver(onChange: { db, _ in onChange(db) }, onFailure: onError)
    let regions = regions
    do {
      try writer.withWriterConnection { db in
        var region = DatabaseRegion()
        for convertible in regions { region.formUnion(try convertible.databaseRegion(db)) }
        observer.setRegion(try region.observableRegion(db))
        // Before the observer is added: a watch that fails leaves nothing behind.
        _ = try writer.startWatchingOtherProcessesIfPossible(db)
        db.add(transactionObserver: observer, extent: .observerLifetime)
      }
    } catch {
      onError(error)
      return AnyDatabaseCancellable(cancel: {})
    }
    return AnyDatabaseCancellable(cancel: { [weak writer] in
      observer.cancel()
      writer?.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
    })
  }
}

/// The transaction observer of a ``DatabaseRegionObservation``.
final class RegionObservationObserver: RegionTrackingObserver, Sendable {
  private struct State {
    var region = DatabaseRegion()
    var isChanged = false
    /// True while every change of the transaction came from another process.
    var isChangedOnlyExternally = true
    var nextChangeIsExternal = false
    var isCancelled = false
  }
  private let state = Locked(State())
  /// Given the connection, and whether only other processes made the changes.
  private let onChange: @Sendable (Database, Bool) -> Void
  /// Given the error that ended the watch on other processes.
  private let onFailure: @Sendable (any Error) -> Void

  init(
    onChange: @escaping @Sendable (Database, Bool) -> Void, onFailure: @escaping @Sendable (any Error) -> Void
  ) {
    self.onChange = onChange
    self.onFailure = onFailure
  }

  func setRegion(_ region: DatabaseRegion) {
    state.withLock { $0.region = region }
  }

  func cancel() {
    state.withLock { $0.isCancelled = true }
  }

  func isInterested(in region: DatabaseRegion) -> Bool {
    state.withLock { state in
      guard !state.isCancelled else { return false }
      return meets(state.region, region)
    }
  }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    state.withLock { !$0.isCancelled && $0.region.isModified(byEventsOfKind: eventKind) }
  }

  func databaseDidChange(with event: DatabaseEvent) {
    let changed = state.withLock { state in
      guard state.region.isModified(by: event) else { return false }
      state.isChanged = true
      state.isChangedOnlyExternally = false
      return true
    }
    // One change is enough to notify this transaction.
    if changed { stopObservingDatabaseChangesUntilNextTransaction() }
  }

  func noteExternalChange() {
    state.withLock { $0.nextChangeIsExternal = true }
  }

  func externalWatchDidFail(_ error: any Error) {
    let report = state.withLock { state -> Bool in
      defer { state.isCancelled = true }
      return !state.isCancelled
    }
    if report { onFailure(error) }
  }

  func databaseDidChange() {
    state.withLock { state in
      state.isChanged = true
      if !state.nextChangeIsExternal { state.isChangedOnlyExternally = false }
      state.nextChangeIsExternal = false
    }
    stopObservingDatabaseChangesUntilNextTransaction()
  }

  func databaseDidCommit(_ db: Database) {
    let (notify, onlyExternally) = state.withLock { state in
      defer {
        state.isChanged = false
        state.isChangedOnlyExternally = true
      }
      return (state.isChanged && !state.isCancelled, state.isChangedOnlyExternally)
    }
    if notify { onChange(db, onlyExternally) }
  }

  func databaseDidRollback(_ db: Database) {
    state.withLock { state in
      state.isChanged = false
      state.isChangedOnlyExternally = true
    }
  }
}

/// True if two regions share a table (explicit and cross-process
/// notifications name tables, not rows).
func meets(_ region: DatabaseRegion, _ other: DatabaseRegion) -> Bool {
  guard let otherTables = other.tableNames else { return !region.isEmpty }
  return region.intersects(tableNames: otherTables)
}
