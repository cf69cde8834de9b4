import Dispatch

/// Runs the jobs of `async` database accesses on the dispatch queue of their
/// connection, so that the closure of an access runs inside the awaiting task
/// (its task-local values and its cancellation are visible there) and still
/// one at a time with the blocking accesses of the same connection.
actor ConnectionActor {
  private let executor: DispatchQueueExecutor

  init(queue: DispatchQueue) {
    executor = DispatchQueueExecutor(queue: queue)
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Runs `work` on the connection's queue.
  func run<T: Sendable>(_ work: @Sendable () throws -> T) throws -> T {
    try work()
  }
}

/// A serial executor backed by a serial dispatch queue.
private final class DispatchQueueExecutor: SerialExecutor {
  private let queue: DispatchQueue

  init(queue: DispatchQueue) {
    self.queue = queue
  }

  func enqueue(_ job: UnownedJob) {
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(queue))
  }
}
