import Dispatch
import Foundation
import Sealite
import Testing

private struct T: TableRecord {
  static let databaseTableName = "t"
}

private struct Parent: TableRecord {
  static let databaseTableName = "parent"
  static let children = hasMany(Child.self)
}

private struct Child: TableRecord {
  static let databaseTableName = "child"
}

/// An empty database of parents and their children.
private func makeParentsAndChildren() async throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try await dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE child(id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id), name TEXT);
        """)
  }
  return dbQueue
}

extension ObservationTests {
  /// The region an observation tracks, fetch after fetch.
  @Suite("ValueObservation tracked regions")
  struct ValueObservationVaryingRegionTests {
    @Test(
      "tracking follows the tables each fetch reads: a commit to a table the last fetch did not read gives no value",
      arguments: [true, false])
    func varyingRegion(_ immediate: Bool) async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in
        try db.execute(
          sql: """
            CREATE TABLE source(name TEXT);
            INSERT INTO source VALUES ('a');
            CREATE TABLE a(value INTEGER);
            CREATE TABLE b(value INTEGER);
            """)
      }
      let regions = Shared<[String]>([])
      let values = Shared<[Int]>([])
      let observation = ValueObservation.tracking { db -> Int in
        let table = try String.fetchOne(db, sql: "SELECT name FROM source")!
        return try Int.fetchOne(db, sql: "SELECT IFNULL(SUM(value), 0) FROM \(table)")!
      }.handleEvents(willTrackRegion: { region in regions.update { $0.append(region.description) } })
      let scheduler: any ValueObservationScheduler =
        immediate ? anyImmediate : .async(onQueue: DispatchQueue(label: "Sealite.tests.region"))
      let cancellable = observation.start(in: dbQueue, scheduling: scheduler) { _ in
      } onChange: { value in
        values.update { $0.append(value) }
      }
      try await dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "INSERT INTO a VALUES (1)")  // 1
        try db.execute(sql: "INSERT INTO b VALUES (1)")  // not read
        try db.execute(sql: "INSERT INTO b VALUES (1)")  // not read
        try db.execute(sql: "UPDATE source SET name = 'b'")  // 2
        try db.execute(sql: "INSERT INTO a VALUES (1)")  // no longer read
        try db.execute(sql: "INSERT INTO b VALUES (1)")  // 3
      }
      #expect(await eventually { values.value.last == 3 })
      #expect(values.value == [0, 1, 2, 3])
      #expect(regions.value == ["a(value),source(name)", "b(value),source(name)"])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "on a pool, tracking { } fetches each change on the writer before the write returns: one value per commit, as GRDB's"
    )
    func poolFetchesChangesOnWriter() async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let dbPool = try DatabasePool(path: directory.path())
      try await dbPool.write { db in
        try db.execute(sql: "CREATE TABLE counter(value INTEGER); INSERT INTO counter VALUES (0)")
      }
      let fetched = Shared<[Int]>([])
      let values = Shared<[Int]>([])
      let observation = ValueObservation.tracking { db -> Int in
        let value = try Int.fetchOne(db, sql: "SELECT value FROM counter")!
        fetched.update { $0.append(value) }
        return value
      }
      let cancellable = observation.start(
        in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "Sealite.tests.pool-region"))
      ) { _ in
      } onChange: { value in
        values.update { $0.append(value) }
      }
      #expect(await eventually { values.value == [0] })
      for value in 1...50 {
        try await dbPool.write { db in
          try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value])
        }
        // The value of this very commit, fetched in the writer's access that
        // committed it (a fetch on a reader would still be on its way).
        #expect(fetched.value.last == value)
      }
      #expect(await eventually { values.value.count == 51 })
      #expect(values.value == Array(0...50))
      withExtendedLifetime(cancellable) {}
    }

    @Test("the schema queries a request makes (table_xinfo) are not part of the tracked region")
    func pragmaTablesAreNotTracked() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
      }
      let regions = Shared<[String]>([])
      let request = T.filter(key: 1).asRequest(of: Row.self)
      let observation = ValueObservation.trackingConstantRegion { db in _ = try request.fetchAll(db) }
        .handleEvents(willTrackRegion: { region in regions.update { $0.append(region.description) } })
      let cancellable = observation.start(in: dbQueue, scheduling: anyImmediate) { _ in
      } onChange: { _ in
      }
      #expect(regions.value == ["t(id,name)[1]"])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "a fetch that includes to-many rows tracks their table before any origin row exists, so that the first children notify",
      arguments: [true, false])
    func prefetchedTablesAreTrackedWithoutOriginRows(_ fetchOne: Bool) async throws {
      let dbQueue = try await makeParentsAndChildren()
      let request = Parent.including(all: Parent.children.order(Column("id"))).order(Column("id"))
        .asRequest(of: Row.self)
      let regions = Shared<[String]>([])
      let observation = ValueObservation.trackingConstantRegion { db -> [[String]] in
        let parents = fetchOne ? try request.fetchOne(db).map { [$0] } ?? [] : try request.fetchAll(db)
        return parents.map { parent in (parent.prefetchedRows["children"] ?? []).map { $0["name"] } }
      }.handleEvents(willTrackRegion: { region in regions.update { $0.append(region.description) } })
      let values = Shared<[[[String]]]>([])
      let cancellable = observation.start(in: dbQueue, scheduling: anyImmediate) { _ in
      } onChange: { value in
        values.update { $0.append(value) }
      }
      try await dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "INSERT INTO parent VALUES (1, 'p')")
        try db.execute(sql: "INSERT INTO child VALUES (1, 1, 'a')")
        try db.execute(sql: "UPDATE child SET name = 'b'")
      }
      #expect(values.value == [[], [[]], [["a"]], [["b"]]])
      #expect(regions.value == ["child(*),parent(id,name)"])
      withExtendedLifetime(cancellable) {}
    }

    @Test("a request that selects no row by definition (none()) tracks no prefetched table")
    func noneTracksNoPrefetchedTable() async throws {
      let dbQueue = try await makeParentsAndChildren()
      let request = Parent.none().including(all: Parent.children).asRequest(of: Row.self)
      let regions = Shared<[String]>([])
      let observation = ValueObservation.trackingConstantRegion { db in try request.fetchAll(db).count }
        .handleEvents(willTrackRegion: { region in regions.update { $0.append(region.description) } })
      let cancellable = observation.start(in: dbQueue, scheduling: anyImmediate) { _ in
      } onChange: { _ in
      }
      #expect(regions.value.count == 1)
      #expect(regions.value.first?.contains("child") == false)
      withExtendedLifetime(cancellable) {}
    }
  }
}
