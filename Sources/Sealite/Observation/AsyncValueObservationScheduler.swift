import Dispatch

/// A scheduler that delivers every value asynchronously, in order, on a
/// dispatch queue: the one made by
/// ``ValueObservationScheduler/async(onQueue:)``.
///
///     let queue = DispatchQueue(label: "players")
///     let cancellable = observation.start(
///       in: dbPool, scheduling: .async(onQueue: queue),
///       onError: { error in print(error) },
///       onChange: { players in print(players) })  // on `queue`
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
  let queue: DispatchQueue

  /// A scheduler that delivers values on `queue`, which should be serial:
  /// a concurrent queue would deliver them in any order.
  public init(queue: DispatchQueue) {
    self.queue = queue
  }

  /// False: even the first value is delivered on the queue.
  public func immediateInitialValue() -> Bool { false }

  /// Runs `action` asynchronously on the queue.
  public func schedule(_ action: @escaping @Sendable () -> Void) {
    queue.async(execute: action)
  }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
  /// Delivers every value asynchronously, in order, on `queue` (a serial
  /// queue: a concurrent one would deliver them in any order).
  ///
  ///     observation.start(in: dbQueue, scheduling: .async(onQueue: .main)) { error in
  ///       print(error)
  ///     } onChange: { players in
  ///       print("fresh players: \(players)")
  ///     }
  public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
    AsyncValueObservationScheduler(queue: queue)
  }
}
