import Dispatch
import Foundation

/// A started ``ValueObservation``: a transaction observer on the writer
/// connection flags changes; fetches run one at a time (so values never go
/// back in time, and changes made during a fetch are coalesced into the
/// next one); values are delivered in fetch order.
///
/// When the fetches run on the writer connection (a ``DatabaseQueue``, or
/// ``ValueObservation/requiresWriteAccess``), the first one runs in the same
/// access that installs the observer, and each later one right after the
/// commit that changed the region, in the same access: one value per commit,
/// as GRDB delivers them. On a ``DatabasePool``, the first fetch runs on a
/// reader; so do the later ones of an observation of a constant region. An
/// observation whose region may change with each fetch (`tracking { }`)
/// fetches each change on the writer, right after its commit, as GRDB's does:
/// a fetch on a reader could miss a change to the part of the region it is
/// about to add, and the writer's pages are already decrypted (a reader's
/// first read after a commit decrypts every page it reads again).
final class ValueObservationRuntime<Reducer: ValueReducer>: Sendable {
  private struct State {
    var reducer: Reducer
    var isCancelled = false
    var isFetching = false
    var needsFetch = false
    /// True while every change since the last fetch came from other processes:
    /// an equal value is then not delivered again.
    var pendingChangesAreExternal = true
    /// `pendingChangesAreExternal` when the running fetch began (changes
    /// during the fetch are for the next one).
    var fetchedChangesAreExternal = false
    /// True while a fetch runs on the writer connection.
    var fetchIsOnWriter = false
    var isTimerArmed = false
    /// The region observed so far (nil before the first fetch of an
    /// observation that records its region).
    var region: DatabaseRegion?
    /// Whether `willTrackRegion` heard of the given region (``ValueObservationTracking/regions(_:)``).
    var regionIsReported = false
    var lastValue: Reducer.Value?
    /// The value waiting for the scheduler, when deliveries coalesce.
    var pendingDelivery: Reducer.Value?
    /// True while `.immediate` delivers the first value in `start`: later
    /// values wait in `heldDeliveries`, so that they follow it.
    var holdsDeliveries = false
    var heldDeliveries: [Reducer.Value] = []
    var hasProducedValue = false
    /// The watch of other connections' commits, when the configuration asks
    /// for one: with a rollback journal, the fetches they cause read without
    /// locks, through it.
    var watch: (any OtherProcessesWatching)?
  }

  private let state: Locked<State>
  private let observation: ValueObservation<Reducer>
  private let reader: any DatabaseReader
  private let writer: (any DatabaseWriter)?
  private let scheduler: any ValueObservationScheduler
  private let onError: @Sendable (any Error) -> Void
  private let onChange: @Sendable (Reducer.Value) -> Void
  private let observer: RegionObservationObserver
  private let events: ValueObservationEvents
  /// Whether fetches run on the writer connection, right after the commits
  /// that call for them (see the type's documentation).
  private let fetchesOnWriter: Bool
  /// Whether the fetches that commits call for run on the writer connection,
  /// right after the commit: all of them when `fetchesOnWriter`, and on a pool
  /// those of an observation whose region changes with each fetch.
  private let fetchesChangesOnWriter: Bool
  /// Whether the database is read-only, so that no commit can change it: as
  /// in GRDB, the observation then delivers its first value and tracks
  /// nothing (unless other processes, which may write, are observed).
  private let readsOnce: Bool

