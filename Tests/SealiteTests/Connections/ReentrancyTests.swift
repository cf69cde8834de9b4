import Foundation
import Sealite
import Testing

// GRDB's reentrancy rules (DatabasePool.swift, DatabaseQueue.swift,
// SerializedDatabase.swift; Tests/GRDBTests/DatabaseWriterTests.swift,
// DatabasePoolConcurrencyTests.swift): an access nested in an access of the
// same connection is an error, one that uses another connection of the pool is
// allowed, and the `unsafeReentrant…` methods run inside the current access.

private func makePool(_ directory: TemporaryDirectory) throws -> DatabasePool {
  let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
  try pool.write { db in
    try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item (name) VALUES ('committed')")
  }
  return pool
}

private func names(_ db: Database) throws -> [String] {
  try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY rowid")
}

@Suite("Reentrancy of queue and pool accesses")
struct ReentrancyTests {
  @Test("a pool write started inside a pool read runs and commits, and the read keeps its snapshot")
  func writeInsideRead() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let seenByRead = try pool.read { db -> [String] in
      try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('from the write')") }
      return try names(db)
    }
    #expect(seenByRead == ["committed"])
    #expect(try pool.read(names) == ["committed", "from the write"])
  }

  @Test("a pool read started inside a pool write sees the last commit, not the write's changes")
  func readInsideWrite() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let seenByRead = try pool.write { db -> [String] in
      try db.execute(sql: "INSERT INTO item (name) VALUES ('uncommitted')")
      return try pool.read(names)
    }
    #expect(seenByRead == ["committed"])
    #expect(try pool.read(names) == ["committed", "uncommitted"])
  }

  @Test("unsafeReentrantRead of a pool runs on the connection of the current read or write")
  func poolUnsafeReentrantRead() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let insideWrite = try pool.write { db -> [String] in
      try db.execute(sql: "INSERT INTO item (name) VALUES ('uncommitted')")
      return try pool.unsafeReentrantRead(names)
    }
    #expect(insideWrite == ["committed", "uncommitted"])
    let (insideRead, sameConnection) = try pool.read { outer -> ([String], Bool) in
      try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('later')") }
      return try pool.unsafeReentrantRead { inner in (try names(inner), inner === outer) }
    }
    // The nested access shares the read's transaction, hence its snapshot.
    #expect(insideRead == ["committed", "uncommitted"])
    #expect(sameConnection)
    #expect(try pool.unsafeReentrantRead(names) == ["committed", "uncommitted", "later"])
  }

  @Test("unsafeReentrantWrite of a pool runs inside the current write, in its transaction")
  func poolUnsafeReentrantWrite() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    #expect(throws: CancellationError.self) {
      try pool.write { db in
        try pool.unsafeReentrantWrite { inner in
          #expect(inner === db)
          try inner.execute(sql: "INSERT INTO item (name) VALUES ('rolled back')")
        }
        throw CancellationError()
      }
    }
    #expect(try pool.read(names) == ["committed"])
  }

  @Test("a read inside a read of the same pool, and a barrier write inside any access, throw a misuse error")
  func poolMisuse() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let attempts: [(String, () throws -> Void)] = [
      ("read in read", { try pool.read { _ in try pool.read { _ in } } }),
      ("unsafeRead in read", { try pool.read { _ in try pool.unsafeRead { _ in } } }),
      ("barrier in read", { try pool.read { _ in try pool.barrierWriteWithoutTransaction { _ in } } }),
      ("barrier in write", { try pool.write { _ in try pool.barrierWriteWithoutTransaction { _ in } } }),
      ("read in barrier", { try pool.barrierWriteWithoutTransaction { _ in try pool.read { _ in } } }),
      ("write in write", { try pool.write { _ in try pool.write { _ in } } }),
    ]
    for (name, attempt) in attempts {
      let error = #expect(throws: DatabaseError.self, "\(name)") { try attempt() }
      #expect(error?.resultCode == .SQLITE_MISUSE, "\(name)")
    }
    #expect(try pool.read(names) == ["committed"])
  }

  @Test("writeWithoutTransaction nested in an access of the same queue stops the program, as in GRDB")
  func nestedRethrowingAccessIsFatal() async {
    await #expect(processExitsWith: .failure) {
      let queue = try DatabaseQueue()
      try queue.inDatabase { _ in try queue.writeWithoutTransaction { _ in } }
    }
    await #expect(processExitsWith: .failure) {
      let queue = try DatabaseQueue()
      try queue.write { _ in queue.inDatabase { _ in } }
    }
  }

  @Test("writeWithoutTransaction returning with a transaction open stops the program, as in GRDB")
  func transactionLeftOpenIsFatal() async {
    await #expect(processExitsWith: .failure) {
      let queue = try DatabaseQueue()
      try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN") }
    }
    await #expect(processExitsWith: .success) {
      var config = Configuration()
      config.allowsUnsafeTransactions = true
      let queue = try DatabaseQueue(configuration: config)
      try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN") }
      try queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
    }
  }

  @Test("unsafeReentrantRead and unsafeReentrantWrite of a queue run inside the current access")
  func queueReentrantAccesses() throws {
    let queue = try DatabaseQueue()
    let seen = try queue.write { db -> [String] in
      try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item (name) VALUES ('uncommitted')")
      try queue.unsafeReentrantWrite { inner in
        try inner.execute(sql: "INSERT INTO item (name) VALUES ('nested')")
      }
      return try queue.unsafeReentrantRead(names)
    }
    #expect(seen == ["uncommitted", "nested"])
  }
}
