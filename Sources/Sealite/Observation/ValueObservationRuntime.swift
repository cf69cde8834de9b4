import Dispatch
import Foundation

/// A started ``ValueObservation``: a transaction observer on the writer
/// connection flags changes; fetches run one at a time (so values never go
/// back in time, and changes made during a fetch are coalesced into the
/// next one); values are delivered in fetch order.
final class ValueObservationRuntime<Reducer: ValueReducer>: Sendable {
  private struct State {
    var reducer: Reducer
    var isCancelled = false
    var isFetching = false
    var needsFetch = false
    /// True while every change since the last fetch came from other processes:
    /// an equal value is then not delivered again.
    var pendingChangesAreExternal = true
    var isTimerArmed = false
    /// The region observed so far (nil before the first fetch of an
    /// observation that records its region).
    var region: DatabaseRegion?
    var lastValue: Reducer.Value?
    /// The value waiting for the delivery queue, when deliveries coalesce.
    var pendingDelivery: Reducer.Value?
    /// Until `start` returns, a change may have come after the first fetch
    /// took its snapshot: that fetch is then done again before any value is
    /// delivered, so that the first value reflects every commit made before
    /// `start` returned.
    var hasStartReturned = false
    var changedBeforeStartReturned = false
    var hasProducedValue = false
  }

  private let state: Locked<State>
  private let observation: ValueObservation<Reducer>
  private let reader: any DatabaseReader
  private let writer: (any DatabaseWriter)?
  private let scheduler: ValueObservationScheduler
  private let deliveryQueue: DispatchQueue
  private let onError: @Sendable (any Error) -> Void
  private let onChange: @Sendable (Reducer.Value) -> Void
  private let observer: RegionObservationObserver
  private let events: ValueObservationEvents

