import Foundation
import Synchronization

/// Tracks a value fetched from the database, and delivers it again each time
/// a transaction changes what the fetch read.
///
///     let observation = ValueObservation.tracking { db in
///       try Player.fetchAll(db)
///     }
///     let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: .main)) { error in
///       print(error)
///     } onChange: { players in
///       print("fresh players: \(players)")
///     }
///
///     for try await players in observation.values(in: dbPool) { … }
///
/// The first value reflects every transaction committed before `start`
/// returned; values never go back in time; changes are coalesced while a
/// fetch runs. On a ``DatabasePool``, the first fetch runs on a reader
/// connection, and so do the fetches of an observation of a constant region
/// (`tracking(regions:)`, `trackingConstantRegion`); an observation whose
/// region may change (`tracking { }`) fetches each change on the writer
/// connection, right after the commit, as GRDB's does: one value per commit,
/// and a change to the part of the region the fetch adds is never missed.
/// As in GRDB, only the commits of the queue or pool the
/// observation was started in refresh it, unless
/// ``Configuration/observesOtherProcesses`` says otherwise.
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
  var tracking: ValueObservationTracking
  var reducer: Reducer
  var events = ValueObservationEvents()
  /// The coalescing interval (``debounce(for:)``), if any.
  var coalescingInterval: TimeInterval?

  /// Whether fetches run on the writer connection, in a transaction, instead
  /// of a reader connection. Default false.
  public var requiresWriteAccess = false
}

/// How a ``ValueObservation`` knows its region.
enum ValueObservationTracking: Sendable {
  /// The region of these regions, computed once.
  case regions([any DatabaseRegionConvertible])
  /// The region read by the first fetch.
  case constantRegionRecordedFromSelection
  /// The region read by each fetch.
  case regionRecordedFromSelection

  /// True when each fetch records the region anew (it may change).
  var isRecordedFromEachSelection: Bool {
    if case .regionRecordedFromSelection = self { return true }
    return false
  }
}

/// The callbacks of ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``.
struct ValueObservationEvents: Sendable {
  // `willFetch` and `didReceiveValue` live in a ``ValueReducers/Trace`` reducer.
  var willStart: [@Sendable () -> Void] = []
  var willTrackRegion: [@Sendable (DatabaseRegion) -> Void] = []
  var databaseDidChange: [@Sendable () -> Void] = []
  var didFail: [@Sendable (any Error) -> Void] = []
  var didCancel: [@Sendable () -> Void] = []
}

extension ValueObservation {
  /// Observes the value returned by `fetch`, refreshed whenever a transaction
  /// changes what the last fetch read (its region may vary from fetch to fetch).
  public static func tracking<Value: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> Value
  ) -> ValueObservation<ValueReducers.Fetch<Value>> where Reducer == ValueReducers.Fetch<Value> {
    ValueObservation(tracking: .regionRecordedFromSelection, reducer: ValueReducers.Fetch(fetch: fetch))
  }

  /// Observes the value returned by `fetch`, whose region is the one read by
  /// the first fetch: cheaper when the fetch always reads the same tables.
  public static func trackingConstantRegion<Value: Sendable>(
    _ fetch: @escaping @Sendable (Database) throws -> Value
  ) -> ValueObservation<ValueReducers.Fetch<Value>> where Reducer == ValueReducers.Fetch<Value> {
    ValueObservation(
      tracking: .constantRegionRecordedFromSelection, reducer: ValueReducers.Fetch(fetch: fetch))
  }

  /// Observes the value returned by `fetch`, refreshed whenever a transaction
  /// changes `region` or one of `otherRegions`.
  ///
  ///     let observation = ValueObservation.tracking(
  ///       region: Player.all(), Team.all(),
  ///       fetch: { db in try Player.fetchCount(db) + Team.fetchCount(db) })
  public static func tracking<Value: Sendable>(
    region: any DatabaseRegionConvertible,
    _ otherRegions: any DatabaseRegionConvertible...,
    fetch: @escaping @Sendable (Database) throws -> Value
  ) -> ValueObservation<ValueReducers.Fetch<Value>> where Reducer == ValueReducers.Fetch<Value> {
    tracking(regions: [region] + otherRegions, fetch: fetch)
  }

  /// Observes the value returned by `fetch`, refreshed whenever a transaction
  /// changes one of `regions`.
  public static func tracking<Value: Sendable>(
    regions: [any DatabaseRegionConvertible],
    fetch: @escaping @Sendable (Database) throws -> Value
  ) -> ValueObservation<ValueReducers.Fetch<Value>> where Reducer == ValueReducers.Fetch<Value> {
    ValueObservation(tracking: .regions(regions), reducer: ValueReducers.Fetch(fetch: fetch))
  }
}

