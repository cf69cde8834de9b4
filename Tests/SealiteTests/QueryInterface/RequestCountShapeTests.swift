import Foundation
import Sealite
import Testing

// fetchCount finds the SQL of its COUNT(*) by the shape of the counting
// request, as fetches do: these tests show that the counts follow the values
// of each call, that the SQL is GRDB's, and that the statement follows the
// schema. isEmpty asks `SELECT EXISTS (…)`, as GRDB does.

private typealias Book = ShapeTestBook

@Suite("fetchCount found by its shape, and isEmpty")
struct RequestCountShapeTests {
  @Test("counts follow the values of each call, with one COUNT(*) statement as GRDB writes it")
  func countsFollowValues() throws {
    try withShapeTestBooks { db in
      var counts: [Int] = []
      var empties: [Bool] = []
      let statements = try capturedSQL(db) {
        for id in [0, 1, 2, 3] {
          counts.append(try Book.filter(Column("id") > id).fetchCount(db))
          empties.append(try Book.filter(Column("id") > id).isEmpty(db))
        }
      }
      #expect(counts == [3, 2, 1, 0])
      #expect(empties == [false, false, false, true])
      // isEmpty asks whether a row exists, as GRDB asks it: SQLite stops at
      // the first row.
      #expect(
        Set(statements) == [
          "SELECT COUNT(*) FROM \"book\" WHERE \"id\" > ?",
          "SELECT EXISTS (SELECT * FROM \"book\" WHERE \"id\" > ?)",
        ], "\(statements)")
      #expect(statements.count == 8)
    }
  }

  @Test(
    "filters built when the request runs are counted with their values: filter(key:), filter(id:), filter(keys:)"
  )
  func deferredFilters() throws {
    try withShapeTestBooks { db throws in
      #expect(try [1, 2, 4].map { try Book.filter(key: $0).fetchCount(db) } == [1, 1, 0])
      #expect(try Book.filter(id: 3).fetchCount(db) == 1)
      #expect(try Book.filter(id: 5).isEmpty(db))
      #expect(try Book.filter(keys: [1, 3, 7]).fetchCount(db) == 2)
      #expect(try Book.filter(keys: [2]).fetchCount(db) == 1)
      // The same shapes with a title filter on top.
      #expect(try Book.filter(key: 1).filter(Column("title") == "Emma").fetchCount(db) == 1)
      #expect(try Book.filter(key: 1).filter(Column("title") == "Sanditon").fetchCount(db) == 0)
    }
  }

  @Test("a count after the table was made again counts the new table's rows")
  func countFollowsTheSchema() throws {
    try withShapeTestBooks { db in
      let request = Book.filter(Column("title") != "")
      #expect(try request.fetchCount(db) == 3)
      try db.execute(sql: "DROP TABLE book")
      try db.execute(sql: "CREATE TABLE book (title TEXT NOT NULL, id INTEGER PRIMARY KEY)")
      try db.execute(sql: "INSERT INTO book (title, id) VALUES ('Lady Susan', 9)")
      #expect(try request.fetchCount(db) == 1)
      #expect(try Book.filter(key: 9).fetchCount(db) == 1)
    }
  }

  @Test("counts of distinct, grouped, limited and aggregated requests count what they select")
  func nonTrivialCounts() throws {
    try withShapeTestBooks { db in
      try Book(id: 4, title: "Emma").insert(db)
      #expect(try Book.select(Column("title")).distinct().fetchCount(db) == 3)
      #expect(try Book.group(Column("title")).fetchCount(db) == 3)
      #expect(try Book.limit(2).fetchCount(db) == 2)
      #expect(try Book.filter(Column("title") == "Emma").fetchCount(db) == 2)
      #expect(try Book.filter(Column("title") == "Persuasion").fetchCount(db) == 1)
    }
  }
}

@Suite("Requests found by their shape, with values that are not equal to themselves")
struct RequestShapeNaNTests {
  @Test("a NaN value (bound as NULL) counts and fetches as its rendering does, call after call")
  func nanValues() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v REAL)")
      try db.execute(sql: "INSERT INTO t (id, v) VALUES (1, NULL), (2, 1.5)")
      for _ in 0..<2 {
        #expect(try Table("t").filter(Column("v") == Double.nan).fetchCount(db) == 0)
        #expect(try Table("t").filter(Column("v") === Double.nan).fetchCount(db) == 1)
        #expect(try Table("t").filter(Column("v") === Double.nan).fetchAll(db).map { $0["id"] as Int } == [1])
        #expect(try Table("t").filter(Column("v") == 1.5).fetchCount(db) == 1)
      }
    }
  }
}
