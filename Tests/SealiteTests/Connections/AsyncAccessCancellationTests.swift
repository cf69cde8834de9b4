import Foundation
import Sealite
import Testing

// The `async` accesses honour Swift concurrency as GRDB's do (its
// DatabaseReaderTests and DatabaseWriterTests): the closure runs inside the
// awaiting task, so it sees the task's local values and its cancellation; a
// task cancelled before the access gets `CancellationError` and the closure
// does not run; cancelling during the access interrupts the statement that
// runs, and statements started afterwards throw `CancellationError`.

private enum Probe {
  @TaskLocal static var value = "none"
}

private enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case queue
  case pool

  var testDescription: String { rawValue }

  func open(in directory: TemporaryDirectory) throws -> any DatabaseWriter {
    switch self {
    case .queue: return try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    case .pool: return try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    }
  }
}

/// The `async` accesses, called through a generic `some DatabaseWriter`, as
/// GRDB code calls them.
private enum Access: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case read
  case unsafeRead
  case write
  case writeWithoutTransaction
  case barrierWriteWithoutTransaction

  var testDescription: String { rawValue }

  func run<T: Sendable>(_ writer: some DatabaseWriter, _ body: @Sendable (Database) throws -> T) async throws
    -> T
  {
    switch self {
    case .read: return try await writer.read(body)
    case .unsafeRead: return try await writer.unsafeRead(body)
    case .write: return try await writer.write(body)
    case .writeWithoutTransaction: return try await writer.writeWithoutTransaction(body)
    case .barrierWriteWithoutTransaction: return try await writer.barrierWriteWithoutTransaction(body)
    }
  }
}

private let accessesAndStores = Access.allCases.flatMap { access in Store.allCases.map { (access, $0) } }

/// Opens `store` with a table `item(name)`; the directory lives until `body` returns.
private func withStore(_ store: Store, _ body: (any DatabaseWriter) async throws -> Void) async throws {
  let directory = TemporaryDirectory()
  defer { withExtendedLifetime(directory) {} }
  let writer = try store.open(in: directory)
  try await writer.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
  try await body(writer)
}

/// A query of 10^12 rows: it ends only when interrupted.
private let endlessCount = """
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000)
  SELECT COUNT(*) FROM c
  """

/// Lets a test cancel the task whose access is running.
private final class TaskBox: Sendable {
  private let task = Shared<Task<Void, any Error>?>(nil)
  func set(_ value: Task<Void, any Error>) { task.withLock { $0 = value } }
  func cancel() { task.value?.cancel() }
}

@Suite("Async accesses honour task locals and task cancellation")
struct AsyncAccessCancellationTests {
  @Test(
    "the closure of an async access sees the task-local values of the awaiting task",
    arguments: accessesAndStores)
  fileprivate func taskLocalsAreVisible(access: Access, store: Store) async throws {
    try await withStore(store) { writer async throws in
      let seen = try await Probe.$value.withValue("from the caller") {
        try await access.run(writer) { _ in Probe.value }
      }
      #expect(seen == "from the caller")
    }
  }

