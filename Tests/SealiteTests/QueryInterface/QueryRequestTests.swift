import Foundation
import Sealite
import Testing

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Hashable, Identifiable {
  var id: Int64
  var name: String
  var score: Int?
  var team: String
}

/// A value type selected from a request with `as:`.
private struct Summary: Decodable, FetchableRecord, Equatable {
  var team: String
  var playerCount: Int
  var best: Int?
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER, team TEXT NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur', 100, 'red');
        INSERT INTO player VALUES (2, 'Barbara', 200, 'blue');
        INSERT INTO player VALUES (3, 'Craig', NULL, 'red');
        INSERT INTO player VALUES (4, 'Diana', 50, 'blue');
        INSERT INTO player VALUES (5, 'Eric', 200, 'green');
        CREATE TABLE pair (a INTEGER, b INTEGER, label TEXT, PRIMARY KEY (a, b));
        INSERT INTO pair VALUES (1, 1, 'one-one'), (1, 2, 'one-two'), (2, 1, 'two-one');
        CREATE TABLE log (message TEXT);
        INSERT INTO log VALUES ('first'), ('second'), ('third');
        """)
  }
  return dbQueue
}

private let id = Column("id")
private let name = Column("name")
private let score = Column("score")
private let team = Column("team")

@Suite("Query interface requests")
struct QueryRequestTests {
  @Test(
    "fetchCount counts with COUNT(*) when the selection is columns of the table, and wraps the request otherwise"
  )
  func fetchCountSQL() throws {
    struct PlayerWithRowID: TableRecord {
      static let databaseTableName = "player"
      static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
    }
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      func counted(_ request: QueryInterfaceRequest<Row>) throws -> (Int, String?) {
        var count = 0
        let sql = try capturedSQL(db) { count = try request.fetchCount(db) }
        return (count, sql.last)
      }
      #expect(
        try counted(PlayerWithRowID.all().asRequest(of: Row.self)) == (5, #"SELECT COUNT(*) FROM "player""#))
      #expect(
        try counted(Table("player").select(Column("name")).filter(Column("team") == "red"))
          == (2, #"SELECT COUNT(*) FROM "player" WHERE "team" = ?"#))
      // Values that are not columns may aggregate the rows into one, and DISTINCT merges them:
      // a NOT NULL column with COUNT(DISTINCT …), as GRDB counts it.
      #expect(
        try counted(Table("player").select(max(Column("score"))))
          == (1, #"SELECT COUNT(*) FROM (SELECT MAX("score") FROM "player")"#))
      #expect(
        try counted(Table("player").select(Column("team")).distinct())
          == (3, #"SELECT COUNT(DISTINCT "team") FROM "player""#))
    }
  }

  @Test("all() and none()")
  func allAndNone() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.all().fetchCount(db) == 5)
      #expect(try Player.none().fetchAll(db).isEmpty)
      #expect(try Player.all().none().fetchCount(db) == 0)
      #expect(try Player.none().isEmpty(db))
      #expect(try !Player.all().isEmpty(db))
      #expect(try Player.filter(score > 1000).isEmpty(db))
    }
  }

  @Test("filter chains with AND; filter(key:) and filter(keys:) use the primary key")
  func filters() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.filter(team == "red").filter(score != nil).fetchAll(db).map(\.name) == ["Arthur"])
      #expect(try Player.filter(key: 2).fetchOne(db)?.name == "Barbara")
      #expect(try Player.filter(keys: [1, 5]).order(id).fetchAll(db).map(\.name) == ["Arthur", "Eric"])
      #expect(try Player.filter(keys: [Int64]()).fetchCount(db) == 0)
      #expect(try Player.all().filter(key: 3).fetchCount(db) == 1)
      let pairs = Table("pair")
      #expect(try pairs.all().filter(key: ["a": 1, "b": 2]).fetchOne(db)?["label"] == "one-two")
      let both = try pairs.all().filter(keys: [["a": 1, "b": 1], ["a": 2, "b": 1]]).fetchCount(db)
      #expect(both == 2)
      #expect(try Player.filter(sql: "score > ?", arguments: [150]).fetchCount(db) == 2)
    }
  }

  @Test("A table without a primary key is looked up by rowid")
  func rowidKey() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Table("log").all().filter(key: 2).fetchOne(db)?["message"] == "second")
      let reversed = try Table("log").all().reversed().select(Column("message"), as: String.self).fetchAll(db)
      #expect(reversed == ["third", "second", "first"])
    }
  }

  @Test("order: asc, desc, several terms, reversed; an unordered request reversed is by primary key desc")
  func ordering() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.order(name.desc).fetchAll(db).map(\.id) == [5, 4, 3, 2, 1])
      #expect(
        try Player.order(score.desc, name.asc).filter(score != nil).fetchAll(db).map(\.id) == [2, 5, 1, 4])
      #expect(
        try Player.order(score.desc, name).filter(score != nil).reversed().fetchAll(db).map(\.id) == [
          4, 1, 5, 2,
        ])
      #expect(try Player.all().reversed().fetchAll(db).map(\.id) == [5, 4, 3, 2, 1])
      #expect(try Player.order(name).order(id.desc).fetchAll(db).map(\.id) == [5, 4, 3, 2, 1])
      #expect(try Player.all().reversed().reversed().order(id).fetchAll(db).map(\.id) == [1, 2, 3, 4, 5])
    }
  }

  @Test("NULLS FIRST / NULLS LAST orderings, emulated where SQLite lacks them")
  func nullsOrdering() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      // SQLite sorts NULL first ascending, last descending: these orderings flip that.
      #expect(try Player.order(score.ascNullsLast, id).fetchAll(db).map(\.id) == [4, 1, 2, 5, 3])
      #expect(try Player.order(score.descNullsFirst, id).fetchAll(db).map(\.id) == [3, 2, 5, 1, 4])
      #expect(try Player.order(score.ascNullsLast, id).reversed().fetchAll(db).map(\.id) == [3, 5, 2, 1, 4])
      #expect(try Player.order(score.asc, id).fetchAll(db).map(\.id) == [3, 4, 1, 2, 5])
    }
  }

  @Test("limit and offset")
  func limits() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.order(id).limit(2).fetchAll(db).map(\.id) == [1, 2])
      #expect(try Player.order(id).limit(2, offset: 3).fetchAll(db).map(\.id) == [4, 5])
      #expect(try Player.order(id).limit(10, offset: 4).fetchAll(db).map(\.id) == [5])
      #expect(try Player.limit(3).fetchCount(db) == 3)
    }
  }

  @Test("select columns and expressions, as a value type or a record type")
  func selection() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(
        try Player.select(name, as: String.self).order(id).fetchAll(db) == [
          "Arthur", "Barbara", "Craig", "Diana", "Eric",
        ])
      #expect(try Player.select(max(score), as: Int.self).fetchOne(db) == 200)
      #expect(try Player.select(score, as: Int?.self).order(id).fetchAll(db) == [100, 200, nil, 50, 200])
      let rows = try Player.select(name, score + 1).filter(key: 1).asRequest(of: Row.self).fetchAll(db)
      #expect(rows.first?[1] == 101)
      #expect(try Player.select(sql: "upper(name)", as: String.self).filter(key: 1).fetchOne(db) == "ARTHUR")
      #expect(
        try Player.all().select(literal: "\(score) * \(3)", as: Int.self).filter(key: 1).fetchOne(db) == 300)
    }
  }

  @Test("distinct, fetchSet, and fetchCount of a distinct request")
  func distinct() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let teams = Player.select(team, as: String.self).distinct()
      #expect(try teams.fetchCount(db) == 3)
      #expect(try Set(teams.fetchAll(db)) == ["red", "blue", "green"])
      #expect(try teams.fetchSet(db) == ["red", "blue", "green"])
      #expect(try Player.select(score, as: Int?.self).distinct().fetchCount(db) == 4)
      #expect(try Player.fetchSet(db).count == 5)
    }
  }

  @Test("group and having; fetchCount counts groups")
  func grouping() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request =
        Player
        .select(team, count(id).forKey("playerCount"), max(score).forKey("best"))
        .group(team)
        .having(count(id) >= 2)
        .order(team)
        .asRequest(of: Summary.self)
      #expect(
        try request.fetchAll(db) == [
          Summary(team: "blue", playerCount: 2, best: 200), Summary(team: "red", playerCount: 2, best: 100),
        ])
      #expect(try request.fetchCount(db) == 2)
      #expect(try Player.group(team).fetchCount(db) == 3)
      let withSum = Player.select(team, as: String.self).group(team).having(sum(score) > 100)
      #expect(try Set(withSum.fetchAll(db)) == ["blue", "green"])
    }
  }

  @Test("fetchCount with filters and limits counts what fetchAll returns")
  func fetchCount() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.fetchCount(db) == 5)
      #expect(try Player.filter(team == "red").fetchCount(db) == 2)
      #expect(try Player.order(id).limit(2, offset: 4).fetchCount(db) == 1)
      #expect(try Player.select(score, as: Int?.self).fetchCount(db) == 5)
    }
  }

  @Test("fetchOne, fetchAll, fetchSet, fetchCursor of records, rows and values")
  func fetchKinds() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request = Player.filter(team == "blue").order(id)
      #expect(try request.fetchOne(db)?.name == "Barbara")
      #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diana"])
      #expect(try request.fetchSet(db).count == 2)
      let cursor = try request.fetchCursor(db)
      var names: [String] = []
      while let player = try cursor.next() { names.append(player.name) }
      #expect(names == ["Barbara", "Diana"])
      let rows = try request.asRequest(of: Row.self).fetchAll(db)
      #expect(rows.map { $0["name"] as String } == ["Barbara", "Diana"])
      let values = try request.select(name, as: String.self).fetchCursor(db)
      #expect(try Array(values) == ["Barbara", "Diana"])
    }
  }

  @Test("deleteAll and updateAll act on the rows a request selects")
  func batchChanges() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      #expect(try Player.filter(team == "red").updateAll(db, score.set(to: 0)) == 2)
      // swift-format-ignore: NoAssignmentInExpressions
      #expect(try Player.filter(key: 2).updateAll(db, score += 5) == 1)
      // swift-format-ignore: NoAssignmentInExpressions
      #expect(try Player.filter(key: 4).updateAll(db, score -= 10, name.set(to: "Di")) == 1)
      // swift-format-ignore: NoAssignmentInExpressions
      #expect(try Player.filter(key: 5).updateAll(db, score *= 2) == 1)
      #expect(try Player.filter(key: 1).updateAll(db, score.set(to: DatabaseValue.null)) == 1)
      #expect(try Player.order(id).select(score, as: Int?.self).fetchAll(db) == [nil, 205, 0, 40, 400])
      #expect(try Player.fetchOne(db, key: 4)?.name == "Di")
      #expect(try Player.updateAll(db, score.set(to: 1)) == 5)
      #expect(try Player.order(id.desc).limit(2).deleteAll(db) == 2)
      #expect(try Player.order(id).fetchAll(db).map(\.id) == [1, 2, 3])
      #expect(try Player.filter(team == "red").deleteAll(db) == 2)
      #expect(try Player.none().deleteAll(db) == 0)
      #expect(try Player.deleteAll(db) == 1)
      #expect(try Player.fetchCount(db) == 0)
    }
  }

  @Test("asRequest(of:) and annotated(with:)")
  func annotated() throws {
    struct Annotated: Decodable, FetchableRecord {
      var id: Int64
      var name: String
      var doubled: Int?
    }
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request = Player.annotated(with: (score * 2).forKey("doubled")).order(id).asRequest(
        of: Annotated.self)
      let first = try #require(try request.fetchOne(db))
      #expect(first.name == "Arthur")
      #expect(first.doubled == 200)
      #expect(try request.fetchAll(db).map(\.doubled) == [200, 400, nil, 100, 400])
      let names = try Player.all().order(id).annotated(with: name.uppercased.forKey("upper"))
        .asRequest(of: Row.self).fetchAll(db).map { $0["upper"] as String }
      #expect(names.first == "ARTHUR")
    }
  }

  @Test("Table(\"name\") and Table<Record>(\"name\") build requests for tables without a record type")
  func tables() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let players = Table("player")
      #expect(try players.fetchCount(db) == 5)
      #expect(try players.filter(team == "red").fetchCount(db) == 2)
      #expect(try players.order(name.desc).limit(1).fetchOne(db)?["name"] == "Eric")
      #expect(try players.select(name, as: String.self).order(name).fetchAll(db).first == "Arthur")
      #expect(try players.none().fetchCount(db) == 0)
      #expect(try !players.isEmpty(db))
      #expect(try players.all().reversed().fetchOne(db)?["id"] == 5)
      let typed = Table<Player>("player")
      #expect(try typed.filter(score > 100).order(id).fetchAll(db).map(\.name) == ["Barbara", "Eric"])
      #expect(try typed.all().filter(id: 3).fetchOne(db)?.name == "Craig")
      #expect(try players.all().filter(key: 1).updateAll(db, score.set(to: 1)) == 1)
      #expect(try players.filter(team == "green").deleteAll(db) == 1)
      // swift-format-ignore: NoAssignmentInExpressions
      #expect(try players.updateAll(db, score += 1) == 4)
      #expect(try players.deleteAll(db) == 4)
    }
  }

  @Test("Requests are values: a request can be refined without changing the original")
  func requestsAreValues() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let red = Player.filter(team == "red")
      let redWithScore = red.filter(score != nil)
      #expect(try red.fetchCount(db) == 2)
      #expect(try redWithScore.fetchCount(db) == 1)
    }
  }
}
