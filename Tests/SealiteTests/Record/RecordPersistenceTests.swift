import Foundation
import Sealite
import Testing

// MARK: - Record types of this file

/// A record with an auto-incremented id, which it takes on insertion.
private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
  var id: Int64?
  var name: String
  var score: Int

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}

/// A record that encodes itself by hand (no Codable).
private struct ManualPlayer: FetchableRecord, MutablePersistableRecord, Equatable {
  static let databaseTableName = "player"
  var id: Int64?
  var name: String
  var score: Int

  init(id: Int64?, name: String, score: Int) {
    self.id = id
    self.name = name
    self.score = score
  }

  init(row: Row) throws {
    id = row["id"]
    name = row["name"]
    score = row["score"]
  }

  func encode(to container: inout PersistenceContainer) throws {
    container["id"] = id
    container["name"] = name
    container["score"] = score
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}

/// A record that only writes some columns: the others keep their defaults.
private struct Article: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: Int64?
  var title: String
  var status: String?
  var createdAt: String?
  var slug: String?

  enum CodingKeys: String, CodingKey { case id, title }

  init(id: Int64? = nil, title: String) {
    self.id = id
    self.title = title
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FullKeys.self)
    id = try container.decode(Int64?.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    status = try container.decodeIfPresent(String.self, forKey: .status)
    createdAt = try container.decodeIfPresent(String.self, forKey: .createdAt)
    slug = try container.decodeIfPresent(String.self, forKey: .slug)
  }

  enum FullKeys: String, CodingKey { case id, title, status, createdAt, slug }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}

/// A full view of an article row, to read what insertAndFetch(as:) returns.
private struct ArticleRow: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "article"
  var id: Int64
  var title: String
  var status: String
  var slug: String?
}

/// Records every persistence callback it receives.
private final class CallbackLog {
  var events: [String] = []
}

/// A record that logs its persistence callbacks (the log is not a column).
private struct Tracked: Encodable, MutablePersistableRecord {
  static let databaseTableName = "player"
  var id: Int64?
  var name: String
  var score: Int
  let log: CallbackLog
  enum CodingKeys: String, CodingKey { case id, name, score }

  mutating func willInsert(_ db: Database) throws { log.events.append("willInsert") }
  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    log.events.append("didInsert \(inserted.rowID)")
  }
  func willUpdate(_ db: Database, columns: Set<String>) throws {
    log.events.append("willUpdate \(columns.sorted().joined(separator: ","))")
  }
  func didUpdate(_ updated: PersistenceSuccess) { log.events.append("didUpdate") }
  func willSave(_ db: Database) throws { log.events.append("willSave") }
  func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave") }
  func willDelete(_ db: Database) throws { log.events.append("willDelete") }
  func didDelete(deleted: Bool) { log.events.append("didDelete \(deleted)") }
}

