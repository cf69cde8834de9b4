import Synchronization

/// A value that `@Sendable` closures of a test share, for the tests that
/// import Sealite as a program does (without `@testable`, so without its
/// internal `Locked`).
final class Shared<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) {
    mutex = Mutex(value)
  }

  /// The value now.
  var value: Value { mutex.withLock { $0 } }

  /// Runs `body` with the value, under the lock.
  func withLock<Result: Sendable>(_ body: (inout sending Value) -> Result) -> Result {
    mutex.withLock { body(&$0) }
  }

  /// Changes the value, under the lock.
  func update(_ body: (inout Value) -> Void) {
    mutex.withLock { body(&$0) }
  }
}
