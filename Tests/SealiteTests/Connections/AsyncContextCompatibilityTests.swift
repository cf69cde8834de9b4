import Foundation
import Sealite
import Testing

// GRDB programs call its synchronous API from `async` functions without
// `await`. Each test here is such a function: that it compiles is half of the
// test (an `async` twin under the same name, which GRDB does not have, would
// make a line fail with "expression is 'async' but is not marked with
// 'await'"); the assertions check that the call did its work.
//
// `read`, `write`, `unsafeRead`, `writeWithoutTransaction` and
// `barrierWriteWithoutTransaction` have `async` twins in GRDB too, so in an
// `async` function GRDB code awaits them; their blocking forms are called here
// from a synchronous closure, where GRDB code calls them.

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
}

private func playerMigrator() -> DatabaseMigrator {
  var migrator = DatabaseMigrator()
  migrator.registerMigration("v1") { db in
    try db.create(table: "player") { t in
      t.primaryKey("id", .integer)
      t.column("name", .text).notNull()
    }
  }
  migrator.registerMigration("v2") { db in
    try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
  }
  return migrator
}

/// Calls the blocking accesses of `writer` from a synchronous context.
private func blockingAccesses(_ writer: some DatabaseWriter) throws -> [Int] {
  let written = try writer.write { db -> Int in
    try Player(id: 2, name: "Barbara").insert(db)
    return db.changesCount
  }
  let withoutTransaction = try writer.writeWithoutTransaction { db -> Int in
    try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
    return db.changesCount
  }
  let barrier = try writer.barrierWriteWithoutTransaction { db in try Player.fetchCount(db) }
  let read = try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1 }
  let unsafeRead = try writer.unsafeRead { db in try Player.fetchAll(db).count }
  return [written, withoutTransaction, barrier, read, unsafeRead]
}

@Suite("GRDB's synchronous API is called without await from async functions")
struct AsyncContextCompatibilityTests {
  @Test("try migrator.migrate(dbPool) and migrate(_:upTo:) compile without await in an async function")
  func migrateWithoutAwait() async throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let dbPool = try DatabasePool(path: directory.path("pool.sqlite"))
    let dbQueue = try DatabaseQueue(
      path: directory.path("queue.sqlite"), configuration: rawKeyConfiguration())
    let migrator = playerMigrator()
    try migrator.migrate(dbQueue, upTo: "v1")
    try migrator.migrate(dbQueue)
    try migrator.migrate(dbPool)
    let applied = try await dbPool.read { db in try migrator.appliedMigrations(db) }
    #expect(applied == ["v1", "v2"])
    let names = try await dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
    #expect(names == ["Arthur"])
    #expect(try await dbPool.read { db in try migrator.hasCompletedMigrations(db) })
  }

  @Test("inDatabase, inTransaction and the reentrant accesses of a queue compile without await")
  func queueMethodsWithoutAwait() async throws {
    let dbQueue = try DatabaseQueue()
    try playerMigrator().migrate(dbQueue)
    let inDatabase = try dbQueue.inDatabase { db in try Player.fetchCount(db) }
    try dbQueue.inTransaction { db in
      try Player(id: 2, name: "Barbara").insert(db)
      return .commit
    }
    let nested = try dbQueue.unsafeReentrantWrite { db in
      try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
      return try dbQueue.unsafeReentrantRead { db in try Player.fetchCount(db) }
    }
    // A closure that does not throw needs no `try` on a rethrows method.
    let fromNonThrowingClosure = dbQueue.inDatabase { db in db.isInsideTransaction }
    let writeResult = { dbQueue.writeWithoutTransaction { db in db.isReadOnly } }()
    #expect(inDatabase == 1)
    #expect(nested == 3)
    #expect(fromNonThrowingClosure == false)
    #expect(writeResult == false)
  }

  @Test("the blocking read and write methods run from a synchronous closure inside an async function")
  func blockingAccessesInsideAsyncFunction() async throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let dbQueue = try DatabaseQueue()
    let dbPool = try DatabasePool(path: directory.path())
    try playerMigrator().migrate(dbQueue)
    try playerMigrator().migrate(dbPool)
    let fromQueue = try { try blockingAccesses(dbQueue) }()
    let fromPool = try { try blockingAccesses(dbPool) }()
    #expect(fromQueue == [1, 1, 3, 3, 3])
    #expect(fromPool == [1, 1, 3, 3, 3])
    let reentrant = try dbPool.unsafeReentrantWrite { db in
      try db.execute(sql: "DELETE FROM player WHERE id = 3")
      return try dbPool.unsafeReentrantRead { db in try Player.fetchCount(db) }
    }
    #expect(reentrant == 2)
  }

  @Test("records, fetch requests and observations start without await in an async function")
  func recordsAndObservationsWithoutAwait() async throws {
    let dbQueue = try DatabaseQueue()
    try playerMigrator().migrate(dbQueue)
    let values = Shared<[Int]>([])
    let cancellable = ValueObservation.tracking { db in try Player.fetchCount(db) }
      .start(
        in: dbQueue, scheduling: anyImmediate, onError: { Issue.record($0) },
        onChange: { count in values.withLock { $0.append(count) } })
    defer { cancellable.cancel() }
    #expect(values.value == [1])
    var player = Player(id: 2, name: "Barbara")
    try await dbQueue.write { [player] db in try player.insert(db) }
    player.name = "Barbara B."
    try await dbQueue.write { [player] db in try player.save(db) }
    let fetched = try await dbQueue.read { db in try Player.fetchOne(db, key: 2) }
    #expect(fetched == player)
    dbQueue.interrupt()
    try dbQueue.close()
  }
}