  @Test(
    "a task cancelled before the access gets CancellationError, and the closure does not run",
    arguments: accessesAndStores)
  fileprivate func cancelledBeforeAccess(access: Access, store: Store) async throws {
    try await withStore(store) { writer async throws in
      let ran = Shared(false)
      let gate = DispatchSemaphore(value: 0)
      let task = Task {
        // The task is cancelled by the time it reaches the access.
        await withCheckedContinuation { continuation in
          DispatchQueue.global().async {
            gate.wait()
            continuation.resume()
          }
        }
        _ = try await access.run(writer) { _ in ran.withLock { $0 = true } }
      }
      task.cancel()
      gate.signal()
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(ran.value == false)
      // The connection is usable again.
      #expect(try await access.run(writer) { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
  }

  @Test(
    "a task cancelled during the access: the closure sees Task.isCancelled; it succeeds, but a write does not commit",
    arguments: accessesAndStores)
  fileprivate func cancelledDuringSuccessfulAccess(access: Access, store: Store) async throws {
    try await withStore(store) { writer async throws in
      let box = TaskBox()
      let sawCancellation = Shared<Bool?>(nil)
      let task = Task {
        try await Task.sleep(for: .zero)
        _ = try await access.run(writer) { _ in
          #expect(!Task.isCancelled)
          box.cancel()
          sawCancellation.withLock { $0 = Task.isCancelled }
        }
      }
      box.set(task)
      if access == .write {
        // The commit is a statement started after the cancellation.
        await #expect(throws: CancellationError.self) { try await task.value }
      } else {
        try await task.value
      }
      #expect(sawCancellation.value == true)
      #expect(try await access.run(writer) { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
  }

  @Test(
    "a statement started after the task is cancelled throws CancellationError", arguments: accessesAndStores)
  fileprivate func statementAfterCancellation(access: Access, store: Store) async throws {
    try await withStore(store) { writer async throws in
      let box = TaskBox()
      let thrown = Shared<String?>(nil)
      let task = Task {
        try await Task.sleep(for: .zero)
        _ = try await access.run(writer) { db in
          box.cancel()
          do {
            try db.execute(sql: "SELECT 0")
          } catch {
            thrown.withLock { $0 = "\(type(of: error))" }
            throw error
          }
        }
      }
      box.set(task)
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(thrown.value == "CancellationError")
      #expect(try await access.run(writer) { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
  }

  @Test(
    "cancelling the task interrupts the statement a cursor is stepping (sqlite3_interrupt)",
    arguments: accessesAndStores)
  fileprivate func cursorInterrupted(access: Access, store: Store) async throws {
    try await withStore(store) { writer async throws in
      let box = TaskBox()
      let rowsAfterCancel = Shared<Int?>(nil)
      let task = Task {
        try await Task.sleep(for: .zero)
        _ = try await access.run(writer) { db in
          let cursor = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2")
          _ = try cursor.next()
          box.cancel()
          rowsAfterCancel.withLock { $0 = 0 }
          _ = try cursor.next()
          rowsAfterCancel.withLock { $0 = 1 }
        }
      }
      box.set(task)
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(rowsAfterCancel.value == 0)
      #expect(try await access.run(writer) { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
  }

  @Test(
    "cancelling the task from another thread stops a statement that would never end",
    arguments: accessesAndStores)
  fileprivate func runningStatementInterrupted(access: Access, store: Store) async throws {
    try await withStore(store) { writer async throws in
      let started = DispatchSemaphore(value: 0)
      let task = Task {
        _ = try await access.run(writer) { db in
          started.signal()
          return try Int.fetchOne(db, sql: endlessCount)
        }
      }
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          started.wait()
          continuation.resume()
        }
      }
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(try await access.run(writer) { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
  }

  @Test("a write whose task is cancelled during the closure is rolled back", arguments: Store.allCases)
  fileprivate func cancelledWriteRollsBack(store: Store) async throws {
    try await withStore(store) { writer async throws in
      let box = TaskBox()
      let task = Task {
        try await Task.sleep(for: .zero)
        try await writer.write { db in
          try db.execute(sql: "INSERT INTO item (name) VALUES ('kept?')")
          box.cancel()
          try db.execute(sql: "INSERT INTO item (name) VALUES ('never')")
        }
      }
      box.set(task)
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 0)
      try await writer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('after')") }
      #expect(
        try await writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["after"])
    }
  }

  @Test("a queue writes again after a read whose task was cancelled (query_only is restored)")
  func writeAfterCancelledRead() async throws {
    let dbQueue = try DatabaseQueue()
    let box = TaskBox()
    let task = Task {
      try await Task.sleep(for: .zero)
      try await dbQueue.read { _ in }
      try await dbQueue.read { _ in box.cancel() }
    }
    box.set(task)
    try? await task.value
    try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    #expect(try await dbQueue.read { db in try db.tableExists("t") })
  }

  @Test(
    "interrupt() stops the statement a queue or a pool runs, with SQLITE_INTERRUPT", arguments: Store.allCases
  )
  fileprivate func interruptStopsStatement(store: Store) async throws {
    try await withStore(store) { writer async throws in
      let done = Shared(false)
      let reading = Task {
        defer { done.withLock { $0 = true } }
        return try await writer.read { db in try Int.fetchOne(db, sql: endlessCount) }
      }
      // An interruption lands only while a statement runs: repeat until it ends.
      while !done.value {
        writer.interrupt()
        try await Task.sleep(for: .milliseconds(5))
      }
      let error = await #expect(throws: DatabaseError.self) { try await reading.value }
      #expect(error?.resultCode == .SQLITE_INTERRUPT)
      #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
  }
}