  init(
    observation: ValueObservation<Reducer>, reader: any DatabaseReader,
    scheduler: any ValueObservationScheduler,
    onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Reducer.Value) -> Void
  ) {
    self.observation = observation
    self.reader = reader
    self.writer = reader as? any DatabaseWriter
    self.scheduler = scheduler
    self.onError = onError
    self.onChange = onChange
    self.events = observation.events
    fetchesOnWriter =
      writer != nil && (observation.requiresWriteAccess || !(unerased(reader) is DatabasePool))
      && observation.coalescingInterval == nil
    fetchesChangesOnWriter =
      fetchesOnWriter
      || (writer != nil && observation.coalescingInterval == nil
        && observation.tracking.isRecordedFromEachSelection)
    let configuration = reader.configuration
    readsOnce =
      configuration.readonly && !configuration.observesOtherProcesses
      && !configuration.observesOtherProcessesByPolling
    state = Locked(State(reducer: observation.reducer))
    // The observer reaches the runtime weakly: the cancellable owns the runtime.
    let target = WeakReference<ValueObservationRuntime>()
    observer = RegionObservationObserver(
      onChange: { db, onlyExternally in target.value?.databaseDidChange(db, external: onlyExternally) },
      onFailure: { error in target.value?.fail(error, synchronously: false) })
    target.value = self
  }

  // MARK: - Start and cancel

  func start() {
    for event in events.willStart { event() }
    // The first fetch belongs to the start: a change meanwhile waits for it.
    state.withLock { $0.isFetching = true }
    // Asked once, on the thread that starts, as GRDB asks it.
    let isImmediate = scheduler.immediateInitialValue()
    if readsOnce {
      startReadOnly(isImmediate: isImmediate)
    } else if isImmediate {
      startSynchronously()
    } else {
      startAsynchronously()
    }
  }

  /// A read-only database: the first value only, without a transaction
  /// observer or a tracked region.
  private func startReadOnly(isImmediate: Bool) {
    guard isImmediate else {
      reader.asyncRead { [self] result in
        fetchDidComplete(Result { try reduce(fetch(result.get())) })
      }
      return
    }
    do {
      if let value = try reader.read({ db in try reduce(fetch(db)) }) { deliverNow(value) }
    } catch {
      fail(error, synchronously: true)
      return
    }
    fetchDidEnd()
  }

  /// A scheduler with an immediate first value (`.immediate`): the first
  /// value before `start` returns (waiting for the writer, as GRDB does,
  /// when it must install the observer).
  private func startSynchronously() {
    do {
      var value: Reducer.Value?
      if let writer {
        value = try writer.withWriterConnection { db in
          try install(db)
          return fetchesOnWriter ? try fetchOnWriter(db) : nil
        }
      }
      if !fetchesOnWriter {
        value = try reader.read { db in try reduce(fetch(db)) }
      }
      guard let value else {
        fetchDidEnd()
        return
      }
      // The first fetch ends before `onChange` hears of its value: each
      // commit `onChange` makes gives a value of its own, as in GRDB. Their
      // deliveries wait until this one returned.
      state.withLock { $0.holdsDeliveries = true }
      fetchDidEnd()
      deliverNow(value)
      scheduleHeldDeliveries()
    } catch {
      fail(error, synchronously: true)
    }
  }

  /// Schedules the values held while the first one was delivered, in order,
  /// then lets later values go to the scheduler directly. The scheduler is
  /// called outside the lock: a scheduler of the user's may run an action
  /// at once, and the action takes the lock.
  private func scheduleHeldDeliveries() {
    while true {
      let held = state.withLock { state in
        defer { state.heldDeliveries = [] }
        if state.heldDeliveries.isEmpty { state.holdsDeliveries = false }
        return state.heldDeliveries
      }
      if held.isEmpty { return }
      for value in held {
        scheduler.schedule { [self] in deliverNow(value) }
      }
    }
  }

  /// Asynchronous schedulers: `start` returns at once, without waiting for
  /// the writer (the caller may be what keeps it busy). The observer is
  /// installed in a later writer access, before the first fetch begins, so
  /// that the first value reflects every commit made before `start` returned.
  private func startAsynchronously() {
    guard let writer else {
      fetchAsynchronously()
      return
    }
    writer.asyncWriteWithoutTransaction { [self] db in
      guard !isCancelled else { return }
      do {
        try install(db)
      } catch {
        fail(error, synchronously: false)
        return
      }
      if fetchesOnWriter {
        fetchDidComplete(Result { try fetchOnWriter(db) })
      } else {
        fetchAsynchronously()
      }
    }
  }

  /// On the writer connection: computes the region when it is given, adds
  /// the transaction observer, and starts the watch of other connections.
  private func install(_ db: Database) throws {
    switch observation.tracking {
    case .regions(let regions):
      var region = DatabaseRegion()
      for convertible in regions { region.formUnion(try convertible.databaseRegion(db)) }
      // Reported after the first fetch, where GRDB reports it.
      setRegion(try region.observableRegion(db), reports: false)
    case .constantRegionRecordedFromSelection, .regionRecordedFromSelection:
      // Until the first fetch tells the region, every change counts.
      observer.setRegion(.fullDatabase)
    }
    // Before the observer is added: a watch that fails leaves nothing behind.
    if let watch = try writer?.startWatchingOtherProcessesIfPossible(db) {
      state.withLock { $0.watch = watch }
    }
    db.add(transactionObserver: observer, extent: .observerLifetime)
  }

  func cancel() {
    guard stop() else { return }
    for event in events.didCancel { event() }
  }

  /// Stops the observation: false if it was already stopped.
  private func stop() -> Bool {
    let wasCancelled = state.withLock { state in
      defer { state.isCancelled = true }
      return state.isCancelled
    }
    guard !wasCancelled else { return false }
    observer.cancel()
    let observer = observer
    writer?.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
    return true
  }

  private var isCancelled: Bool { state.withLock { $0.isCancelled } }

  // MARK: - Changes and fetches

  /// A transaction changed the region; `db` is the writer connection, right
  /// after the commit.
  private func databaseDidChange(_ db: Database, external: Bool) {
    let interval = observation.coalescingInterval
    let lockFree = external && lockFreeReader() != nil
    let action = state.withLock { state -> Action in
      guard !state.isCancelled else { return .none }
      if !external { state.pendingChangesAreExternal = false }
      if state.isFetching {
        // A change heard while a fetch runs on the writer connection is the
        // fetch's own write (it requires write access): it calls for no
        // other fetch, as in GRDB.
        if !state.fetchIsOnWriter { state.needsFetch = true }
        return .none
      }
      if let interval {
        guard !state.isTimerArmed else { return .none }
        state.isTimerArmed = true
        return .armTimer(interval)
      }
      state.isFetching = true
      return fetchesChangesOnWriter && !lockFree ? .fetchNow : .fetch
    }
    for event in events.databaseDidChange { event() }
    if case .fetchNow = action {
      fetchDidComplete(Result { try fetchOnWriter(db) })
    } else {
      perform(action)
    }
  }

  private enum Action {
    case none, fetch
    /// Fetch on the writer connection, in the access that committed.
    case fetchNow
    case armTimer(TimeInterval)
  }

  private func perform(_ action: Action) {
    switch action {
    case .none, .fetchNow:
      break
    case .fetch:
      fetchAsynchronously()
    case .armTimer(let interval):
      DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [self] in
        let fetch = state.withLock { state -> Bool in
          state.isTimerArmed = false
          guard !state.isCancelled else { return false }
          if state.isFetching {
            state.needsFetch = true
            return false
          }
          state.isFetching = true
          return true
        }
        if fetch { fetchAsynchronously() }
      }
    }
  }

  /// The reader of fetches caused only by other connections' commits to a
  /// rollback-journal database, which must take no lock.
  private func lockFreeReader() -> (any LockFreeReading)? {
    let (watch, external) = state.withLock { ($0.watch, $0.pendingChangesAreExternal && $0.hasProducedValue) }
    guard external, let watch, !watch.isWAL, !observation.requiresWriteAccess else { return nil }
    return watch.availableLockFreeReader
  }

  private func fetchAsynchronously() {
    if let lockFree = lockFreeReader() {
      DispatchQueue.global().async { [self] in
        fetchDidComplete(
          Result {
            guard let fetched = try lockFree.read(isCancelled: { isCancelled }, { db in try fetch(db) })
            else { return nil }
            return try reduce(fetched)
          })
      }
    } else if fetchesOnWriter, let writer {
      writer.asyncWriteWithoutTransaction { [self] db in fetchDidComplete(Result { try fetchOnWriter(db) }) }
    } else if observation.requiresWriteAccess, let writer {
      writer.asyncWriteWithoutTransaction { [self] db in fetchDidComplete(Result { try fetchOnWriter(db) }) }
    } else {
      reader.asyncRead { [self] result in
        fetchDidComplete(Result { try reduce(fetch(result.get())) })
      }
    }
  }

  private func fetchDidComplete(_ result: Result<Reducer.Value?, any Error>) {
    switch result {
    case .success(let value):
      if let value { deliver(value) }
      fetchDidEnd()
    case .failure(let error):
      fail(error, synchronously: false)
    }
  }

  /// A fetch ended: fetch again if changes came meanwhile.
  private func fetchDidEnd() {
    let interval = observation.coalescingInterval
    let action = state.withLock { state -> Action in
      guard !state.isCancelled else { return .none }
      guard state.needsFetch else {
        state.isFetching = false
        return .none
      }
      state.needsFetch = false
      if let interval {
        state.isFetching = false
        guard !state.isTimerArmed else { return .none }
        state.isTimerArmed = true
        return .armTimer(interval)
      }
      return .fetch
    }
    perform(action)
  }

  /// Fetches on the writer connection, in a transaction of its own (a write
  /// transaction with ``ValueObservation/requiresWriteAccess``), or in the
  /// transaction of the caller (an `.immediate` start inside a write).
  private func fetchOnWriter(_ db: Database) throws -> Reducer.Value? {
    state.withLock { $0.fetchIsOnWriter = true }
    defer { state.withLock { $0.fetchIsOnWriter = false } }
    if observation.requiresWriteAccess && !db.isInsideTransaction {
      return try reduce(db.writeTransaction { db in try fetch(db) })
    }
    if db.isInsideTransaction { return try reduce(fetch(db)) }
    return try reduce(db.readTransaction { db in try fetch(db) })
  }

  /// Fetches and records the region: nil if the observation was cancelled.
  private func fetch(_ db: Database) throws -> Reducer.Fetched? {
    let isCancelled = state.withLock { state in
      state.fetchedChangesAreExternal = state.pendingChangesAreExternal && state.hasProducedValue
      state.pendingChangesAreExternal = true
      return state.isCancelled
    }
    guard !isCancelled else { return nil }
    if readsOnce { return try observation.reducer._fetch(db) }
    switch observation.tracking {
    case .regions:
      let fetched = try observation.reducer._fetch(db)
      let unreported = state.withLock { state in
        defer { state.regionIsReported = true }
        return state.regionIsReported ? nil : state.region
      }
      if let unreported { for event in events.willTrackRegion { event(unreported) } }
      return fetched
    case .constantRegionRecordedFromSelection, .regionRecordedFromSelection:
      let known = state.withLock { $0.region }
      let isConstant =
        if case .constantRegionRecordedFromSelection = observation.tracking { true } else { false }
      if isConstant, known != nil {
        return try observation.reducer._fetch(db)
      }
      var region = DatabaseRegion()
      let fetched = try db.recordingSelection(&region) { try observation.reducer._fetch(db) }
      region = try region.observableRegion(db)
      if known != region {
        setRegion(region)
        // A change to the new part of the region, committed after this
        // fetch began and before the observer knew the region, would go
        // unseen: fetch once more (fetches on the writer can not be
        // overtaken by a commit).
        if let known, !known.contains(region) {
          state.withLock { state in
            if !state.fetchIsOnWriter { state.needsFetch = true }
          }
        }
      }
      return fetched
    }
  }

  /// Reduces a fetched value: the value to deliver, if any. The reducer runs
  /// outside the lock, since its callbacks (`map`, `didReceiveValue`) may
  /// cancel the observation; fetches run one at a time, so no other
  /// reduction runs meanwhile.
  private func reduce(_ fetched: Reducer.Fetched?) throws -> Reducer.Value? {
    guard let fetched else { return nil }
    guard var reducer = state.withLock({ $0.isCancelled ? nil : $0.reducer }) else { return nil }
    let value = try reducer._value(fetched)
    return state.withLock { state -> Reducer.Value? in
      state.reducer = reducer
      state.hasProducedValue = true
      guard !state.isCancelled, let value else { return nil }
      if state.fetchedChangesAreExternal, let lastValue = state.lastValue, areEqual(lastValue, value) {
        return nil
      }
      state.lastValue = value
      return value
    }
  }

  private func setRegion(_ region: DatabaseRegion, reports: Bool = true) {
    state.withLock { $0.region = region }
    observer.setRegion(region)
    guard reports else { return }
    for event in events.willTrackRegion { event(region) }
  }

  // MARK: - Delivery

  private func deliverNow(_ value: Reducer.Value) {
    guard !isCancelled else { return }
    onChange(value)
  }

  private func deliver(_ value: Reducer.Value) {
    let isHeld = state.withLock { state in
      if state.holdsDeliveries { state.heldDeliveries.append(value) }
      return state.holdsDeliveries
    }
    if isHeld { return }
    guard observation.coalescingInterval != nil else {
      scheduler.schedule { [self] in deliverNow(value) }
      return
    }
    // Coalesced delivery: a value still waiting for the scheduler is replaced.
    let enqueue = state.withLock { state -> Bool in
      defer { state.pendingDelivery = value }
      return state.pendingDelivery == nil
    }
    guard enqueue else { return }
    scheduler.schedule { [self] in
      let value = state.withLock { state in
        defer { state.pendingDelivery = nil }
        return state.pendingDelivery
      }
      if let value { deliverNow(value) }
    }
  }

  fileprivate func fail(_ error: any Error, synchronously: Bool) {
    guard stop() else { return }
    let report: @Sendable () -> Void = { [events, onError] in
      for event in events.didFail { event(error) }
      onError(error)
    }
    if synchronously { report() } else { scheduler.schedule(report) }
  }
}

/// True if both values are of the same Equatable type and equal.
func areEqual(_ lhs: Any, _ rhs: Any) -> Bool {
  guard let lhs = lhs as? any Equatable else { return false }
  return isEqual(lhs, rhs)
}

private func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
  guard let rhs = rhs as? T else { return false }
  return lhs == rhs
}

/// A weak reference that closures can share.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
  private let storage = Locked<WeakBox?>(nil)
  private struct WeakBox: @unchecked Sendable {
    // Sendable: Object is Sendable; the box only adds weakness.
    weak var object: Object?
  }

  var value: Object? {
    get { storage.withLock { $0?.object } }
    set { storage.withLock { $0 = WeakBox(object: newValue) } }
  }
}