extension ValueObservation {
  /// Delivers transformed values.
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Reducer.Value) throws -> T)
    -> ValueObservation<ValueReducers.Map<Reducer, T>>
  {
    with(reducer: ValueReducers.Map(base: reducer, transform: transform))
  }

  /// Delivers a value only if `predicate` says it differs from the previous one.
  public func removeDuplicates(by predicate: @escaping @Sendable (Reducer.Value, Reducer.Value) -> Bool)
    -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>
  {
    with(reducer: ValueReducers.RemoveDuplicates(base: reducer, predicate: predicate))
  }

  /// Coalesces changes: after a change, waits `interval` seconds (gathering
  /// every change made meanwhile) before fetching, and fetches at most once
  /// per interval. A slow consumer gets the latest value instead of a backlog.
  /// The value of the last change is always delivered.
  public func debounce(for interval: TimeInterval) -> Self {
    var observation = self
    observation.coalescingInterval = max(0, interval)
    return observation
  }

  /// Runs callbacks at each step of the observation's life (for logging and
  /// debugging). Callbacks run on the threads where the steps happen:
  /// `willFetch` and `didReceiveValue` right before and after each fetch (a
  /// value is received when it is fetched, before it is scheduled for
  /// `onChange`), at the level of the chain of `map` and `removeDuplicates`
  /// where `handleEvents` is called.
  public func handleEvents(
    willStart: (@Sendable () -> Void)? = nil,
    willFetch: (@Sendable () -> Void)? = nil,
    willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
    databaseDidChange: (@Sendable () -> Void)? = nil,
    didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
    didFail: (@Sendable (any Error) -> Void)? = nil,
    didCancel: (@Sendable () -> Void)? = nil
  ) -> ValueObservation<ValueReducers.Trace<Reducer>> {
    var observation = with(
      reducer: ValueReducers.Trace(
        base: reducer, willFetch: willFetch ?? {}, didReceiveValue: didReceiveValue ?? { _ in }))
    if let willStart { observation.events.willStart.append(willStart) }
    if let willTrackRegion { observation.events.willTrackRegion.append(willTrackRegion) }
    if let databaseDidChange { observation.events.databaseDidChange.append(databaseDidChange) }
    if let didFail { observation.events.didFail.append(didFail) }
    if let didCancel { observation.events.didCancel.append(didCancel) }
    return observation
  }

  /// Prints the observation's events, each message starting with `prefix`,
  /// to `stream` (one `write` per event, without a line feed) or the standard
  /// output (one line per event).
  public func print(_ prefix: String = "", to stream: sending (any TextOutputStream)? = nil)
    -> ValueObservation<ValueReducers.Trace<Reducer>>
  {
    let output = EventOutput(stream)
    let header = prefix.isEmpty ? "" : "\(prefix): "
    let write: @Sendable (String) -> Void = { message in output.write(header + message) }
    return handleEvents(
      willStart: { write("start") },
      willFetch: { write("fetch") },
      willTrackRegion: { write("tracked region: \($0)") },
      databaseDidChange: { write("database did change") },
      didReceiveValue: { write("value: \($0)") },
      didFail: { write("failure: \($0)") },
      didCancel: { write("cancel") })
  }

  private func with<R: ValueReducer>(reducer: R) -> ValueObservation<R> {
    ValueObservation<R>(
      tracking: tracking, reducer: reducer, events: events, coalescingInterval: coalescingInterval,
      requiresWriteAccess: requiresWriteAccess)
  }
}

extension ValueObservation where Reducer.Value: Equatable {
  /// Delivers a value only if it differs from the previous one.
  public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
    removeDuplicates(by: ==)
  }
}

