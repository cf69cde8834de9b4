import Foundation
import Sealite
import Testing

// deleteAll and updateAll find the SQL of their DELETE and UPDATE by the
// request's shape, as fetches do: these tests show that each call writes the
// rows of its own values, with the SQL GRDB writes, and that writes of other
// shapes (another conflict resolution, an empty request, a limited one) and
// a table made again each get their own statement.

@Suite("deleteAll and updateAll found by their shape")
struct RequestWriteShapeTests {
  private struct Item: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "item"
    var id: Int64
    var name: String
    var score: Int
  }

  /// Runs `body` in a write of an in-memory queue whose `item` table holds
  /// items 1…6, named n1…n6, scored 10…60; names are unique.
  private func withItems(_ body: (Database) throws -> Void) throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT UNIQUE, score INTEGER)")
      for id in 1...6 { try Item(id: Int64(id), name: "n\(id)", score: id * 10).insert(db) }
      try body(db)
    }
  }

  private func scores(_ db: Database) throws -> [Int] {
    try Int.fetchAll(db, sql: "SELECT score FROM item ORDER BY id")
  }

  @Test("updateAll writes each call's values, with one UPDATE as GRDB writes it")
  func updateFollowsValues() throws {
    try withItems { db in
      var changes: [Int] = []
      let statements = try capturedSQL(db) {
        for (id, score) in [(1, 11), (3, 33), (9, 99), (6, 66)] {
          changes.append(try Item.filter(Column("id") == id).updateAll(db, Column("score").set(to: score)))
        }
      }
      #expect(changes == [1, 1, 0, 1])
      #expect(try scores(db) == [11, 20, 33, 40, 50, 66])
      // Besides, the first call asks once whether "item" is a table (a view
      // counts its changes otherwise): the answer is kept.
      let writes = statements.filter { !$0.contains("sqlite_master") }
      #expect(statements.count - writes.count == 1, "\(statements)")
      #expect(Set(writes) == ["UPDATE \"item\" SET \"score\" = ? WHERE \"id\" = ?"], "\(statements)")
      #expect(writes.count == 4)
    }
  }

  @Test("the values of the assignments and of the conditions each go to their own place")
  func valuesInTheirPlaces() throws {
    try withItems { db throws in
      for (factor, bonus, low, high) in [(2, 1, 1, 2), (3, 100, 4, 5), (1, 1_000, 2, 2)] {
        let changed = try Item.filter(Column("id") >= low && Column("id") <= high)
          .updateAll(db, Column("score").set(to: Column("score") * factor + bonus))
        #expect(changed == high - low + 1)
      }
      #expect(try scores(db) == [21, 1_041, 30, 220, 250, 60])
    }
  }

  @Test("deleteAll deletes the rows of each call's values, with one DELETE as GRDB writes it")
  func deleteFollowsValues() throws {
    try withItems { db in
      var changes: [Int] = []
      let statements = try capturedSQL(db) {
        for low in [5, 9, 3] {
          changes.append(try Item.filter(Column("id") > low).deleteAll(db))
        }
      }
      #expect(changes == [1, 0, 2])
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM item ORDER BY id") == [1, 2, 3])
      let writes = statements.filter { !$0.contains("sqlite_master") }
      #expect(statements.count - writes.count == 1, "\(statements)")
      #expect(Set(writes) == ["DELETE FROM \"item\" WHERE \"id\" > ?"], "\(statements)")
      #expect(writes.count == 3)
    }
  }

  @Test(
    "filters built when the request runs write the rows of their keys: filter(key:), filter(id:), filter(keys:)"
  )
  func deferredFilters() throws {
    try withItems { db throws in
      #expect(
        try [1, 2, 9].map { try Item.filter(key: $0).updateAll(db, Column("score").set(to: 0)) } == [1, 1, 0])
      #expect(try Item.filter(id: 3).updateAll(db, Column("score").set(to: 3)) == 1)
      #expect(try scores(db) == [0, 0, 3, 40, 50, 60])
      #expect(try Item.filter(keys: [4, 5, 7]).deleteAll(db) == 2)
      #expect(try Item.deleteAll(db, keys: [1]) == 1)
      #expect(try Item.filter(key: 6).deleteAll(db) == 1)
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM item ORDER BY id") == [2, 3])
    }
  }

  @Test("another conflict resolution is another statement: OR IGNORE skips the row the default refuses")
  func conflictResolutions() throws {
    try withItems { db in
      for _ in 0..<2 {
        #expect(throws: DatabaseError.self) {
          try Item.filter(Column("id") == 1).updateAll(db, Column("name").set(to: "n2"))
        }
        let ignored = try Item.filter(Column("id") == 1).updateAll(
          db, onConflict: .ignore, Column("name").set(to: "n2"))
        #expect(ignored == 0)
        #expect(try Item.filter(Column("id") == 1).updateAll(db, Column("name").set(to: "m1")) == 1)
        #expect(try Item.filter(Column("id") == 1).updateAll(db, Column("name").set(to: "n1")) == 1)
      }
      #expect(try String.fetchOne(db, sql: "SELECT name FROM item WHERE id = 1") == "n1")
    }
  }

  @Test("an empty request, a limited one and a kept column write as their own statements")
  func otherShapes() throws {
    try withItems { db throws in
      #expect(try Item.filter(Column("id") > 0).none().updateAll(db, Column("score").set(to: 0)) == 0)
      #expect(try Item.filter(Column("id") > 0).none().deleteAll(db) == 0)
      #expect(try Item.filter(Column("id") > 4).updateAll(db, Column("score").set(to: 0)) == 2)
      #expect(try Item.filter(Column("id") > 4).order(Column("id")).limit(1).deleteAll(db) == 1)
      #expect(try Item.filter(Column("id") > 1).order(Column("id").desc).limit(2).deleteAll(db) == 2)
      let assignments = [Column("name").noOverwrite, Column("score").set(to: Column("score") + 1)]
      #expect(try Item.filter(Column("id") > 0).updateAll(db, assignments) == 3)
      #expect(try scores(db) == [11, 21, 31])
      #expect(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") == ["n1", "n2", "n3"])
    }
  }

  @Test("a write after the table was made again writes the new table")
  func writeFollowsTheSchema() throws {
    try withItems { db in
      #expect(try Item.filter(Column("name") == "n2").updateAll(db, Column("score").set(to: 2)) == 1)
      try db.execute(sql: "DROP TABLE item")
      try db.execute(sql: "CREATE TABLE item (score INTEGER, name TEXT, id INTEGER PRIMARY KEY)")
      try db.execute(sql: "INSERT INTO item (score, name, id) VALUES (7, 'n2', 8), (9, 'n4', 9)")
      #expect(try Item.filter(Column("name") == "n2").updateAll(db, Column("score").set(to: 2)) == 1)
      #expect(try Item.filter(Column("name") == "n4").deleteAll(db) == 1)
      #expect(try Row.fetchAll(db, sql: "SELECT * FROM item") == [["score": 2, "name": "n2", "id": 8]])
    }
  }
}
