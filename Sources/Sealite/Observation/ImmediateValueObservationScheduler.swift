import Dispatch

/// A scheduler that delivers the first value synchronously, before `start`
/// returns, and later values asynchronously on the main actor: the one
/// made by ``ValueObservationScheduler/immediate``.
///
///     let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
///       print(error)
///     } onChange: { players in
///       print("fresh players: \(players)")
///     }
///     // Here "fresh players" is already printed.
///
/// Unlike GRDB's, it does not require that `start` be called on the main
/// thread: the first value is delivered on the thread that calls `start`.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
  /// The immediate scheduler.
  public init() {}

  /// True: the first value is delivered by `start`, before it returns.
  public func immediateInitialValue() -> Bool { true }

  /// Runs `action` asynchronously on the main queue, where the main actor runs.
  public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated(action) }
  }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
  /// Delivers the first value synchronously, before `start` returns, and
  /// later values asynchronously on the main actor.
  ///
  ///     let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
  ///       print(error)
  ///     } onChange: { players in
  ///       print("fresh players: \(players)")
  ///     }
  ///     // Here "fresh players" is already printed.
  public static var immediate: ImmediateValueObservationScheduler {
    ImmediateValueObservationScheduler()
  }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
  /// Delivers the first value synchronously, before `start` returns, and
  /// later values asynchronously on the main actor.
  ///
  ///     @MainActor func observe() {
  ///       cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
  ///         print(error)
  ///       } onChange: { players in
  ///         self.players = players
  ///       }
  ///       // Here `self.players` is already set.
  ///     }
  public static var immediate: ImmediateValueObservationScheduler {
    ImmediateValueObservationScheduler()
  }
}
