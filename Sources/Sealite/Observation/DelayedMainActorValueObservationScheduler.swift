import Dispatch

/// A scheduler that delivers every value asynchronously on the main actor:
/// the one made by ``ValueObservationScheduler/mainActor``, the default of
/// the main-actor `start(in:scheduling:onError:onChange:)` of ``ValueObservation``.
///
///     @MainActor func observe() {
///       cancellable = observation.start(in: dbQueue) { error in
///         print(error)
///       } onChange: { players in
///         self.players = players  // on the main actor
///       }
///     }
public final class DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
  /// False: even the first value is delivered later, on the main actor.
  public func immediateInitialValue() -> Bool { false }

  /// Runs `action` asynchronously on the main queue, where the main actor runs.
  public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated(action) }
  }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
  /// Delivers every value asynchronously on the main actor.
  ///
  ///     observation.start(in: dbQueue, scheduling: .mainActor) { error in
  ///       print(error)
  ///     } onChange: { players in
  ///       print("fresh players: \(players)")  // on the main actor
  ///     }
  public static var mainActor: DelayedMainActorValueObservationScheduler {
    DelayedMainActorValueObservationScheduler()
  }
}
