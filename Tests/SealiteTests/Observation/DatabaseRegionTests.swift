import Foundation
import Testing

// @testable: regions with rowids and their containment are internal to observation.
@testable import Sealite

private func makeQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(sql: observationSchema)
    try db.execute(
      sql: "CREATE VIEW redPlayer AS SELECT player.name FROM player JOIN team ON team.id = teamId")
  }
  return dbQueue
}

private func update(_ table: String, _ columns: Set<String>) -> DatabaseEventKind {
  .update(tableName: table, columnNames: columns)
}

private func row(_ table: String, _ rowID: Int64, _ kind: DatabaseEvent.Kind = .update) -> DatabaseEvent {
  DatabaseEvent(kind: kind, tableName: table, rowID: rowID)
}

extension ObservationTests {
  @Suite("Database regions")
  struct DatabaseRegionTests {
    @Test("a table's region is every column and every row of that table, and nothing else")
    func tableRegion() throws {
      let dbQueue = try makeQueue()
      let region = try dbQueue.read { db in try Table("player").databaseRegion(db) }
      #expect(region.description == "player(*)")
      #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
      #expect(region.isModified(byEventsOfKind: .delete(tableName: "PLAYER")))
      #expect(region.isModified(byEventsOfKind: update("player", ["score"])))
      #expect(region.isModified(by: row("player", 123)))
      #expect(!region.isModified(byEventsOfKind: .insert(tableName: "team")))
      // A row change outside of the region is one its statement did not
      // announce (a full-text table's shadow table): it counts, as in GRDB.
      #expect(region.isModified(by: row("team", 1)))
      #expect(DatabaseRegion(table: "player") == region)
    }

    @Test("a request's region holds the columns it reads: updates of other columns do not modify it")
    func columnRegion() throws {
      let dbQueue = try makeQueue()
      let region = try dbQueue.read { db in
        try ObservedPlayer.select(Column("name")).filter(Column("teamId") == 1).databaseRegion(db)
      }
      #expect(region.isModified(byEventsOfKind: update("player", ["name"])))
      #expect(region.isModified(byEventsOfKind: update("player", ["teamid"])))
      #expect(region.isModified(byEventsOfKind: update("player", ["score", "name"])))
      #expect(!region.isModified(byEventsOfKind: update("player", ["score"])))
      #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
      #expect(region.isModified(byEventsOfKind: .delete(tableName: "player")))
    }

    @Test("the region of filter(key:), filter(keys:) and filter(id:) is restricted to those rowids")
    func rowIDRegion() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        let one = try ObservedPlayer.filter(key: 1).databaseRegion(db)
        #expect(one.isModified(by: row("player", 1)))
        #expect(!one.isModified(by: row("player", 2)))
        #expect(one.isModified(byEventsOfKind: .insert(tableName: "player")))

        let some = try ObservedPlayer.filter(keys: [1, 3]).databaseRegion(db)
        #expect(some.isModified(by: row("player", 1, .delete)))
        #expect(some.isModified(by: row("player", 3)))
        #expect(!some.isModified(by: row("player", 2)))

        let identified = try ObservedPlayer.filter(id: 2).databaseRegion(db)
        #expect(identified.isModified(by: row("player", 2)))
        #expect(!identified.isModified(by: row("player", 1)))

