import Foundation
import Sealite
import Testing

@Suite("Database.registerAccess(to:)")
struct RegisterAccessTests {
  @Test("registerAccess(to:) adds a region to what a value observation tracks")
  func tracksRegisteredRegion() async throws {
    let dbQueue = try DatabaseQueue()
    try await dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE player(id INTEGER PRIMARY KEY); CREATE TABLE team(id INTEGER PRIMARY KEY)")
    }
    // The fetch reads player only, and registers team.
    let observation = ValueObservation.tracking { db -> Int in
      try db.registerAccess(to: Table("team").all())
      return try Table("player").fetchCount(db)
    }
    var values = observation.values(in: dbQueue).makeAsyncIterator()
    #expect(try await values.next() == 0)
    try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
    // A change of team triggers a fresh fetch (the count is still 0).
    #expect(try await values.next() == 0)
    try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
    #expect(try await values.next() == 1)
  }

  @Test("Outside of a tracked fetch, registerAccess(to:) does not evaluate its region")
  func noEvaluationOutsideObservation() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { db in
      var evaluated = false
      func region() -> DatabaseRegion {
        evaluated = true
        return .fullDatabase
      }
      try db.registerAccess(to: region())
      #expect(!evaluated)
    }
  }

  @Test("The region registered in an observation given its region is ignored")
  func explicitRegion() async throws {
    let dbQueue = try DatabaseQueue()
    try await dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE player(id INTEGER PRIMARY KEY); CREATE TABLE team(id INTEGER PRIMARY KEY)")
    }
    let observation = ValueObservation.tracking(region: Table("player").all()) { db -> Int in
      try db.registerAccess(to: Table("team").all())
      return try Table("player").fetchCount(db)
    }
    let log = Locked<[Int]>([])
    let cancellable = observation.start(
      in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "values"))
    ) { error in
      Issue.record(error)
    } onChange: { value in
      log.withLock { $0.append(value) }
    }
    defer { cancellable.cancel() }
    #expect(await eventually { log.value.count >= 1 })
    try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
    try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
    // The team insert triggered nothing: the initial value, then the player change.
    #expect(await eventually { log.value.count >= 2 })
    #expect(log.value.prefix(2) == [0, 1])
  }
}
