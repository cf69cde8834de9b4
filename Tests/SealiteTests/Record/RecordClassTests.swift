import Foundation
import Sealite
import Testing

private final class Player: Record {
  var id: Int64?
  var name: String
  var score: Int?

  override class var databaseTableName: String { "player" }

  init(id: Int64? = nil, name: String, score: Int? = nil) {
    self.id = id
    self.name = name
    self.score = score
    super.init()
  }

  required init(row: Row) throws {
    id = row["id"]
    name = row["name"]
    score = row["score"]
    try super.init(row: row)
  }

  override func encode(to container: inout PersistenceContainer) throws {
    container["id"] = id
    container["name"] = name
    container["score"] = score
  }

  override func didInsert(_ inserted: InsertionSuccess) {
    super.didInsert(inserted)
    id = inserted.rowID
  }
}

/// A subclass whose callbacks call `super`, and log.
private final class LoggedPlayer: Record {
  var id: Int64?
  var name = "x"
  var log: [String] = []
  override class var databaseTableName: String { "player" }
  override init() { super.init() }
  required init(row: Row) throws {
    id = row["id"]
    name = row["name"]
    try super.init(row: row)
  }
  override func encode(to container: inout PersistenceContainer) throws {
    container["id"] = id
    container["name"] = name
  }
  override func willSave(_ db: Database) throws { log.append("willSave") }
  override func willInsert(_ db: Database) throws { log.append("willInsert") }
  override func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    log.append("aroundInsert")
    try super.aroundInsert(db, insert: insert)
  }
  override func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    log.append("didInsert")
  }
  override func didSave(_ saved: PersistenceSuccess) { log.append("didSave") }
  override func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
    log.append("aroundDelete")
    try super.aroundDelete(db, delete: delete)
  }
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
  }
  return dbQueue
}

@Suite("Record class")
struct RecordClassTests {
  @Test("A new record has every column changed, with no old value")
  func newRecord() throws {
    let player = Player(name: "Arthur")
    #expect(player.hasDatabaseChanges)
    let changes = try player.databaseChanges
    #expect(Set(changes.keys) == ["id", "name", "score"])
    #expect(changes.values.allSatisfy { $0 == nil })
  }

  @Test("Inserting sets the rowid and leaves the record without changes")
  func insert() throws {
    try makeDatabase().write { (db: Database) throws in
      let player = Player(name: "Arthur", score: 10)
      try player.insert(db)
      #expect(player.id == 1)
      #expect(!player.hasDatabaseChanges)
      #expect(try player.databaseChanges.isEmpty)
    }
  }

