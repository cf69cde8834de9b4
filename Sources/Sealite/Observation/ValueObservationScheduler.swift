import Dispatch

/// Where and when a ``ValueObservation`` delivers its values.
///
/// Sealite provides ``async(onQueue:)``, ``immediate``, ``task``,
/// ``task(priority:)`` and ``mainActor``; any type of yours that conforms
/// can be given to
/// ``ValueObservation/start(in:scheduling:onError:onChange:)-(_,_,(Error)->Void,_)``:
///
///     /// Delivers every value on a serial queue of its own, with a label.
///     struct LabeledQueueScheduler: ValueObservationScheduler {
///       let queue = DispatchQueue(label: "observation")
///       func immediateInitialValue() -> Bool { false }
///       func schedule(_ action: @escaping @Sendable () -> Void) {
///         queue.async(execute: action)
///       }
///     }
///
///     let cancellable = observation.start(
///       in: dbQueue, scheduling: LabeledQueueScheduler(),
///       onError: { error in print(error) },
///       onChange: { players in print(players) })
///
/// A scheduler must run the actions it is given in the order it was given
/// them, one at a time: values would arrive out of order otherwise.
public protocol ValueObservationScheduler: Sendable {
  /// Whether the first value is delivered synchronously, by the `start`
  /// that asks, before it returns. Asked once per start, on the thread
  /// that starts the observation.
  func immediateInitialValue() -> Bool

  /// Runs `action` later, after every action scheduled before it.
  func schedule(_ action: @escaping @Sendable () -> Void)
}

extension ValueObservationScheduler {
  /// Runs the action of a first value: now if the scheduler delivers it
  /// immediately, scheduled otherwise.
  func scheduleInitial(_ action: @escaping @Sendable () -> Void) {
    if immediateInitialValue() {
      action()
    } else {
      schedule(action)
    }
  }
}