  init(
    observation: ValueObservation<Reducer>, reader: any DatabaseReader, scheduler: ValueObservationScheduler,
    onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Reducer.Value) -> Void
  ) {
    self.observation = observation
    self.reader = reader
    self.writer = reader as? any DatabaseWriter
    self.scheduler = scheduler
    self.deliveryQueue = scheduler.deliveryQueue(label: "Sealite.ValueObservation")
    self.onError = onError
    self.onChange = onChange
    self.events = observation.events
    state = Locked(State(reducer: observation.reducer))
    // The observer reaches the runtime weakly: the cancellable owns the runtime.
    let target = WeakReference<ValueObservationRuntime>()
    observer = RegionObservationObserver(
      onChange: { _, onlyExternally in target.value?.databaseDidChange(external: onlyExternally) },
      onFailure: { error in target.value?.fail(error, synchronously: false) })
    target.value = self
  }

  // MARK: - Start and cancel

  func start() {
    for event in events.willStart { event() }
    if let writer {
      do {
        try writer.withWriterConnection { db in
          switch observation.tracking {
          case .regions(let regions):
            var region = DatabaseRegion()
            for convertible in regions { region.formUnion(try convertible.databaseRegion(db)) }
            setRegion(try region.observableRegion(db))
          case .constantRegionRecordedFromSelection, .regionRecordedFromSelection:
            // Until the first fetch tells the region, every change counts.
            observer.setRegion(.fullDatabase)
          }
          db.add(transactionObserver: observer, extent: .observerLifetime)
        }
        writer.observationDidStart()
      } catch {
        fail(error, synchronously: scheduler.isImmediate)
        return
      }
    }
    if scheduler.isImmediate {
      state.withLock { $0.isFetching = true }
      do {
        let value = try fetchAndReduce(synchronously: true)
        if let value { deliverNow(value) }
      } catch {
        fail(error, synchronously: true)
        return
      }
      state.withLock { $0.hasStartReturned = true }
      fetchDidEnd()
    } else {
      scheduleFetch()
      state.withLock { $0.hasStartReturned = true }
    }
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

  /// A transaction changed the region.
  private func databaseDidChange(external: Bool) {
    let interval = observation.coalescingInterval
    let action = state.withLock { state -> Action in
      guard !state.isCancelled else { return .none }
      if !state.hasStartReturned { state.changedBeforeStartReturned = true }
      if !external { state.pendingChangesAreExternal = false }
      if state.isFetching {
        state.needsFetch = true
        return .none
      }
      if let interval {
        guard !state.isTimerArmed else { return .none }
        state.isTimerArmed = true
        return .armTimer(interval)
      }
      state.isFetching = true
      return .fetch
    }
    for event in events.databaseDidChange { event() }
    perform(action)
  }

  private enum Action {
    case none, fetch
    case armTimer(TimeInterval)
  }

  private func perform(_ action: Action) {
    switch action {
    case .none:
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

  /// Starts the first fetch.
  private func scheduleFetch() {
    let start = state.withLock { state -> Bool in
      guard !state.isCancelled, !state.isFetching else { return false }
      state.isFetching = true
      return true
    }
    if start { fetchAsynchronously() }
  }

  private func fetchAsynchronously() {
    let complete: @Sendable (Result<Reducer.Value?, any Error>) -> Void = { [self] result in
      switch result {
      case .success(let value):
        if let value { deliver(value) }
        fetchDidEnd()
      case .failure(let error):
        fail(error, synchronously: false)
      }
    }
    if observation.requiresWriteAccess, let writer {
      // In a transaction, as the first fetch of `.immediate`: the fetch may
      // write, and all its statements see the same state.
      writer.asyncWriteWithoutTransaction { [self] db in
        complete(Result { try db.writeTransaction { db in try fetchAndReduce(db) } })
      }
    } else {
      reader.asyncRead { [self] result in
        complete(Result { try fetchAndReduce(result.get()) })
      }
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

  /// Fetches in a new read access (first value of `.immediate`).
  private func fetchAndReduce(synchronously: Bool) throws -> Reducer.Value? {
    if observation.requiresWriteAccess, let writer {
      return try writer.withWriterConnection { db in try db.writeTransaction { db in try fetchAndReduce(db) }
      }
    }
    return try reader.read { db in try fetchAndReduce(db) }
  }

  /// Fetches, records the region, and reduces: the value to deliver, if any.
  private func fetchAndReduce(_ db: Database) throws -> Reducer.Value? {
    guard !isCancelled else { return nil }
    for event in events.willFetch { event() }
    let external = state.withLock { state in
      defer { state.pendingChangesAreExternal = true }
      return state.pendingChangesAreExternal
    }
    let fetched: Reducer.Fetched
    switch observation.tracking {
    case .regions:
      fetched = try observation.reducer._fetch(db)
    case .constantRegionRecordedFromSelection, .regionRecordedFromSelection:
      let known = state.withLock { $0.region }
      let isConstant =
        if case .constantRegionRecordedFromSelection = observation.tracking { true } else { false }
      if isConstant, known != nil {
        fetched = try observation.reducer._fetch(db)
      } else {
        var region = DatabaseRegion()
        fetched = try db.recordingSelection(&region) { try observation.reducer._fetch(db) }
        region = try region.observableRegion(db)
        if known != region {
          setRegion(region)
          // A change to the new part of the region, committed after this
          // fetch began and before the observer knew the region, would go
          // unseen: fetch once more.
          if let known, !known.contains(region) {
            state.withLock { $0.needsFetch = true }
          }
        }
      }
    }
    return try state.withLock { state -> Reducer.Value? in
      guard !state.isCancelled else { return nil }
      if !state.hasProducedValue && state.changedBeforeStartReturned && !scheduler.isImmediate {
        // This first fetch may predate a commit made before `start` returned.
        state.changedBeforeStartReturned = false
        state.needsFetch = true
        return nil
      }
      state.hasProducedValue = true
      guard let value = try state.reducer._value(fetched) else { return nil }
      if external, let lastValue = state.lastValue, areEqual(lastValue, value) { return nil }
      state.lastValue = value
      return value
    }
  }

  private func setRegion(_ region: DatabaseRegion) {
    state.withLock { $0.region = region }
    observer.setRegion(region)
    for event in events.willTrackRegion { event(region) }
  }

  // MARK: - Delivery

  private func deliverNow(_ value: Reducer.Value) {
    guard !isCancelled else { return }
    for event in events.didReceiveValue { event(value) }
    onChange(value)
  }

  private func deliver(_ value: Reducer.Value) {
    guard observation.coalescingInterval != nil else {
      deliveryQueue.async { [self] in deliverNow(value) }
      return
    }
    // Coalesced delivery: a value still waiting for the queue is replaced.
    let enqueue = state.withLock { state -> Bool in
      defer { state.pendingDelivery = value }
      return state.pendingDelivery == nil
    }
    guard enqueue else { return }
    deliveryQueue.async { [self] in
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
    if synchronously { report() } else { deliveryQueue.async(execute: report) }
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
