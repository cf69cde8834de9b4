import Foundation
import Sealite
import Testing

// One set of expectations for both legs: SQLite 3.46 runs the native
// `INSERT … ON CONFLICT … DO UPDATE … RETURNING`, SQLite 3.15 the emulation.

// MARK: - Record types of this file

/// Encodes id, name and score; the table also has `bonus` and `createdAt`,
/// which the record never writes.
private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: Int64?
  var name: String
  var score: Int
  var insertedRowID: Int64?

  enum CodingKeys: String, CodingKey { case id, name, score }

  init(id: Int64? = nil, name: String, score: Int) {
    self.id = id
    self.name = name
    self.score = score
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    insertedRowID = inserted.rowID
  }
}

/// The full stored row.
private struct PlayerRow: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "player"
  var id: Int64
  var name: String
  var score: Int
  var bonus: Int
  var createdAt: String
}

/// A WITHOUT ROWID table with a text key.
private struct Setting: Codable, FetchableRecord, PersistableRecord, Equatable {
  var key: String
  var value: String
}

private struct MutableSetting: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  static let databaseTableName = "setting"
  var key: String
  var value: String
}

/// A WITHOUT ROWID table whose primary key is a single INTEGER column.
private struct Item: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: Int64
  var name: String
  var quantity: Int
  var stamp: String?
  var insertedRowID: Int64?

  enum CodingKeys: String, CodingKey { case id, name, quantity }

  init(id: Int64, name: String, quantity: Int) {
    self.id = id
    self.name = name
    self.quantity = quantity
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AllKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    quantity = try container.decode(Int.self, forKey: .quantity)
    stamp = try container.decodeIfPresent(String.self, forKey: .stamp)
  }

  enum AllKeys: String, CodingKey { case id, name, quantity, stamp }

  mutating func didInsert(_ inserted: InsertionSuccess) { insertedRowID = inserted.rowID }
}

