import Dispatch

/// Where and when a ``ValueObservation`` delivers its values.
public struct ValueObservationScheduler: Sendable {
  enum Kind: Sendable {
    /// The first value synchronously, in `start`; later ones on the main queue.
    case immediate
    /// Every value asynchronously, on this queue.
    case async(DispatchQueue)
    /// Every value asynchronously, on a private serial queue (for async sequences).
    case task
  }

  let kind: Kind

  /// The first value is delivered synchronously, before `start` returns;
  /// later values on the main dispatch queue.
  public static var immediate: ValueObservationScheduler { ValueObservationScheduler(kind: .immediate) }

  /// Values are delivered asynchronously, in order, on `queue`.
  public static func async(onQueue queue: DispatchQueue) -> ValueObservationScheduler {
    ValueObservationScheduler(kind: .async(queue))
  }

  /// Values are delivered asynchronously on a private serial queue (the
  /// default of ``ValueObservation/values(in:scheduling:bufferingPolicy:)``).
  public static var task: ValueObservationScheduler { ValueObservationScheduler(kind: .task) }

  /// Values are delivered on the main queue, where the main actor runs.
  public static var mainActor: ValueObservationScheduler { .async(onQueue: .main) }

  var isImmediate: Bool {
    if case .immediate = kind { return true }
    return false
  }

  /// The queue of asynchronous deliveries.
  func deliveryQueue(label: String) -> DispatchQueue {
    switch kind {
    case .immediate: .main
    case .async(let queue): queue
    case .task: DispatchQueue(label: label)
    }
  }
}
