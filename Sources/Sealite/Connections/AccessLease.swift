import Dispatch

/// A resource a dispatch thread holds for an `async` access (the barrier queue
/// of a pool, a reader connection): the thread hands `value` to the awaiting
/// task, then waits until the task ends the lease.
final class AccessLease<Value: Sendable>: Sendable {
  /// What the holding thread lends.
  let value: Value
  private let ended = DispatchSemaphore(value: 0)

  init(_ value: Value) {
    self.value = value
  }

  /// Ends the lease: the holding thread lets the resource go. Call once.
  func end() {
    ended.signal()
  }

  /// Blocks the holding thread until ``end()``.
  func waitForEnd() {
    ended.wait()
  }
}
