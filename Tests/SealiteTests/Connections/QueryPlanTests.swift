import Foundation
import Sealite
import Testing

@Suite("EXPLAIN QUERY PLAN")
struct QueryPlanTests {
  private func makeSchema(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT, score INT);
        CREATE INDEX player_email ON player(email);
        INSERT INTO player (email, score) VALUES ('a@example.com', 1), ('b@example.com', 2);
        """)
  }

  @Test("a lookup on an indexed column uses the index, on a queue and on a pool", arguments: [false, true])
  func indexedLookup(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer: any DatabaseWriter =
      pool
      ? try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
      : try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try writer.write { db in try makeSchema(db) }
    let plan = try writer.read { db in
      try db.explainQueryPlan(sql: "SELECT * FROM player WHERE email = ?", arguments: ["a@example.com"])
    }
    #expect(plan.usesIndex("player_email"))
    #expect(!plan.steps.isEmpty)
    #expect(plan.rows.count == plan.steps.count)
    #expect(plan.description.contains("player_email"))
  }

  @Test("a full scan uses no index")
  func fullScan() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in try makeSchema(db) }
    let plan = try queue.read { db in try db.explainQueryPlan(sql: "SELECT * FROM player WHERE score > 1") }
    #expect(!plan.usesIndex("player_email"))
    #expect(plan.steps.contains { $0.detail.hasPrefix("SCAN") })
    #expect(plan.steps.allSatisfy { !$0.detail.isEmpty })
  }

  @Test("explaining a statement does not run it")
  func explainDoesNotRun() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in try makeSchema(db) }
    let plan = try queue.write { db in
      try db.explainQueryPlan(sql: "DELETE FROM player WHERE email = ?", arguments: ["a@example.com"])
    }
    #expect(plan.usesIndex("player_email"))
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
  }

  @Test("the plan of a query with a subquery lists a step for each table")
  func subqueryPlan() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try makeSchema(db)
      try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT)")
    }
    let plan = try queue.read { db in
      try db.explainQueryPlan(
        sql: "SELECT * FROM team WHERE id IN (SELECT score FROM player WHERE email = 'a@example.com')")
    }
    #expect(plan.steps.contains { $0.detail.contains("team") })
    #expect(plan.usesIndex("player_email"))
    #expect(plan.steps.count >= 2)
  }

  @Test("invalid SQL or wrong arguments throw")
  func invalidSQL() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in try makeSchema(db) }
    let error = #expect(throws: DatabaseError.self) {
      try queue.read { db in try db.explainQueryPlan(sql: "SELECT * FROM nowhere") }
    }
    #expect(error?.message?.contains("nowhere") == true)
    #expect(throws: DatabaseError.self) {
      try queue.read { db in try db.explainQueryPlan(sql: "SELECT * FROM player WHERE id = ?", arguments: [])
      }
    }
  }
}