extension ValueObservation {
  /// Starts the observation: `onChange` receives the first value, then a new
  /// value after each transaction that changed the tracked region, until the
  /// returned cancellable is cancelled or deallocated. A fetch error goes to
  /// `onError` and ends the observation.
  ///
  ///     let cancellable = observation.start(
  ///       in: dbQueue, scheduling: .async(onQueue: .main)
  ///     ) { error in
  ///       print(error)
  ///     } onChange: { players in
  ///       print("fresh players: \(players)")
  ///     }
  ///
  /// On the main actor, the other `start` takes callbacks isolated to it,
  /// and delivers values on the main actor by default.
  ///
  /// - parameter reader: the queue or pool to observe.
  /// - parameter scheduler: where values are delivered: `.async(onQueue:)`
  ///   delivers every value on a queue, `.immediate` delivers the first value
  ///   before `start` returns, `.task` from a task, `.mainActor` on the main
  ///   actor; or a ``ValueObservationScheduler`` of yours.
  /// - parameter onError: called with the error that ended the observation.
  /// - parameter onChange: called with each value.
  @preconcurrency public func start(
    in reader: some DatabaseReader,
    scheduling scheduler: some ValueObservationScheduler,
    onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Reducer.Value) -> Void
  ) -> AnyDatabaseCancellable {
    let runtime = ValueObservationRuntime(
      observation: self, reader: reader, scheduler: scheduler, onError: onError, onChange: onChange)
    runtime.start()
    return AnyDatabaseCancellable(cancel: { runtime.cancel() })
  }

  /// Starts the observation from the main actor, and delivers its values
  /// and its error to callbacks isolated to the main actor: `onChange`
  /// receives the first value, then a new value after each transaction that
  /// changed the tracked region, until the returned cancellable is cancelled
  /// or deallocated. A fetch error goes to `onError` and ends the observation.
  ///
  ///     @MainActor final class PlayerList {
  ///       var players: [Player] = []
  ///       var cancellable: AnyDatabaseCancellable?
  ///
  ///       func observe(_ dbQueue: DatabaseQueue) {
  ///         let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
  ///         cancellable = observation.start(in: dbQueue) { error in
  ///           print(error)
  ///         } onChange: { [unowned self] players in
  ///           self.players = players
  ///         }
  ///       }
  ///     }
  ///
  /// - parameter reader: the queue or pool to observe.
  /// - parameter scheduler: `.mainActor` (the default) delivers every value
  ///   later on the main actor; `.immediate` delivers the first value before
  ///   `start` returns, and later ones on the main actor.
  /// - parameter onError: called with the error that ended the observation.
  /// - parameter onChange: called with each value.
  @preconcurrency @MainActor public func start(
    in reader: some DatabaseReader,
    scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
    onError: @escaping @MainActor (any Error) -> Void,
    onChange: @escaping @MainActor (Reducer.Value) -> Void
  ) -> AnyDatabaseCancellable {
    // The scheduler runs every callback on the main actor (the first
    // immediate value in this call, which is on it).
    let anyScheduler: any ValueObservationScheduler = scheduler
    return start(
      in: reader, scheduling: anyScheduler,
      onError: { error in MainActor.assumeIsolated { onError(error) } },
      onChange: { value in MainActor.assumeIsolated { onChange(value) } })
  }

  /// The values of the observation as an asynchronous sequence, which starts
  /// the observation when iterated and stops it when the iterating task is
  /// cancelled or the loop ends.
  ///
  ///     for try await players in observation.values(in: dbQueue) {
  ///       print(players)
  ///     }
  ///
  /// - parameter reader: the queue or pool to observe.
  /// - parameter scheduler: where values are produced before they are
  ///   buffered for the iteration; by default from a task.
  /// - parameter bufferingPolicy: how values wait for a slow consumer.
  public func values(
    in reader: some DatabaseReader,
    scheduling scheduler: some ValueObservationScheduler = .task,
    bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded
  ) -> AsyncValueObservation<Reducer.Value> {
    AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
      start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
    }
  }
}

/// Where ``ValueObservation/print(_:to:)`` writes: the stream it was given
/// (sent to it, so only this mutex reaches it), or the standard output.
private final class EventOutput: Sendable {
  private let stream: Mutex<(any TextOutputStream)?>

  init(_ stream: sending (any TextOutputStream)?) {
    self.stream = Mutex(stream)
  }

  func write(_ message: String) {
    stream.withLock { stream in
      if stream != nil {
        stream!.write(message)
      } else {
        Swift.print(message)
      }
    }
  }
}
