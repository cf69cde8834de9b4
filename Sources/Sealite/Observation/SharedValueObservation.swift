import Dispatch

extension ValueObservation {
  /// An observation whose fetches and values are shared by every
  /// subscriber of the returned ``SharedValueObservation``: one underlying
  /// observation, however many subscribers; a subscriber that comes after
  /// a value was delivered receives that value first.
  ///
  ///     let shared = ValueObservation
  ///       .tracking { db in try Player.fetchAll(db) }
  ///       .shared(in: dbQueue)
  ///     let first = shared.start { error in print(error) } onChange: { print($0) }
  ///     let second = shared.start { error in print(error) } onChange: { print($0) }
  ///
  /// Subscriptions share one observation only when they are made on the same
  /// `SharedValueObservation`: two calls to `shared(in:)` start two.
  ///
  /// - parameter reader: the queue or pool to observe.
  /// - parameter scheduler: where values are delivered to subscribers (by
  ///   default on the main queue); with `.immediate`, a subscriber receives
  ///   the last value, or the first one, before `start` returns.
  /// - parameter extent: whether the underlying observation stops when the
  ///   last subscription ends (``SharedValueObservationExtent/whileObserved``,
  ///   the default) or lasts as long as the shared observation.
  public func shared(
    in reader: some DatabaseReader,
    scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
    extent: SharedValueObservationExtent = .whileObserved
  ) -> SharedValueObservation<Reducer.Value> {
    SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange in
      start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
    }
  }
}

/// One ``ValueObservation`` shared by several subscribers, made by
/// ``ValueObservation/shared(in:scheduling:extent:)``: each value is fetched
/// once and delivered to every subscriber, and a late subscriber receives
/// the last value first.
///
///     let shared = ValueObservation
///       .tracking { db in try Player.fetchAll(db) }
///       .shared(in: dbQueue)
///
///     let cancellable = shared.start { error in
///       print(error)
///     } onChange: { players in
///       print("fresh players: \(players)")
///     }
///
///     for try await players in shared.values() {
///       print("fresh players: \(players)")
///     }
///
/// An error ends every subscription with it. With
/// ``SharedValueObservationExtent/whileObserved`` the next subscription
/// starts a new observation; with
/// ``SharedValueObservationExtent/observationLifetime`` later subscribers
/// receive the error.
public final class SharedValueObservation<Element: Sendable>: Sendable {
  private typealias Start =
    @Sendable (
      _ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable

  private struct Subscriber: Sendable {
    let id: Int
    let onError: @Sendable (any Error) -> Void
    let onChange: @Sendable (Element) -> Void
    /// True from the subscription until the last result, scheduled for this
    /// subscriber, is delivered: newer values replace `replay` meanwhile,
    /// so that none arrives before it.
    var awaitsReplay = false
    var replay: Result<Element, any Error>?
  }

  private struct State: Sendable {
    var subscribers: [Subscriber] = []
    var nextID = 0
    var isObserving = false
    /// Counts the starts of the underlying observation: callbacks of an
    /// observation that was stopped are ignored.
    var generation = 0
    var cancellable: AnyDatabaseCancellable?
    var lastResult: Result<Element, any Error>?

    mutating func remove(_ id: Int) -> Subscriber? {
      guard let index = subscribers.firstIndex(where: { $0.id == id }) else { return nil }
      return subscribers.remove(at: index)
    }
  }

  /// What a new subscription does after it is recorded.
  private enum SubscriptionStep {
    /// Start the underlying observation, the `generation`th.
    case startObservation(generation: Int)
    /// Deliver the last result.
    case replay
    /// Wait for the first value of the running observation.
    case wait
  }

  private let scheduler: any ValueObservationScheduler
  private let extent: SharedValueObservationExtent
  private let startObservation: Start
  // Callbacks of subscribers run outside this lock: they may subscribe or
  // cancel.
  private let state = Locked(State())

  fileprivate init(
    scheduler: some ValueObservationScheduler, extent: SharedValueObservationExtent,
    startObservation:
      @escaping @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void
      ) -> AnyDatabaseCancellable
  ) {
    self.scheduler = scheduler
    self.extent = extent
    self.startObservation = startObservation
  }

