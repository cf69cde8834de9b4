/// How long the observation that a ``SharedValueObservation`` shares
/// between its subscribers runs.
///
///     let shared = observation.shared(in: dbQueue, extent: .observationLifetime)
public enum SharedValueObservationExtent: Sendable {
  /// The shared observation starts at the first subscription and runs
  /// until the ``SharedValueObservation`` is released (every subscription
  /// keeps it alive). After an error it does not restart: later subscribers
  /// receive the error.
  case observationLifetime

  /// The shared observation starts at the first subscription and stops
  /// when the last subscription is cancelled, or at an error; the next
  /// subscription starts it again.
  case whileObserved
}
