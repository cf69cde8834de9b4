import Synchronization

/// A value behind a mutex, in a class so that closures can share it
/// (`Mutex` itself can not be captured).
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) {
    mutex = Mutex(value)
  }

  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try mutex.withLock { value in try body(&value) }
  }

  var value: Value { mutex.withLock { $0 } }
}