        // Other filters, and non-integer keys, cover every row.
        let named = try ObservedPlayer.filter(Column("name") == "Arthur").databaseRegion(db)
        #expect(named.isModified(by: row("player", 2)))
        let textKey = try ObservedPlayer.filter(key: "1").databaseRegion(db)
        #expect(textKey.isModified(by: row("player", 2)))
      }
    }

    @Test("a filter on the rowid written as an expression restricts the region as filter(key:) does")
    func rowIDRegionFromExpressions() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        func rowIDs(_ request: QueryInterfaceRequest<ObservedPlayer>) throws -> [Int64]? {
          let region = try request.databaseRegion(db)
          let touched = (1...4).filter { region.isModified(by: row("player", Int64($0))) }.map { Int64($0) }
          return touched.count == 4 ? nil : touched
        }
        let byExpression = try ObservedPlayer.filter(Column("id") == 1).databaseRegion(db)
        let byKey = try ObservedPlayer.filter(key: 1).databaseRegion(db)
        #expect(byExpression.description == byKey.description)
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") == 1)) == [1])
        #expect(try rowIDs(ObservedPlayer.filter(1 == Column("id"))) == [1])
        #expect(try rowIDs(ObservedPlayer.filter(Column.rowID == 2)) == [2])
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") == 1 || Column("id") == 3)) == [1, 3])
        #expect(try rowIDs(ObservedPlayer.filter([1, 3].contains(Column("id")))) == [1, 3])
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") == 1 && Column("score") > 0)) == [1])
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") == 1).filter(Column("id") == 2)) == [])
        #expect(try rowIDs(ObservedPlayer.filter(keys: [1, 2, 3]).filter(Column("id") != 2)) == [1, 2, 3])
        // Filters that may select any row keep the whole table.
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") > 1)) == nil)
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") == 1 || Column("score") > 0)) == nil)
        #expect(try rowIDs(ObservedPlayer.filter(Column("id") == "1")) == nil)
        #expect(try rowIDs(ObservedPlayer.filter(Column("teamId") == 1)) == nil)
        #expect(try rowIDs(ObservedPlayer.all()) == nil)
      }
    }

    @Test("the rowid restriction of a request belongs to its run, not to the statement it shares")
    func restrictionBelongsToTheRun() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        let prepared = try ObservedPlayer.filter(key: 1).makePreparedRequest(db, forSingleResult: false)
        // The cached statement the request prepared, run again with another key.
        var region = DatabaseRegion()
        _ = try db.recordingSelection(&region) {
          try Row.fetchAll(db, sql: prepared.statement.sql, arguments: [2])
        }
        #expect(region.isModified(by: row("player", 2)))
        #expect(prepared.statement.databaseRegion.isModified(by: row("player", 2)))

        // Values and records fetched by a restricted request observe its rows only.
        var values = DatabaseRegion()
        _ = try db.recordingSelection(&values) {
          try ObservedPlayer.filter(key: 1).select(Column("name"), as: String.self).fetchOne(db)
        }
        #expect(values.isModified(by: row("player", 1)))
        #expect(!values.isModified(by: row("player", 2)))
        var records = DatabaseRegion()
        _ = try db.recordingSelection(&records) { try ObservedPlayer.filter(Column("id") == 3).fetchAll(db) }
        #expect(records.isModified(by: row("player", 3)))
        #expect(!records.isModified(by: row("player", 1)))
      }
    }

    @Test(
      "a fetch derives its rowid restriction only for a region: recorded, asked of the request, or of a wrapper"
    )
    func restrictionOnlyWhereARegionIsMade() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        // A plain fetch has no region to narrow.
        let plain = try ObservedPlayer.filter(key: 1).makePreparedRequest(db, forSingleResult: false)
        #expect(plain.restriction == nil)
        // Inside a recorded selection, the run is restricted to its rowid.
        var recorded = DatabaseRegion()
        let prepared = try db.recordingSelection(&recorded) {
          try ObservedPlayer.filter(key: 1).makePreparedRequest(db, forSingleResult: false)
        }
        #expect(prepared.restriction?.rowIDs == [1])
        // The region of a request, and of a request wrapped in another one
        // (whose region is the one of its prepared request), are restricted.
        let adapted = ObservedPlayer.filter(key: 2).adapted { _ in SuffixRowAdapter(fromIndex: 0) }
        for region in [try ObservedPlayer.filter(key: 2).databaseRegion(db), try adapted.databaseRegion(db)] {
          #expect(region.isModified(by: row("player", 2)))
          #expect(!region.isModified(by: row("player", 1)))
        }
        // Asking for a region leaves later fetches unrestricted.
        let after = try ObservedPlayer.filter(key: 1).makePreparedRequest(db, forSingleResult: false)
        #expect(after.restriction == nil)
      }
    }

    @Test("the union of regions merges their tables, columns and rowids")
    func union() throws {
      let nameOfOne = DatabaseRegion(table: "player", columns: ["name"], rowIDs: [1])
      let scoreOfTwo = DatabaseRegion(table: "Player", columns: ["score"], rowIDs: [2])
      let players = nameOfOne.union(scoreOfTwo)
      #expect(players.description == "player(name,score)[1,2]")
      #expect(players.isModified(byEventsOfKind: update("player", ["score"])))
      #expect(!players.isModified(byEventsOfKind: update("player", ["teamid"])))
      #expect(players.isModified(by: row("player", 2)))
      #expect(!players.isModified(by: row("player", 3)))

      var both = players
      both.formUnion(DatabaseRegion(table: "team"))
      #expect(both.description == "player(name,score)[1,2],team(*)")
      #expect(both.isModified(by: row("team", 99)))

      // A region without rowids or columns wins over restricted ones.
      let wholePlayer = players.union(DatabaseRegion(table: "player"))
      #expect(wholePlayer.description == "player(*)")
      #expect(wholePlayer.isModified(by: row("player", 3)))

      #expect(players.union(DatabaseRegion()) == players)
      #expect(players.union(.fullDatabase).isFullDatabase)
    }

    @Test(".fullDatabase is modified by every change, the empty region by none")
    func fullAndEmpty() {
      let full = DatabaseRegion.fullDatabase
      #expect(full.isFullDatabase)
      #expect(!full.isEmpty)
      #expect(full.isModified(byEventsOfKind: .insert(tableName: "anything")))
      #expect(full.isModified(byEventsOfKind: update("anything", ["a"])))
      #expect(full.isModified(by: row("anything", 1)))
      #expect(full.description == "full database")

      let empty = DatabaseRegion()
      #expect(empty.isEmpty)
      #expect(!empty.isFullDatabase)
      #expect(!empty.isModified(byEventsOfKind: .insert(tableName: "player")))
      #expect(empty.description == "empty")
    }

    @Test("the region of a fetch closure is recorded with the authorizer, views and joins included")
    func recordingSelection() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        var region = DatabaseRegion()
        let names = try db.recordingSelection(&region) {
          try String.fetchAll(db, sql: "SELECT name FROM team")
        }
        #expect(names.isEmpty)
        #expect(region.isModified(byEventsOfKind: update("team", ["name"])))
        #expect(!region.isModified(byEventsOfKind: update("team", ["color"])))
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "player")))

        // Nested recordings add to the outer one; a view reads its tables.
        var outer = DatabaseRegion()
        var inner = DatabaseRegion()
        try db.recordingSelection(&outer) {
          _ = try ObservedPlayer.fetchAll(db)
          try db.recordingSelection(&inner) {
            _ = try Row.fetchAll(db, sql: "SELECT * FROM redPlayer")
          }
        }
        #expect(inner.isModified(byEventsOfKind: update("team", ["id"])))
        #expect(inner.isModified(byEventsOfKind: update("player", ["name"])))
        #expect(!inner.isModified(byEventsOfKind: update("player", ["score"])))
        #expect(outer.isModified(byEventsOfKind: update("player", ["score"])))
        #expect(outer.contains(inner))
      }
    }

    @Test("the region of an SQL request and of a statement is what they read")
    func sqlRequestRegion() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        let request = SQLRequest<Row>(sql: "SELECT name FROM player WHERE score > ?", arguments: [10])
        let region = try request.databaseRegion(db)
        #expect(region.isModified(byEventsOfKind: update("player", ["score"])))
        #expect(!region.isModified(byEventsOfKind: update("player", ["teamid"])))
        let statement = try db.makeStatement(sql: "SELECT color FROM team")
        #expect(statement.databaseRegion.isModified(byEventsOfKind: update("team", ["color"])))
        #expect(!statement.databaseRegion.isModified(byEventsOfKind: update("team", ["name"])))
      }
    }

    @Test(
      "requests that read no column, like COUNT(*), observe their table",
      arguments: [
        "SELECT COUNT(*) FROM player",
        "SELECT 1 FROM player LIMIT 1",
        "SELECT EXISTS (SELECT * FROM player WHERE id = 1)",
      ])
    func countRegion(_ sql: String) throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        var region = DatabaseRegion()
        _ = try db.recordingSelection(&region) { try Row.fetchAll(db, sql: sql) }
        #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
        #expect(region.isModified(byEventsOfKind: .delete(tableName: "player")))
        #expect(region.isModified(byEventsOfKind: update("player", ["id"])))
        #expect(region.isModified(by: row("player", 1)))
      }
    }

    @Test("the region of fetchCount observes the table")
    func fetchCountRegion() throws {
      let dbQueue = try makeQueue()
      try dbQueue.read { db in
        var region = DatabaseRegion()
        _ = try db.recordingSelection(&region) { try ObservedPlayer.fetchCount(db) }
        #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
        var tableRegion = DatabaseRegion()
        _ = try db.recordingSelection(&tableRegion) {
          try Table("team").filter(Column("id") > 0).fetchCount(db)
        }
        #expect(tableRegion.isModified(byEventsOfKind: .insert(tableName: "team")))
      }
    }
  }
}
