import Foundation
import Sealite
import Testing

private enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case memoryQueue
  case encryptedQueue
  case plainPool
  case encryptedPool

  var testDescription: String { rawValue }

  func open(in directory: TemporaryDirectory) throws -> any DatabaseWriter {
    switch self {
    case .memoryQueue: return try DatabaseQueue()
    case .encryptedQueue:
      return try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    case .plainPool: return try DatabasePool(path: directory.path())
    case .encryptedPool: return try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    }
  }
}

private struct Abort: Error, Equatable {}

/// Opens `store` with an `item(name TEXT UNIQUE)` table; the directory lives
/// until `body` returns.
private func withItems(_ store: Store, _ body: (any DatabaseWriter) async throws -> Void) async throws {
  let directory = TemporaryDirectory()
  defer { withExtendedLifetime(directory) {} }
  let writer = try store.open(in: directory)
  try await writer.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT UNIQUE)") }
  try await body(writer)
  try writer.close()
  withExtendedLifetime(directory) {}
}

private func names(_ reader: any DatabaseReader) async throws -> [String] {
  try await reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") }
}

@Suite("Async access")
struct AsyncAccessTests {
  @Test("await write commits and returns the closure's result", arguments: Store.allCases)
  fileprivate func asyncWrite(store: Store) async throws {
    try await withItems(store) { writer async throws in
      let id = try await writer.write { db -> Int64 in
        #expect(db.isInsideTransaction)
        try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
        return db.lastInsertedRowID
      }
      #expect(id == 1)
      #expect(try await names(writer) == ["a"])
    }
  }

  @Test("await write rolls back and rethrows when the closure throws", arguments: Store.allCases)
  fileprivate func asyncWriteThrows(store: Store) async throws {
    try await withItems(store) { writer async throws in
      await #expect(throws: Abort()) {
        try await writer.write { db in
          try db.execute(sql: "INSERT INTO item (name) VALUES ('lost')")
          throw Abort()
        }
      }
      let error = await #expect(throws: DatabaseError.self) {
        try await writer.write { db in
          try db.execute(sql: "INSERT INTO item (name) VALUES ('lost too')")
          try db.execute(sql: "INSERT INTO item (name) VALUES ('lost too')")
        }
      }
      #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
      #expect(try await names(writer).isEmpty)
    }
  }

  @Test("await read returns its result, is read-only, and rethrows errors", arguments: Store.allCases)
  fileprivate func asyncRead(store: Store) async throws {
    try await withItems(store) { writer async throws in
      try await writer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('a')") }
      let count = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
      #expect(count == 1)
      let readOnlyError = await #expect(throws: DatabaseError.self) {
        try await writer.read { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('b')") }
      }
      #expect(readOnlyError?.resultCode == .SQLITE_READONLY)
      await #expect(throws: Abort()) { try await writer.read { _ in throw Abort() } }
      #expect(try await names(writer) == ["a"])
    }
  }

  @Test(
    "await writeWithoutTransaction autocommits and refuses an open transaction", arguments: Store.allCases)
  fileprivate func asyncWriteWithoutTransaction(store: Store) async throws {
    try await withItems(store) { writer async throws in
      let inTransaction = try await writer.writeWithoutTransaction { db -> Bool in
        try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
        return db.isInsideTransaction
      }
      #expect(!inTransaction)
      let error = await #expect(throws: DatabaseError.self) {
        try await writer.writeWithoutTransaction { db in
          try db.execute(sql: "BEGIN; INSERT INTO item (name) VALUES ('left open')")
        }
      }
      #expect(error?.resultCode == .SQLITE_MISUSE)
      #expect(try await names(writer) == ["a"])
    }
  }

  @Test("await barrierWriteWithoutTransaction runs and returns its result", arguments: Store.allCases)
  fileprivate func asyncBarrierWrite(store: Store) async throws {
    try await withItems(store) { writer async throws in
      let changes = try await writer.barrierWriteWithoutTransaction { db -> Int in
        try db.execute(sql: "INSERT INTO item (name) VALUES ('a'), ('b')")
        return db.changesCount
      }
      #expect(changes == 2)
      await #expect(throws: Abort()) {
        try await writer.barrierWriteWithoutTransaction { _ in throw Abort() }
      }
      #expect(try await names(writer) == ["a", "b"])
    }
  }

  @Test("concurrent async writes are serialized: none is lost", arguments: Store.allCases)
  fileprivate func concurrentAsyncWrites(store: Store) async throws {
    try await withItems(store) { writer async throws in
      try await writer.write { db in
        try db.execute(sql: "CREATE TABLE counter (value INT); INSERT INTO counter VALUES (0)")
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<40 {
          group.addTask {
            try await writer.write { db in
              // Read, then write: a lost update shows if two writes interleave.
              let value = try Int.fetchOne(db, sql: "SELECT value FROM counter")!
              try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
            }
          }
        }
        try await group.waitForAll()
      }
      #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT value FROM counter") } == 40)
    }
  }

  @Test("concurrent async reads of a pool all see committed data")
  func concurrentAsyncReads() async throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try await pool.write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item (name) VALUES ('a'), ('b')")
    }
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<20 {
        group.addTask {
          try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1 }
        }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(counts == Array(repeating: 2, count: 20))
  }

  @Test("async accesses of a closed queue or pool throw", arguments: Store.allCases)
  fileprivate func closedAsync(store: Store) async throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try store.open(in: directory)
    try writer.close()
    await #expect(throws: DatabaseError.self) {
      try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
    await #expect(throws: DatabaseError.self) {
      try await writer.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
    }
  }

  @Test("try await read and write on a queue, a pool, or any DatabaseWriter pick the async access")
  func awaitedAccessesAreAsync() async throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let queue = try DatabaseQueue(path: directory.path("queue.sqlite"), configuration: rawKeyConfiguration())
    let pool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: rawKeyConfiguration())
    let writer: any DatabaseWriter = pool
    // Only the async accesses refuse a cancelled task; the blocking ones
    // would run the closure.
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var refused: [String] = []
      func attempt(_ name: String, _ access: () async throws -> Void) async {
        do { try await access() } catch is CancellationError { refused.append(name) } catch {}
      }
      await attempt("queue.read") { try await queue.read { _ in } }
      await attempt("queue.write") { try await queue.write { _ in } }
      await attempt("queue.writeWithoutTransaction") { try await queue.writeWithoutTransaction { _ in } }
      await attempt("pool.read") { try await pool.read { _ in } }
      await attempt("pool.write") { try await pool.write { _ in } }
      await attempt("pool.barrierWriteWithoutTransaction") {
        try await pool.barrierWriteWithoutTransaction { _ in }
      }
      await attempt("writer.read") { try await writer.read { _ in } }
      await attempt("writer.write") { try await writer.write { _ in } }
      return refused
    }
    #expect(
      await task.value == [
        "queue.read", "queue.write", "queue.writeWithoutTransaction", "pool.read", "pool.write",
        "pool.barrierWriteWithoutTransaction", "writer.read", "writer.write",
      ])
  }
}
