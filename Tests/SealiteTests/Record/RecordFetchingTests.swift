import Foundation
import Sealite
import Testing

// MARK: - Record types of this file

/// A record built by hand from a row (no Codable).
private struct RowPlayer: FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "player"
  var id: Int64
  var name: String
  var score: Int?

  init(id: Int64, name: String, score: Int?) {
    self.id = id
    self.name = name
    self.score = score
  }

  init(row: Row) throws {
    id = row["id"]
    name = row["name"]
    score = row["score"]
  }
}

/// A Decodable record, fetched through the default table name "player".
private struct Player: Decodable, FetchableRecord, TableRecord, Identifiable, Hashable {
  var id: Int64
  var name: String
  var score: Int?
}

/// A record whose default selection is narrower than the table.
private struct PlayerName: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "player"
  static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
  var id: Int64
  var name: String
}

/// A record whose selection adds a computed column.
private struct PlayerWithBonus: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "player"
  static var databaseSelection: [any SQLSelectable] {
    [AllColumns(), (Column("score") + 100).forKey("bonus")]
  }
  var id: Int64
  var name: String
  var bonus: Int?
}

private struct HTTPRequest: TableRecord {}
private struct URL2Thing: TableRecord {}
private struct Book: TableRecord {}
private struct ISBN: TableRecord {}
private enum Namespace {
  struct Team: TableRecord {}
}

/// A record of a table with a composite primary key.
private struct Membership: Decodable, FetchableRecord, TableRecord, Equatable {
  var teamId: Int64
  var playerId: Int64
  var role: String
}

/// A record of a table with a text primary key.
private struct Country: Decodable, FetchableRecord, TableRecord, Identifiable, Equatable {
  var id: String { code }
  var code: String
  var name: String
}

