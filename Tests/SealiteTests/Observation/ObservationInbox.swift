import Synchronization

/// What observation callbacks deliver, awaited in order by a test: a
/// callback sends, the test waits for the next element. The wait is bound
/// by ``withDeadline(_:_:)`` only so that a broken test fails instead of
/// hanging.
final class ObservationInbox<Element: Sendable>: Sendable {
  private struct State {
    var buffer: [Element] = []
    var waiter: CheckedContinuation<Element?, Never>?
  }
  private let state = Mutex(State())

  /// Delivers `element` to the test.
  func send(_ element: Element) {
    let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.buffer.append(element)
      return nil
    }
    waiter?.resume(returning: element)
  }

  /// The elements sent and not yet taken.
  var pending: [Element] { state.withLock { $0.buffer } }

  /// The next element sent: waits for it.
  func next() async throws -> Element {
    try await withDeadline { [self] in
      let element = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
          let first = state.withLock { state -> Element?? in
            if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
            // Checked under the lock that the cancellation handler takes.
            if Task.isCancelled { return .some(nil) }
            state.waiter = continuation
            return .none
          }
          if let first { continuation.resume(returning: first) }
        }
      } onCancel: {
        let waiter = state.withLock { state in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: nil)
      }
      guard let element else { throw DeadlineExceeded() }
      return element
    }
  }
}
