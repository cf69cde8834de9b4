import Foundation
import Synchronization
import Testing

@testable import Sealite

/// Collects what an observer hears, for assertions.
final class RecordingObserver: TransactionObserver, @unchecked Sendable {
  // Sendable: used on the writer queue only, read after the accesses ended.
  var observedTables: Set<String>
  var events: [String] = []
  var changes = 0
  var commits = 0
  var rollbacks = 0
  var willCommitError: (any Error)?
  var stopAfterFirstEvent = false

  init(tables: Set<String>) { observedTables = tables }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    observedTables.contains(eventKind.tableName.lowercased())
  }
  func databaseDidChange(with event: DatabaseEvent) {
    events.append("\(event.kind) \(event.tableName) \(event.rowID)")
    if stopAfterFirstEvent { stopObservingDatabaseChangesUntilNextTransaction() }
  }
  func databaseDidChange() { changes += 1 }
  func databaseWillCommit() throws { if let willCommitError { throw willCommitError } }
  func databaseDidCommit(_ db: Database) { commits += 1 }
  func databaseDidRollback(_ db: Database) { rollbacks += 1 }
}

@Suite("Observation smoke")
struct ObservationSmokeTests {
  @Test("Transaction observers hear rows, WITHOUT ROWID tables and cascades")
  func observerHearsEverything() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE parent (id INTEGER PRIMARY KEY);
          CREATE TABLE child (code TEXT PRIMARY KEY, parentId INTEGER REFERENCES parent(id) ON DELETE CASCADE) WITHOUT ROWID;
          """)
    }
    let observer = RecordingObserver(tables: ["parent", "child"])
    dbQueue.add(transactionObserver: observer)
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO parent (id) VALUES (1)")
      try db.execute(sql: "INSERT INTO child (code, parentId) VALUES ('a', 1)")
    }
    #expect(observer.events == ["insert parent 1"])
    #expect(observer.changes == 1)
    #expect(observer.commits == 1)
    try dbQueue.write { db in try db.execute(sql: "DELETE FROM parent") }
    #expect(observer.changes == 2)
    #expect(observer.commits == 2)
  }

  @Test("ValueObservation delivers fresh values")
  func valueObservation() async throws {
    let dbQueue = try DatabaseQueue()
    try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
    let values = Locked<[Int]>([])
    let observation = ValueObservation.tracking { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
    }
    let cancellable = observation.start(
      in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")), onError: { _ in },
      onChange: { value in values.withLock { $0.append(value) } })
    for _ in 0..<3 {
      try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    }
    let deadline = Date().addingTimeInterval(5)
    while values.value.last != 3 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(values.value.first == 0)
    #expect(values.value.last == 3)
    cancellable.cancel()
  }
}