/// The SQL of the statements a connection runs, for assertions on what ran.
private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
        CREATE TABLE article (
          id INTEGER PRIMARY KEY,
          title TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'draft',
          createdAt TEXT NOT NULL DEFAULT 'now',
          slug TEXT);
        CREATE TRIGGER article_slug AFTER INSERT ON article BEGIN
          UPDATE article SET slug = lower(replace(NEW.title, ' ', '-')) WHERE id = NEW.id;
        END;
        CREATE TRIGGER article_slug_update AFTER UPDATE OF title ON article BEGIN
          UPDATE article SET slug = lower(replace(NEW.title, ' ', '-')) || '-v2' WHERE id = NEW.id;
        END;
        """)
  }
  return dbQueue
}

@Suite("Record persistence")
struct RecordPersistenceTests {
  @Test("insert gives didInsert the new rowid of an auto-incremented id")
  func insertDidInsert() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (41, 'Existing', 0)")
      var player = Player(id: nil, name: "Arthur", score: 10)
      try player.insert(db)
      #expect(player.id == 42)
      #expect(db.lastInsertedRowID == 42)
      var manual = ManualPlayer(id: nil, name: "Barbara", score: 20)
      try manual.insert(db)
      #expect(manual.id == 43)
      #expect(try Player.fetchOne(db, id: 43) == Player(id: 43, name: "Barbara", score: 20))
      let copy = try Player(id: nil, name: "Craig", score: 30).inserted(db)
      #expect(copy.id == 44)
    }
  }

  @Test("insert with an explicit id stores that id")
  func insertExplicitId() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: 7, name: "Arthur", score: 10)
      try player.insert(db)
      #expect(player.id == 7)
      #expect(try Player.find(db, id: 7).name == "Arthur")
    }
  }

  @Test("A duplicate insert fails with a constraint error and stores nothing")
  func insertDuplicate() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: 1, name: "Arthur", score: 10)
      try player.insert(db)
      var duplicate = Player(id: 1, name: "Other", score: 0)
      do {
        try duplicate.insert(db)
        Issue.record("duplicate insert should fail")
      } catch let error as DatabaseError {
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
      }
      #expect(try Player.find(db, id: 1).name == "Arthur")
    }
  }

  @Test("update writes every column of the record, found by its primary key")
  func updateAllColumns() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: nil, name: "Arthur", score: 10)
      try player.insert(db)
      player.name = "Arthur II"
      player.score = 11
      try player.update(db)
      #expect(try Player.find(db, id: player.id!) == player)
    }
  }

  @Test("update(columns:) writes only the named columns")
  func updateColumns() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: nil, name: "Arthur", score: 10)
      try player.insert(db)
      player.name = "Changed"
      player.score = 99
      try player.update(db, columns: ["score"])
      #expect(try Player.find(db, id: player.id!) == Player(id: player.id, name: "Arthur", score: 99))
      player.score = 0
      try player.update(db, columns: [Column("name")])
      #expect(try Player.find(db, id: player.id!) == Player(id: player.id, name: "Changed", score: 99))
    }
  }

  @Test("update of a record whose row does not exist throws recordNotFound")
  func updateMissing() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let player = Player(id: 5, name: "Ghost", score: 0)
      #expect(throws: RecordError.recordNotFound(databaseTableName: "player", key: ["id": 5.databaseValue])) {
        try player.update(db)
      }
      let unsaved = Player(id: nil, name: "Nobody", score: 0)
      #expect(throws: RecordError.self) { try unsaved.update(db) }
      #expect(try Player.fetchCount(db) == 0)
    }
  }

  @Test("updateChanges runs no statement at all when nothing changed")
  func updateChangesNoStatement() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: nil, name: "Arthur", score: 10)
      try player.insert(db)
      let log = SQLCapture(on: db)
      let changed = try player.updateChanges(db) { $0.score = 10 }
      #expect(!changed)
      let same = player
      #expect(try !player.updateChanges(db, from: same))
      db.trace(nil)
      #expect(log.statements.isEmpty, "statements ran: \(log.statements)")
    }
  }

  @Test("updateChanges writes only the changed columns and reports that it did")
  func updateChangesOnlyChanged() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: nil, name: "Arthur", score: 10)
      try player.insert(db)
      // Another writer changes the name behind the record's back.
      try db.execute(sql: "UPDATE player SET name = 'Renamed' WHERE id = ?", arguments: [player.id])
      let log = SQLCapture(on: db)
      let changed = try player.updateChanges(db) { $0.score = 20 }
      db.trace(nil)
      #expect(changed)
      #expect(player.score == 20)
      #expect(log.writes.count == 1)
      #expect(log.writes.first?.contains("score") == true)
      #expect(log.writes.first?.contains("name") == false)
      #expect(try Player.find(db, id: player.id!) == Player(id: player.id, name: "Renamed", score: 20))
      let old = player
      player.name = "Final"
      #expect(try player.updateChanges(db, from: old))
      #expect(try Player.find(db, id: player.id!).name == "Final")
    }
  }

  @Test("save inserts a record without a row, and updates a record with one")
  func save() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: nil, name: "Arthur", score: 10)
      try player.save(db)
      #expect(player.id != nil)
      player.score = 20
      try player.save(db)
      #expect(try Player.fetchCount(db) == 1)
      #expect(try Player.find(db, id: player.id!).score == 20)
      // An id that no row has: save inserts.
      var other = Player(id: 99, name: "Barbara", score: 1)
      try other.save(db)
      #expect(try Player.find(db, id: 99).name == "Barbara")
      let saved = try Player(id: nil, name: "Craig", score: 2).saved(db)
      #expect(saved.id != nil)
      #expect(try Player.fetchCount(db) == 3)
    }
  }

  @Test("delete removes the record's row and tells whether there was one; exists follows")
  func deleteAndExists() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var player = Player(id: nil, name: "Arthur", score: 10)
      #expect(try !player.exists(db))
      try player.insert(db)
      #expect(try player.exists(db))
      #expect(try player.delete(db))
      #expect(try !player.exists(db))
      #expect(try !player.delete(db))
      #expect(try Player.fetchCount(db) == 0)
    }
  }

  @Test(
    "insertAndFetch returns the row as stored: database defaults and trigger-modified values; like GRDB's, it leaves the receiver as it was"
  )
  func insertAndFetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let article = Article(title: "Hello World")
      let stored = try article.insertAndFetch(db)
      #expect(stored.id != nil)
      #expect(article.id == nil)
      #expect(stored.status == "draft")
      #expect(stored.createdAt == "now")
      #expect(stored.slug == "hello-world")
      var second = Article(title: "Second Post")
      let row = try second.insertAndFetch(db, as: ArticleRow.self)
      #expect(row == ArticleRow(id: second.id!, title: "Second Post", status: "draft", slug: "second-post"))
    }
  }

  @Test("updateAndFetch returns the row as stored, with trigger-modified values")
  func updateAndFetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var article = Article(title: "Hello World")
      try article.insert(db)
      try db.execute(sql: "UPDATE article SET status = 'published'")
      article.title = "New Title"
      let stored = try article.updateAndFetch(db)
      #expect(stored.title == "New Title")
      #expect(stored.status == "published")
      #expect(stored.slug == "new-title-v2")
      let row = try article.updateAndFetch(db, as: ArticleRow.self)
      #expect(row.slug == "new-title-v2")
      let ghost = Article(id: 999, title: "Ghost")
      #expect(throws: RecordError.self) { try ghost.updateAndFetch(db) }
    }
  }

  @Test("saveAndFetch inserts or updates, and returns the row as stored")
  func saveAndFetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let draft = Article(title: "First Draft")
      let inserted = try draft.saveAndFetch(db)
      #expect(inserted.slug == "first-draft")
      #expect(draft.id == nil)
      var article = inserted
      article.title = "Second Draft"
      let updated = try article.saveAndFetch(db)
      #expect(updated.id == inserted.id)
      #expect(updated.slug == "second-draft-v2")
      #expect(try Article.fetchCount(db) == 1)
      var fresh = Article(id: 50, title: "Fresh One")
      let row = try fresh.saveAndFetch(db, as: ArticleRow.self)
      #expect(row == ArticleRow(id: 50, title: "Fresh One", status: "draft", slug: "fresh-one"))
    }
  }

  @Test("…AndFetch methods run in the caller's transaction: a rollback undoes them")
  func andFetchInsideTransaction() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.inDatabase { (db: Database) throws in
      try db.inTransaction {
        var article = Article(title: "Temporary")
        _ = try article.insertAndFetch(db)
        #expect(try Article.fetchCount(db) == 1)
        return .rollback
      }
      #expect(try Article.fetchCount(db) == 0)
    }
  }

  @Test("Persistence callbacks run in GRDB's order")
  func callbacks() throws {
    let dbQueue = try makeDatabase()
    let log = CallbackLog()
    try dbQueue.write { (db: Database) throws in
      var record = Tracked(id: nil, name: "Arthur", score: 1, log: log)
      try record.insert(db)
      #expect(log.events == ["willSave", "willInsert", "didInsert \(record.id!)", "didSave"])
      log.events = []
      try record.update(db)
      #expect(log.events == ["willSave", "willUpdate id,name,score", "didUpdate", "didSave"])
      log.events = []
      try record.delete(db)
      #expect(log.events == ["willDelete", "didDelete true"])
    }
  }

  @Test("Encoded values that do not fit SQLite fail before anything is written")
  func unrepresentableValue() throws {
    struct Big: Encodable, MutablePersistableRecord {
      static let databaseTableName = "big"
      var value: UInt64
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE big (value INTEGER)")
      #expect(throws: (any Error).self) { try Big(value: UInt64.max).inserted(db) }
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM big") == 0)
    }
  }

  // The container's subscript converts the value it is given where it is:
  // the same values, NULLs and failures as a conversion through an optional.
  @Test("Values set in a container: nil is NULL, a REAL stays REAL, an integer beyond Int64 fails the write")
  func containerSubscriptConversions() throws {
    struct Manual: MutablePersistableRecord {
      static let databaseTableName = "manual"
      var id: Int64
      var amount: (any DatabaseValueConvertible)?
      func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["amount"] = amount
      }
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE manual (id INTEGER PRIMARY KEY, amount)")
      try Manual(id: 1, amount: nil).inserted(db)
      try Manual(id: 2, amount: 2.5).inserted(db)
      try Manual(id: 3, amount: UInt64(Int64.max)).inserted(db)
      try Manual(id: 4, amount: Double(UInt64.max)).inserted(db)
      #expect(throws: DatabaseError.self) { try Manual(id: 5, amount: UInt64.max).inserted(db) }
      let rows = try Row.fetchAll(db, sql: "SELECT id, typeof(amount), amount FROM manual ORDER BY id")
      #expect(rows.map { $0[1] as String } == ["null", "real", "integer", "real"])
      #expect(rows[1][2] as Double == 2.5)
      #expect(rows[2][2] as Int64 == Int64.max)
      #expect(rows[3][2] as Double == Double(UInt64.max))
    }
  }

  @Test("A Codable record's encode(to:) adds its columns to the container it is given")
  func encodeIntoGivenContainer() throws {
    var container = PersistenceContainer()
    container["extra"] = 1
    container["NAME"] = "replaced"
    try Player(id: 3, name: "Arthur", score: 10).encode(to: &container)
    // A column equal ignoring case keeps its place and takes the record's value.
    #expect(container.columns == ["extra", "NAME", "id", "score"])
    #expect(container["extra"]?.databaseValue == 1.databaseValue)
    #expect(container["name"]?.databaseValue == "Arthur".databaseValue)
    #expect(container["id"]?.databaseValue == 3.databaseValue)

    var empty = PersistenceContainer()
    try Player(id: nil, name: "Barbara", score: 20).encode(to: &empty)
    #expect(empty.columns == ["id", "name", "score"])
    #expect(empty["id"]?.databaseValue == DatabaseValue.null)
  }

  @Test("A record whose encoding fails leaves the container it was given as it was")
  func failedEncodingLeavesContainer() throws {
    struct Big: Encodable, EncodableRecord {
      var small: Int
      var value: UInt64
    }
    var container = PersistenceContainer()
    container["kept"] = "yes"
    #expect(throws: DatabaseError.self) { try Big(small: 1, value: UInt64.max).encode(to: &container) }
    #expect(container.columns == ["kept"])
    #expect(container["kept"]?.databaseValue == "yes".databaseValue)
    var empty = PersistenceContainer()
    #expect(throws: DatabaseError.self) { try Big(small: 1, value: UInt64.max).encode(to: &empty) }
    #expect(empty.isEmpty)
  }

  @Test(
    "Container columns are one per name as SQLite compares names: ignoring the case of ASCII letters only")
  func containerColumnsIgnoreCase() {
    var container = PersistenceContainer()
    container["Name"] = 1
    container["_a"] = 2
    container["Ünïcode"] = 3
    container["name"] = 4
    container["_A"] = 5
    container["ÜNïCODE"] = 6
    container["n"] = 7
    container["Names"] = 8
    // Another name to SQLite: "ü" and "Ü" differ.
    container["ünïcode"] = 9
    #expect(container.columns == ["Name", "_a", "Ünïcode", "n", "Names", "ünïcode"])
    let values = container.columns.map { container[$0]?.databaseValue }
    #expect(values == [4, 5, 6, 7, 8, 9].map { $0.databaseValue })
  }
}
