import Synchronization

/// A value shared between the test and the threads it starts (observers,
/// concurrent accesses), behind a lock. The tests' own: Sealite's lock is
/// internal, and tests of public behaviour see only the public API.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) {
    mutex = Mutex(value)
  }

  func withLock<T>(_ body: (inout sending Value) throws -> sending T) rethrows -> sending T {
    try mutex.withLock(body)
  }

  /// A copy of the value.
  var value: Value { mutex.withLock { $0 } }
}
