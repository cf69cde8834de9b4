import Foundation
import Testing

// @testable: observableRegion, the region an observation really watches, is internal.
@testable import Sealite

private func viewQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
        CREATE VIEW v AS SELECT * FROM t;
        """)
  }
  return dbQueue
}

extension ObservationTests {
  @Suite("Views in observed regions")
  struct ObservedRegionViewTests {
    @Test("the region of a request that reads a view holds the view and its table")
    func requestRegion() throws {
      let dbQueue = try viewQueue()
      let region = try dbQueue.read { db in
        try SQLRequest<Row>(sql: "SELECT name FROM v ORDER BY id").databaseRegion(db)
      }
      #expect(region.description == "t(id,name),v(id,name)")
    }

    @Test("a ValueObservation of a view tracks the view's table, not the view")
    func valueObservationSkipsView() async throws {
      let dbQueue = try viewQueue()
      let regions = Locked<[String]>([])
      let observation = ValueObservation.trackingConstantRegion { db in
        try Row.fetchAll(db, sql: "SELECT name FROM v ORDER BY id")
      }
      .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
      let cancellable = observation.start(
        in: dbQueue, scheduling: .async(onQueue: .main), onError: { _ in }, onChange: { _ in })
      #expect(await eventually { !regions.value.isEmpty })
      #expect(regions.value.last == "t(id,name)")
      cancellable.cancel()
    }

    @Test("a DatabaseRegionObservation of a view's request is told of changes to the view's table")
    func regionObservationOfView() throws {
      let dbQueue = try viewQueue()
      let changes = Locked(0)
      let observation = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT name FROM v"))
      let cancellable = observation.start(
        in: dbQueue, onError: { _ in },
        onChange: { _ in
          changes.withLock { $0 += 1 }
        })
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (name) VALUES ('a')") }
      #expect(changes.value == 1)
      cancellable.cancel()
    }

    @Test("a region that names a view alone observes nothing: a view has no rows of its own")
    func viewAloneIsNotObserved() throws {
      let dbQueue = try viewQueue()
      let region = try dbQueue.read { db in try DatabaseRegion(table: "v").observableRegion(db) }
      #expect(region.isEmpty)
      let tableRegion = try dbQueue.read { db in try DatabaseRegion(table: "T").observableRegion(db) }
      #expect(tableRegion.description == "t(*)")
    }
  }
}
