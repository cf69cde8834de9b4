import Foundation
import Synchronization

// What the quick start needs to check itself, and which the README does not quote.

/// Where the example keeps its database: a new temporary directory, removed at the end.
let exampleDirectory: URL = {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sealite-quickstart-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}()

/// Fails the example, and so the test that runs it, when a result is not the expected one.
func check(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) {
  if !condition {
    FileHandle.standardError.write(Data("quick start, line \(line): \(message())\n".utf8))
    try? FileManager.default.removeItem(at: exampleDirectory)
    exit(1)
  }
}

/// Every line printed so far, and who waits for which line: the README's examples
/// print their results, and the quick start checks what they printed, even from
/// callbacks on other threads.
private struct Printed {
  var lines: [String] = []
  var waiters: [(id: Int, line: String, continuation: CheckedContinuation<Bool, Never>)] = []
  var nextWaiterID = 0
}

private let printed = Mutex(Printed())

/// Prints a line, as Swift's `print` does, and remembers it for ``waitForPrinted(_:sourceLine:)``.
func print(_ items: Any..., separator: String = " ") {
  let line = items.map { "\($0)" }.joined(separator: separator)
  let waiting = printed.withLock { state in
    Swift.print(line)
    state.lines.append(line)
    let waiting = state.waiters.filter { $0.line == line }.map(\.continuation)
    state.waiters.removeAll { $0.line == line }
    return waiting
  }
  for continuation in waiting { continuation.resume(returning: true) }
}

/// The lines printed so far that start with `prefix`, in order.
func printedLines(withPrefix prefix: String) -> [String] {
  printed.withLock { $0.lines.filter { $0.hasPrefix(prefix) } }
}

/// Whether a line holding `text` was printed.
func hasPrinted(containing text: String) -> Bool {
  printed.withLock { $0.lines.contains { $0.contains(text) } }
}

/// Waits until a line equal to `line` is printed (resumed by ``print(_:separator:)``);
/// fails the example if it is not printed within 10 seconds.
func waitForPrinted(_ line: String, sourceLine: Int = #line) async throws {
  let wasPrinted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let id: Int? = printed.withLock { state in
      if state.lines.contains(line) { return nil }
      defer { state.nextWaiterID += 1 }
      state.waiters.append((state.nextWaiterID, line, continuation))
      return state.nextWaiterID
    }
    guard let id else { return continuation.resume(returning: true) }
    // A hang guard: only a line that never comes is resumed from here.
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(10)) {
      let expired = printed.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      expired?.resume(returning: false)
    }
  }
  check(wasPrinted, "never printed: \(line)", line: sourceLine)
}