  /// Subscribes to the shared observation, starting it if no one observes:
  /// `onChange` receives the last value delivered to other subscribers (if
  /// any), then each new one, until the returned cancellable is cancelled or
  /// deallocated. The error that ends the observation goes to `onError`.
  ///
  ///     let cancellable = shared.start { error in
  ///       print(error)
  ///     } onChange: { players in
  ///       print("fresh players: \(players)")
  ///     }
  ///
  /// The cancellable keeps the shared observation alive.
  @preconcurrency public func start(
    onError: @escaping @Sendable (any Error) -> Void,
    onChange: @escaping @Sendable (Element) -> Void
  ) -> AnyDatabaseCancellable {
    let (id, next) = state.withLock { state -> (Int, SubscriptionStep) in
      let id = state.nextID
      state.nextID += 1
      var subscriber = Subscriber(id: id, onError: onError, onChange: onChange)
      let next: SubscriptionStep
      if !state.isObserving {
        state.isObserving = true
        state.generation += 1
        state.lastResult = nil
        next = .startObservation(generation: state.generation)
      } else if let lastResult = state.lastResult {
        subscriber.awaitsReplay = true
        subscriber.replay = lastResult
        next = .replay
      } else {
        next = .wait
      }
      state.subscribers.append(subscriber)
      return (id, next)
    }
    switch next {
    case .startObservation(let generation):
      // The shared observation owns the underlying one, whose callbacks
      // reach it weakly. With an immediate scheduler, the first value comes
      // before `startObservation` returns.
      let cancellable = startObservation(
        { [weak self] error in self?.observationDidFail(error, generation: generation) },
        { [weak self] value in self?.observationDidChange(value, generation: generation) })
      let isCurrent = state.withLock { state in
        guard state.isObserving, state.generation == generation else { return false }
        state.cancellable = cancellable
        return true
      }
      // Every subscriber left (or an error came) during the start.
      if !isCurrent { cancellable.cancel() }
    case .replay:
      scheduler.scheduleInitial { [weak self] in self?.replay(to: id) }
    case .wait:
      break
    }
    // The subscription keeps the shared observation alive.
    return AnyDatabaseCancellable(cancel: { self.unsubscribe(id) })
  }

  /// Subscribes to the shared observation, as an asynchronous sequence of
  /// its values: each iteration is a subscription, cancelled when the
  /// iteration ends or its task is cancelled.
  ///
  ///     for try await players in shared.values() {
  ///       print("fresh players: \(players)")
  ///     }
  ///
  /// - parameter bufferingPolicy: how values wait for a slow consumer.
  public func values(bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded)
    -> AsyncValueObservation<Element>
  {
    AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
      self.start(onError: onError, onChange: onChange)
    }
  }

  // MARK: - Events of the underlying observation

  private func observationDidChange(_ value: Element, generation: Int) {
    let ids = state.withLock { state -> [Int] in
      guard state.isObserving, state.generation == generation else { return [] }
      state.lastResult = .success(value)
      var ids: [Int] = []
      for index in state.subscribers.indices {
        if state.subscribers[index].awaitsReplay {
          state.subscribers[index].replay = .success(value)
        } else {
          ids.append(state.subscribers[index].id)
        }
      }
      return ids
    }
    for id in ids {
      // A subscriber cancelled meanwhile receives nothing more.
      let onChange = state.withLock { state in state.subscribers.first { $0.id == id }?.onChange }
      onChange?(value)
    }
  }

  private func observationDidFail(_ error: any Error, generation: Int) {
    let (subscribers, stopped) = state.withLock { state -> ([Subscriber], AnyDatabaseCancellable?) in
      guard state.isObserving, state.generation == generation else { return ([], nil) }
      let subscribers = state.subscribers
      state.subscribers = []
      var stopped: AnyDatabaseCancellable?
      switch extent {
      case .whileObserved:
        state.isObserving = false
        state.lastResult = nil
        stopped = state.cancellable
        state.cancellable = nil
      case .observationLifetime:
        state.lastResult = .failure(error)
      }
      return (subscribers, stopped)
    }
    // Released here, outside the lock (the observation stopped at its error).
    _ = stopped
    for subscriber in subscribers { subscriber.onError(error) }
  }

  /// Delivers the last result to a new subscriber (or a newer value, if one
  /// came meanwhile).
  private func replay(to id: Int) {
    let delivery = state.withLock { state -> (Subscriber, Result<Element, any Error>)? in
      guard let index = state.subscribers.firstIndex(where: { $0.id == id }),
        let replay = state.subscribers[index].replay
      else { return nil }
      state.subscribers[index].awaitsReplay = false
      state.subscribers[index].replay = nil
      let subscriber = state.subscribers[index]
      // An error ends the subscription.
      if case .failure = replay { state.subscribers.remove(at: index) }
      return (subscriber, replay)
    }
    guard let (subscriber, result) = delivery else { return }
    switch result {
    case .success(let value): subscriber.onChange(value)
    case .failure(let error): subscriber.onError(error)
    }
  }

  private func unsubscribe(_ id: Int) {
    let stopped = state.withLock { state -> AnyDatabaseCancellable? in
      guard state.remove(id) != nil else { return nil }
      guard state.subscribers.isEmpty, extent == .whileObserved, state.isObserving else { return nil }
      state.isObserving = false
      state.lastResult = nil
      defer { state.cancellable = nil }
      return state.cancellable
    }
    stopped?.cancel()
  }
}