/// A table with no declared primary key (hidden rowid) and a unique column.
private struct Tag: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var label: String
  var uses: Int
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE COLLATE NOCASE,
          score INTEGER NOT NULL,
          bonus INTEGER NOT NULL DEFAULT 0,
          createdAt TEXT NOT NULL DEFAULT 'then');
        CREATE TABLE membership (
          id INTEGER PRIMARY KEY,
          playerId INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE);
        CREATE TABLE deletions (tableName TEXT);
        CREATE TRIGGER player_deleted AFTER DELETE ON player BEGIN
          INSERT INTO deletions VALUES ('player');
        END;
        CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE item (
          id INTEGER PRIMARY KEY, name TEXT NOT NULL, quantity INTEGER NOT NULL,
          stamp TEXT DEFAULT 'fresh') WITHOUT ROWID;
        CREATE TABLE tag (label TEXT NOT NULL UNIQUE, uses INTEGER NOT NULL);
        INSERT INTO player (id, name, score, bonus, createdAt) VALUES (1, 'Arthur', 10, 5, 'long ago');
        INSERT INTO membership (playerId) VALUES (1);
        """)
  }
  return dbQueue
}

private func storedArthur(_ db: Database) throws -> PlayerRow? {
  try PlayerRow.fetchOne(db, key: ["name": "Arthur"])
}

@Suite("Upsert")
struct UpsertTests {
  @Test("upsert inserts a new row and gives didInsert its rowid")
  func upsertInserts() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var barbara = Player(name: "Barbara", score: 20)
      try barbara.upsert(db)
      #expect(barbara.id == 2)
      #expect(barbara.insertedRowID == 2)
      let stored = try PlayerRow.fetchOne(db, key: 2)
      #expect(stored == PlayerRow(id: 2, name: "Barbara", score: 20, bonus: 0, createdAt: "then"))
    }
  }

  @Test("upsert of a conflicting row updates it in place: same rowid, nothing deleted, no cascade")
  func upsertUpdatesInPlace() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(name: "Arthur", score: 99)
      try arthur.upsert(db)
      #expect(arthur.id == 1)
      #expect(arthur.insertedRowID == 1)
      #expect(try Int64.fetchOne(db, sql: "SELECT rowid FROM player WHERE name = 'Arthur'") == 1)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM membership") == 1)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM deletions") == 0)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
    }
  }

  @Test("A conflict overwrites the encoded columns only: columns the record does not encode are untouched")
  func encodedColumnsOnly() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(id: 1, name: "Arthur", score: 50)
      let upserted = try arthur.upsertAndFetch(db, as: PlayerRow.self)
      let expected = PlayerRow(id: 1, name: "Arthur", score: 50, bonus: 5, createdAt: "long ago")
      #expect(upserted == expected)
      #expect(try storedArthur(db) == expected)
    }
  }

  @Test("A conflict on the primary key overwrites every other encoded column")
  func primaryKeyConflict() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var renamed = Player(id: 1, name: "Arthur Dent", score: 42)
      let upserted = try renamed.upsertAndFetch(db)
      #expect(upserted == Player(id: 1, name: "Arthur Dent", score: 42))
      #expect(try PlayerRow.fetchOne(db, key: 1)?.bonus == 5)
    }
  }

  @Test("The conflict target's columns are not overwritten")
  func conflictTargetKept() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      // The name is unique without regard to case: "ARTHUR" conflicts with "Arthur".
      var shouting = Player(name: "ARTHUR", score: 77)
      let upserted = try shouting.upsertAndFetch(db, onConflict: ["name"])
      #expect(upserted.id == 1)
      #expect(upserted.name == "Arthur")
      #expect(upserted.score == 77)
      #expect(try storedArthur(db)?.score == 77)
    }
  }

  @Test("upsertAndFetch returns the record as stored")
  func upsertAndFetchReturnsStored() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(name: "Arthur", score: 11)
      let upserted = try arthur.upsertAndFetch(db)
      #expect(upserted == Player(id: 1, name: "Arthur", score: 11))
      #expect(arthur.id == 1)
      var craig = Player(name: "Craig", score: 3)
      let inserted = try craig.upsertAndFetch(db, as: PlayerRow.self)
      #expect(inserted == PlayerRow(id: 2, name: "Craig", score: 3, bonus: 0, createdAt: "then"))
    }
  }

  @Test("doUpdate assignments override the inserted values, and can read excluded[column]")
  func doUpdate() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(name: "Arthur", score: 5)
      let upserted = try arthur.upsertAndFetch(db, onConflict: ["name"]) { excluded in
        [Column("score").set(to: Column("score") + excluded[Column("score")])]
      }
      #expect(upserted.score == 15)
      #expect(try storedArthur(db)?.score == 15)
      var again = Player(name: "Arthur", score: 1)
      let bonus = try again.upsertAndFetch(db, as: PlayerRow.self, onConflict: ["name"]) { excluded in
        [Column("bonus").set(to: excluded["score"] * 100)]
      }
      #expect(bonus.bonus == 100)
      #expect(bonus.score == 1)
    }
  }

  @Test("The DO UPDATE clause lists the program's assignments first, then the overwritten columns, as GRDB")
  func doUpdateSQL() throws {
    guard SQLiteFeatures.linked.supports(.returning) else { return }  // The emulation writes no upsert.
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(id: 2, name: "Arthur", score: 3)
      let statements = try capturedSQL(db) {
        _ = try arthur.upsertAndFetch(db, onConflict: ["name"]) { excluded in
          [Column("bonus").set(to: Column("bonus") + 1), Column("id").noOverwrite]
        }
      }
      // The first use also reads the schema.
      #expect(
        statements.first { $0.hasPrefix("INSERT") }
          == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?) ON CONFLICT("name") "#
          + #"DO UPDATE SET "bonus" = "bonus" + ?, "score" = "excluded"."score" RETURNING *, "rowid""#)
      #expect(try storedArthur(db)?.bonus == 6)
      #expect(try storedArthur(db)?.score == 3)
    }
  }

  @Test("noOverwrite keeps a column of the existing row; the others take the inserted values")
  func noOverwrite() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(id: 1, name: "Arthur Dent", score: 1000)
      let upserted = try arthur.upsertAndFetch(db) { _ in [Column("score").noOverwrite] }
      #expect(upserted == Player(id: 1, name: "Arthur Dent", score: 10))
    }
  }

  @Test("updating: .noColumnUnlessSpecified leaves an existing row as it is and returns it")
  func noColumnUnlessSpecified() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(name: "Arthur", score: 1000)
      let upserted = try arthur.upsertAndFetch(db, updating: .noColumnUnlessSpecified)
      #expect(upserted == Player(id: 1, name: "Arthur", score: 10))
      #expect(try storedArthur(db)?.score == 10)
      var diana = Player(name: "Diana", score: 4)
      let inserted = try diana.upsertAndFetch(db, updating: .noColumnUnlessSpecified)
      #expect(inserted == Player(id: 2, name: "Diana", score: 4))
    }
  }

  @Test("updating: .noColumnUnlessSpecified with assignments updates those columns only")
  func noColumnUnlessSpecifiedWithAssignments() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var arthur = Player(id: 1, name: "Arthur Dent", score: 1000)
      let upserted = try arthur.upsertAndFetch(db, updating: .noColumnUnlessSpecified) { excluded in
        [Column("name").set(to: excluded[Column("name")])]
      }
      #expect(upserted == Player(id: 1, name: "Arthur Dent", score: 10))
    }
  }

  @Test("The native path runs one INSERT … ON CONFLICT; the emulation deletes nothing and replaces nothing")
  func pathFollowsTheProbe() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let log = SQLCapture(on: db)
      var arthur = Player(name: "Arthur", score: 12)
      _ = try arthur.upsertAndFetch(db)
      db.trace(nil)
      let writes = log.statements.map { $0.uppercased() }
      #expect(!writes.contains { $0.contains("DELETE") || $0.contains("REPLACE") })
      if SQLiteFeatures.linked.supports(.returning) {
        #expect(writes.contains { $0.contains("ON CONFLICT") && $0.contains("RETURNING") })
      } else {
        #expect(!writes.contains { $0.contains("ON CONFLICT") || $0.contains("RETURNING") })
      }
      #expect(try storedArthur(db)?.score == 12)
    }
  }

  @Test("Upsert on a table without a declared primary key conflicts on its unique index")
  func hiddenRowID() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var swift = Tag(label: "swift", uses: 1)
      try swift.upsert(db)
      let rowid = try Int64.fetchOne(db, sql: "SELECT rowid FROM tag")
      var again = Tag(label: "swift", uses: 2)
      let upserted = try again.upsertAndFetch(db)
      #expect(upserted == Tag(label: "swift", uses: 2))
      #expect(try Int64.fetchOne(db, sql: "SELECT rowid FROM tag") == rowid)
      #expect(try Tag.fetchCount(db) == 1)
    }
  }

  @Test("A failed upsert (another constraint) leaves the database as it was")
  func failedUpsert() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (2, 'Barbara', 1)")
      // id 2 exists and 'Arthur' is taken by id 1: updating row 2 to 'Arthur' fails.
      var clash = Player(id: 2, name: "Arthur", score: 3)
      #expect(throws: DatabaseError.self) { _ = try clash.upsertAndFetch(db, onConflict: ["id"]) }
      #expect(try PlayerRow.fetchOne(db, key: 2)?.name == "Barbara")
      #expect(try storedArthur(db)?.score == 10)
    }
  }
}

@Suite("Upsert and persistence on WITHOUT ROWID tables")
struct UpsertWithoutRowIDTests {
  @Test("A WITHOUT ROWID table with a text key: insert, update, save, delete, exists")
  func textKey() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var theme = MutableSetting(key: "theme", value: "dark")
      try theme.insert(db)
      theme.value = "light"
      try theme.update(db)
      #expect(try MutableSetting.fetchOne(db, key: "theme") == theme)
      var font = MutableSetting(key: "font", value: "mono")
      try font.save(db)
      font.value = "serif"
      try font.save(db)
      #expect(try MutableSetting.fetchOne(db, key: "font")?.value == "serif")
      #expect(try font.exists(db))
      #expect(try font.delete(db))
      #expect(try !font.exists(db))
      #expect(try MutableSetting.fetchCount(db) == 1)
    }
  }

  @Test("A WITHOUT ROWID table with a text key: every …AndFetch and upsert work")
  func textKeyAndFetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var theme = MutableSetting(key: "theme", value: "dark")
      #expect(try theme.insertAndFetch(db) == theme)
      theme.value = "light"
      #expect(try theme.updateAndFetch(db) == theme)
      theme.value = "blue"
      #expect(try theme.saveAndFetch(db) == theme)
      var upsert = MutableSetting(key: "theme", value: "green")
      #expect(try upsert.upsertAndFetch(db) == upsert)
      try upsert.upsert(db)
      #expect(try MutableSetting.fetchAll(db) == [upsert])
    }
  }

  @Test("A WITHOUT ROWID table whose key is a single INTEGER: insert, update, delete; didInsert gets the key")
  func integerKey() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var bolt = Item(id: 10, name: "bolt", quantity: 3)
      try bolt.insert(db)
      #expect(bolt.insertedRowID == 10)
      bolt.quantity = 4
      try bolt.update(db)
      #expect(try Item.fetchOne(db, key: 10)?.quantity == 4)
      #expect(try Item.filter(keys: [10, 11]).fetchCount(db) == 1)
      #expect(try Item.exists(db, key: 10))
      #expect(try bolt.delete(db))
      #expect(try Item.fetchCount(db) == 0)
    }
  }

  @Test("A WITHOUT ROWID table whose key is a single INTEGER: every …AndFetch and upsert work")
  func integerKeyAndFetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var nut = Item(id: 7, name: "nut", quantity: 1)
      let inserted = try nut.insertAndFetch(db, as: Item.self)
      #expect(inserted.stamp == "fresh")
      #expect(nut.insertedRowID == 7)
      nut.quantity = 2
      #expect(try nut.updateAndFetch(db).quantity == 2)
      nut.quantity = 3
      #expect(try nut.saveAndFetch(db).quantity == 3)
      var washer = Item(id: 8, name: "washer", quantity: 1)
      #expect(try washer.saveAndFetch(db).stamp == "fresh")
      var upsert = Item(id: 7, name: "nut", quantity: 9)
      let upserted = try upsert.upsertAndFetch(db)
      #expect(upserted.quantity == 9)
      #expect(upserted.stamp == "fresh")
      #expect(upsert.insertedRowID == 7)
      var fresh = Item(id: 9, name: "screw", quantity: 1)
      try fresh.upsert(db)
      #expect(fresh.insertedRowID == 9)
      #expect(try Item.fetchCount(db) == 3)
      #expect(try Item.deleteOne(db, key: 9))
      #expect(try Item.order(Column("id")).fetchAll(db).map(\.id) == [7, 8])
    }
  }

  @Test("Requests on a WITHOUT ROWID table: reversed, limited delete and update")
  func requests() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      for id in 1...5 { try Item(id: Int64(id), name: "i\(id)", quantity: id).inserted(db) }
      #expect(try Item.all().reversed().fetchAll(db).map(\.id) == [5, 4, 3, 2, 1])
      #expect(try Item.order(Column("id")).limit(2).deleteAll(db) == 2)
      #expect(try Item.order(Column("id")).limit(1).updateAll(db, Column("quantity").set(to: 0)) == 1)
      #expect(try Item.order(Column("id")).fetchAll(db).map(\.quantity) == [0, 4, 5])
    }
  }

  @Test("A PersistableRecord on a WITHOUT ROWID table upserts")
  func persistableUpsert() async {
    await #expect(processExitsWith: .success) {
      let dbQueue = try makeDatabase()
      try dbQueue.write { db in
        try Setting(key: "a", value: "1").upsert(db)
        try Setting(key: "a", value: "2").upsert(db)
        if try Setting.fetchOne(db, key: "a")?.value != "2" { exit(EXIT_FAILURE) }
      }
    }
  }
}
