import Foundation

/// A value behind a mutex, in a class so that closures can share it.
///
/// A `pthread_mutex_t`, not `Synchronization.Mutex`: ThreadSanitizer intercepts
/// pthread mutexes, so `make sanitize SANITIZER=thread` sees the order of every
/// critical section. `Mutex` on Linux hands a contended lock over through a futex
/// inside the uninstrumented Synchronization library, and ThreadSanitizer then
/// reports two critical sections of the same lock as a race.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable: `storage` is only read and written with `mutex` held,
  // and it is Sendable itself, so what a thread takes out it may keep.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var storage: Value

  init(_ value: Value) {
    storage = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held, on the value.
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&storage)
  }

  /// A copy of the value, read with the lock held.
  var value: Value { withLock { $0 } }
}