  @Test("A fetched record has no changes; a record of a row built in code has them all")
  func fetched() throws {
    try makeDatabase().write { (db: Database) throws in
      try db.execute(
        sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', NULL), (2, 'Barbara', 5)")
      #expect(try Player.fetchOne(db, key: 1)?.hasDatabaseChanges == false)
      #expect(try Player.fetchAll(db).allSatisfy { !$0.hasDatabaseChanges })
      // The live rows of a cursor are copied, not kept.
      let viaCursor = try Array(Player.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id"))
      #expect(viaCursor.map(\.name) == ["Arthur", "Barbara"])
      #expect(viaCursor.allSatisfy { !$0.hasDatabaseChanges })
      let literal = try Player(row: ["id": 1, "name": "Arthur", "score": nil])
      #expect(literal.hasDatabaseChanges)
    }
  }

  @Test("databaseChanges has the changed columns with their old values")
  func changes() throws {
    try makeDatabase().write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', NULL)")
      let player = try #require(try Player.fetchOne(db, key: 1))
      player.name = "Barbara"
      player.score = 3
      #expect(player.hasDatabaseChanges)
      let changes = try player.databaseChanges
      #expect(changes.count == 2)
      #expect(changes["name"] == .some("Arthur".databaseValue))
      #expect(changes["score"] == .some(DatabaseValue.null))
      player.name = "Arthur"
      player.score = nil
      #expect(!player.hasDatabaseChanges)
    }
  }

  @Test("updateChanges writes the changed columns only, and nothing without changes")
  func updateChanges() throws {
    try makeDatabase().write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 1)")
      let player = try #require(try Player.fetchOne(db, key: 1))
      // Changed behind the record's back: updateChanges must not write it.
      try db.execute(sql: "UPDATE player SET score = 99")
      player.name = "Barbara"
      #expect(try player.updateChanges(db))
      #expect(!player.hasDatabaseChanges)
      let row = try #require(try Row.fetchOne(db, sql: "SELECT name, score FROM player"))
      #expect(row["name"] as String == "Barbara")
      #expect(row["score"] as Int == 99)
      // Without changes, no statement: a deleted row is not even noticed.
      try db.execute(sql: "DELETE FROM player")
      #expect(try player.updateChanges(db) == false)
      // update always runs its statement, and finds no row.
      #expect(throws: RecordError.self) { try player.update(db) }
    }
  }

  @Test("Deleting forgets the reference values: saving inserts again")
  func deleteAndSave() throws {
    try makeDatabase().write { (db: Database) throws in
      let player = Player(name: "Arthur")
      try player.save(db)
      #expect(try Player.fetchCount(db) == 1)
      player.name = "Barbara"
      try player.save(db)
      #expect(!player.hasDatabaseChanges)
      #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Barbara")
      #expect(try player.delete(db))
      #expect(player.hasDatabaseChanges)
      #expect(try Player.fetchCount(db) == 0)
      try player.save(db)
      #expect(try Player.fetchCount(db) == 1)
      #expect(!player.hasDatabaseChanges)
    }
  }

  @Test("An integer and an equal real are no change, as GRDB compares them; a different value is")
  func numericComparison() throws {
    try makeDatabase().write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE measure (id INTEGER PRIMARY KEY, value REAL)")
      try db.execute(sql: "INSERT INTO measure VALUES (1, 1)")
      final class Measure: Record {
        var id: Int64 = 0
        var value = 0
        override class var databaseTableName: String { "measure" }
        required init(row: Row) throws {
          id = row["id"]
          value = row["value"]
          try super.init(row: row)
        }
        override func encode(to container: inout PersistenceContainer) throws {
          container["id"] = id
          container["value"] = value
        }
      }
      let measure = try #require(try Measure.fetchOne(db, key: 1))
      #expect(try db.columns(in: "measure").map(\.type) == ["INTEGER", "REAL"])
      #expect(try DatabaseValue.fetchOne(db, sql: "SELECT value FROM measure")?.storage == .double(1))
      #expect(!measure.hasDatabaseChanges)
      #expect(try measure.databaseChanges.isEmpty)
      #expect(try measure.updateChanges(db) == false)
      measure.value = 2
      #expect(try measure.databaseChanges == ["value": 1.0.databaseValue])
    }
  }

  @Test("Overridden callbacks that call super keep the change tracking")
  func callbacks() throws {
    try makeDatabase().write { (db: Database) throws in
      let player = LoggedPlayer()
      try player.insert(db)
      #expect(player.log == ["willSave", "willInsert", "aroundInsert", "didInsert", "didSave"])
      #expect(player.id == 1)
      #expect(!player.hasDatabaseChanges)
      try player.delete(db)
      #expect(player.log.last == "aroundDelete")
      #expect(player.hasDatabaseChanges)
    }
  }

  @Test("Records round-trip through an encrypted DatabasePool")
  func encryptedPool() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try dbPool.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
      try Player(name: "Arthur", score: 1).insert(db)
    }
    let changed = try dbPool.write { (db: Database) throws -> Bool in
      let player = try #require(try Player.fetchOne(db, key: 1))
      #expect(!player.hasDatabaseChanges)
      player.score = 2
      return try player.updateChanges(db)
    }
    #expect(changed)
    #expect(
      try dbPool.read { (db: Database) throws in try Int.fetchOne(db, sql: "SELECT score FROM player") } == 2)
  }
}