private func makePlayers() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
        INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200), (3, 'Craig', NULL);
        CREATE TABLE membership (
          teamId INTEGER NOT NULL, playerId INTEGER NOT NULL, role TEXT NOT NULL,
          PRIMARY KEY (teamId, playerId));
        INSERT INTO membership VALUES (1, 1, 'captain'), (1, 2, 'member'), (2, 1, 'member');
        CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        INSERT INTO country VALUES ('FR', 'France'), ('DE', 'Germany');
        """)
  }
  return dbQueue
}

@Suite("Record fetching")
struct RecordFetchingTests {
  @Test("A record built with init(row:) reads the columns it names")
  func initRow() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      let players = try RowPlayer.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
      #expect(
        players == [
          RowPlayer(id: 1, name: "Arthur", score: 100), RowPlayer(id: 2, name: "Barbara", score: 200),
          RowPlayer(id: 3, name: "Craig", score: nil),
        ])
      #expect(try RowPlayer.fetchOne(db, key: 2) == RowPlayer(id: 2, name: "Barbara", score: 200))
    }
  }

  @Test("A Decodable record reads each coding key from the column of the same name, in any column order")
  func decodable() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      let player = try Player.fetchOne(db, sql: "SELECT score, name, id FROM player WHERE id = 1")
      #expect(player == Player(id: 1, name: "Arthur", score: 100))
      let craig = try Player.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [3])
      #expect(craig == Player(id: 3, name: "Craig", score: nil))
    }
  }

  @Test("A Decodable record reads an optional property as nil when its column is absent from the row")
  func missingOptionalColumn() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      let player = try Player.fetchOne(db, sql: "SELECT id, name FROM player WHERE id = 1")
      #expect(player == Player(id: 1, name: "Arthur", score: nil))
    }
  }

  @Test("The default table name is the type name with a lowercase initial, as GRDB derives it")
  func defaultTableName() {
    #expect(Player.databaseTableName == "player")
    #expect(HTTPRequest.databaseTableName == "httpRequest")
    #expect(URL2Thing.databaseTableName == "urL2Thing" || URL2Thing.databaseTableName == "url2Thing")
    #expect(Book.databaseTableName == "book")
    #expect(ISBN.databaseTableName == "isbn")
    #expect(Namespace.Team.databaseTableName == "team")
    #expect(Membership.databaseTableName == "membership")
  }

  @Test("databaseSelection restricts the columns that requests of the type select")
  func databaseSelection() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      let row = try Row.fetchOne(db, PlayerName.all().asRequest(of: Row.self))
      #expect(row?.columnNames == ["id", "name"])
      #expect(try PlayerName.fetchAll(db).map(\.name) == ["Arthur", "Barbara", "Craig"])
      let bonus = try PlayerWithBonus.filter(key: 2).fetchOne(db)
      #expect(bonus == PlayerWithBonus(id: 2, name: "Barbara", bonus: 300))
    }
  }

  @Test("fetchCursor, fetchAll, fetchSet and fetchOne return the table's records")
  func fetchMethods() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.fetchAll(db).count == 3)
      #expect(try Player.fetchSet(db).count == 3)
      #expect(try Player.fetchOne(db) != nil)
      let cursor = try Player.fetchCursor(db)
      var names: [String] = []
      while let player = try cursor.next() { names.append(player.name) }
      #expect(names.sorted() == ["Arthur", "Barbara", "Craig"])
      #expect(try Player.fetchOne(db, sql: "SELECT * FROM player WHERE 0") == nil)
    }
  }

  @Test(
    "Static key methods: fetchOne(key:), fetchAll(keys:), exists(key:), deleteOne(key:), deleteAll(keys:)")
  func keyMethods() throws {
    let dbQueue = try makePlayers()
    try dbQueue.write { (db: Database) throws in
      #expect(try Player.fetchOne(db, key: 1)?.name == "Arthur")
      #expect(try Player.fetchOne(db, key: 42) == nil)
      #expect(try Player.fetchAll(db, keys: [3, 1, 42]).map(\.id).sorted() == [1, 3])
      #expect(try Player.fetchAll(db, keys: [Int64]()).isEmpty)
      #expect(try Player.exists(db, key: 2))
      #expect(try !Player.exists(db, key: 42))
      #expect(try Player.deleteOne(db, key: 2))
      #expect(try !Player.deleteOne(db, key: 2))
      #expect(try Player.deleteAll(db, keys: [1, 3, 42]) == 2)
      #expect(try Player.fetchCount(db) == 0)
    }
  }

  @Test("Composite keys are given as dictionaries")
  func compositeKeys() throws {
    let dbQueue = try makePlayers()
    try dbQueue.write { (db: Database) throws in
      let captain = try Membership.fetchOne(db, key: ["teamId": 1, "playerId": 1])
      #expect(captain?.role == "captain")
      let some = try Membership.fetchAll(
        db,
        keys: [["teamId": 1, "playerId": 2], ["teamId": 2, "playerId": 1], ["teamId": 9, "playerId": 9]])
      #expect(some.map(\.role).sorted() == ["member", "member"])
      #expect(try Membership.exists(db, key: ["teamId": 2, "playerId": 1]))
      #expect(try Membership.deleteOne(db, key: ["teamId": 2, "playerId": 1]))
      #expect(try !Membership.exists(db, key: ["teamId": 2, "playerId": 1]))
      #expect(try Membership.deleteAll(db, keys: [["teamId": 1, "playerId": 1]]) == 1)
      #expect(try Membership.fetchCount(db) == 1)
    }
  }

  @Test("A single-value key on a table with a composite primary key is refused with a clear error")
  func singleKeyOnCompositeTable() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      #expect(throws: DatabaseError.self) { try Membership.fetchOne(db, key: 1) }
    }
  }

  @Test("A unique key can be looked up with a dictionary")
  func uniqueKeyDictionary() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      #expect(try Country.fetchOne(db, key: ["name": "Germany"])?.code == "DE")
    }
  }

  @Test("Identifiable records get find(id:), fetchOne(id:), fetchAll(ids:), filter(id:), filter(ids:)")
  func identifiable() throws {
    let dbQueue = try makePlayers()
    try dbQueue.write { (db: Database) throws in
      #expect(try Player.find(db, id: 2).name == "Barbara")
      #expect(try Player.fetchOne(db, id: 3)?.name == "Craig")
      #expect(try Player.fetchAll(db, ids: [1, 2]).map(\.name).sorted() == ["Arthur", "Barbara"])
      #expect(try Player.filter(id: 1).fetchOne(db)?.name == "Arthur")
      #expect(try Player.filter(ids: [1, 3]).fetchCount(db) == 2)
      #expect(try Player.all().filter(id: 2).fetchCount(db) == 1)
      #expect(try Player.exists(db, id: 1))
      #expect(try Country.find(db, id: "FR").name == "France")
      #expect(try Player.deleteOne(db, id: 1))
      #expect(try Player.deleteAll(db, ids: [2, 3]) == 2)
    }
  }

  @Test("find of a missing row throws RecordError.recordNotFound naming the table and the key")
  func findMissing() throws {
    let dbQueue = try makePlayers()
    try dbQueue.read { (db: Database) throws in
      do {
        _ = try Player.find(db, id: 42)
        Issue.record("find(id: 42) should throw")
      } catch let error as RecordError {
        #expect(error == .recordNotFound(databaseTableName: "player", key: ["id": 42.databaseValue]))
        #expect("\(error)".contains("player"))
        #expect("\(error)".contains("42"))
      }
      do {
        _ = try Membership.find(db, key: ["teamId": 7, "playerId": 8])
        Issue.record("find should throw")
      } catch let error as RecordError {
        guard case .recordNotFound(let table, let key) = error else { return }
        #expect(table == "membership")
        #expect(key == ["teamId": 7.databaseValue, "playerId": 8.databaseValue])
      }
    }
  }

  @Test("Fetching a record from a request decodes each row once, with the same result for every row")
  func manyRowsDecodeConsistently() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
      for i in 1...500 {
        try db.execute(
          sql: "INSERT INTO player (name, score) VALUES (?, ?)",
          arguments: ["p\(i)", i % 7 == 0 ? nil : i])
      }
      let players = try Player.order(Column("id")).fetchAll(db)
      #expect(players.count == 500)
      for (offset, player) in players.enumerated() {
        let i = offset + 1
        #expect(player == Player(id: Int64(i), name: "p\(i)", score: i % 7 == 0 ? nil : i))
      }
    }
  }

  @Test("Records work the same on an encrypted database file")
  func encryptedFile() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
      try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Zoé', 3)")
    }
    let reopened = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    #expect(try reopened.read { db in try Player.find(db, id: 1) } == Player(id: 1, name: "Zoé", score: 3))
  }
}
