/// A ``ValueObservationScheduler`` that delivers values on the main actor:
/// the one the main-actor `start(in:scheduling:onError:onChange:)` of
/// ``ValueObservation`` takes, whose callbacks are isolated to the main actor.
///
///     @MainActor func observePlayers() {
///       cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
///         self.error = error
///       } onChange: { players in
///         self.players = players  // main-actor state, without a lock
///       }
///     }
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
  /// Runs `action` later on the main actor, after every action scheduled
  /// before it.
  func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void)
}

extension ValueObservationMainActorScheduler {
  /// Runs `action` on the main actor, with ``scheduleOnMainActor(_:)``.
  public func schedule(_ action: @escaping @Sendable () -> Void) {
    scheduleOnMainActor(action)
  }
}
