import Foundation
import Testing

// @testable: `ConnectionState` is Core's internal extension point for the layers; no
// public API shows it.
@testable import Sealite

/// A state that counts what Core tells it.
private final class CountingState: ConnectionState {
  nonisolated(unsafe) static var made = 0
  var schemaChanges = 0
  var closes = 0
  static func make(for db: Database) -> CountingState {
    made += 1
    return CountingState()
  }
  func schemaDidChange() { schemaChanges += 1 }
  func connectionWillClose() { closes += 1 }
}

@Suite("Core: the state layers keep on a connection", .serialized)
struct ConnectionStateTests {
  @Test("a state is made once per connection, on first use")
  func madeOnce() throws {
    let before = CountingState.made
    let dbQueue = try DatabaseQueue()
    let (first, second, existing) = try dbQueue.read { db in
      (
        db.state(for: CountingState.self), db.state(for: CountingState.self),
        db.existingState(for: CountingState.self)
      )
    }
    #expect(first === second)
    #expect(existing === first)
    #expect(CountingState.made == before + 1)
    let other = try DatabaseQueue()
    try other.read { db in #expect(db.existingState(for: CountingState.self) == nil) }
  }

  @Test("a schema statement of the connection, and clearSchemaCache(), tell every state")
  func ownSchemaChange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      let state = db.state(for: CountingState.self)
      try db.execute(sql: "CREATE TABLE t (a)")
      // The first cached statement after it reads the schema version,
      // unknown since.
      _ = try Row.fetchAll(db, sql: "SELECT * FROM t")
      let before = state.schemaChanges
      try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
      _ = try Row.fetchAll(db, sql: "SELECT * FROM t")
      #expect(state.schemaChanges == before)
      try db.execute(sql: "CREATE INDEX t_a ON t(a)")
      #expect(state.schemaChanges == before + 1)
      db.clearSchemaCache()
      #expect(state.schemaChanges == before + 2)
    }
  }

  @Test("a schema change by another connection is told at the next access")
  func otherConnectionSchemaChange() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("db.sqlite")
    let dbQueue = try DatabaseQueue(path: path)
    let state = try dbQueue.read { db in
      _ = try db.tableExists("t")
      return db.state(for: CountingState.self)
    }
    let before = state.schemaChanges
    try dbQueue.read { db in _ = try db.tableExists("t") }
    #expect(state.schemaChanges == before)
    let other = try DatabaseQueue(path: path)
    try other.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    #expect(try dbQueue.read { db in try db.tableExists("t") })
    #expect(state.schemaChanges == before + 1)
  }

  @Test("closing the connection tells every state once")
  func close() throws {
    let dbQueue = try DatabaseQueue()
    let state = try dbQueue.read { db in db.state(for: CountingState.self) }
    try dbQueue.close()
    #expect(state.closes == 1)
  }
}
