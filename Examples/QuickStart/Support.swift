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

/// Every line printed so far: the README's examples print their results, and the
/// quick start checks what they printed, even from callbacks on other threads.
private let printedLines = Mutex<[String]>([])

/// Prints a line, as Swift's `print` does, and remembers it for ``waitForPrinted(_:)``.
func print(_ items: Any..., separator: String = " ") {
  let line = items.map { "\($0)" }.joined(separator: separator)
  printedLines.withLock { lines in
    Swift.print(line)
    lines.append(line)
  }
}

/// Whether a line holding `text` was printed.
func hasPrinted(containing text: String) -> Bool {
  printedLines.withLock { $0.contains { $0.contains(text) } }
}

/// Waits until a line equal to `line` was printed; fails the example after 10 seconds.
func waitForPrinted(_ line: String, sourceLine: Int = #line) async throws {
  let deadline = ContinuousClock.now + .seconds(10)
  while !printedLines.withLock({ $0.contains(line) }) {
    check(ContinuousClock.now < deadline, "never printed: \(line)", line: sourceLine)
    try await Task.sleep(for: .milliseconds(5))
  }
}
