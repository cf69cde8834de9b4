import Foundation
import Sealite
import Testing

// MARK: - Record types of this file

/// A parent row with a unique name, a column with a default, and children
/// that cascade on delete.
private struct Team: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: Int64?
  var name: String
  var didInsertCount = 0

  enum CodingKeys: String, CodingKey { case id, name }

  init(id: Int64? = nil, name: String) {
    self.id = id
    self.name = name
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    didInsertCount += 1
  }
}

/// The same table, with a type-wide REPLACE policy.
private struct ReplacingTeam: Codable, FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "team"
  static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
  var id: Int64?
  var name: String
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The same table, with a type-wide IGNORE policy for inserts.
private struct IgnoringTeam: Codable, FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "team"
  static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore)
  var id: Int64?
  var name: String
  var didInsertCalled = false
  enum CodingKeys: String, CodingKey { case id, name }
  init(id: Int64? = nil, name: String) {
    self.id = id
    self.name = name
  }
  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    didInsertCalled = true
  }
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE team (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          motto TEXT NOT NULL DEFAULT 'none');
        CREATE TABLE member (
          id INTEGER PRIMARY KEY,
          teamId INTEGER REFERENCES team(id) ON DELETE CASCADE,
          name TEXT);
        INSERT INTO team (id, name, motto) VALUES (1, 'Red', 'Go red');
        INSERT INTO member (teamId, name) VALUES (1, 'Arthur');
        """)
  }
  return dbQueue
}

private func redRow(_ db: Database) throws -> Row? {
  try Row.fetchOne(db, sql: "SELECT rowid AS rid, id, name, motto FROM team WHERE name = 'Red'")
}

@Suite("Record conflict policies")
struct RecordConflictPolicyTests {
  @Test("The default policy, abort, fails on conflict and leaves the row as it was")
  func abort() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = Team(name: "Red")
      do {
        try team.insert(db)
        Issue.record("expected a constraint error")
      } catch let error as DatabaseError {
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
      }
      #expect(team.id == nil)
      #expect(try redRow(db)?["motto"] == "Go red")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member") == 1)
    }
  }

  @Test("replace is delete-then-insert: the cascade fires, the rowid changes, omitted columns reset")
  func replacePerCall() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = Team(name: "Red")
      try team.insert(db, onConflict: .replace)
      let row = try #require(try redRow(db))
      #expect(row["rid"] != 1 as Int64)
      #expect(team.id == row["id"])
      #expect(row["motto"] == "none")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member") == 0)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 1)
    }
  }

  @Test("A type's persistenceConflictPolicy applies to its inserts")
  func replacePerType() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = ReplacingTeam(id: nil, name: "Red")
      try team.insert(db)
      let row = try #require(try redRow(db))
      #expect(row["motto"] == "none")
      #expect(team.id == row["id"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member") == 0)
    }
  }

  @Test("A type's persistenceConflictPolicy applies to its updates")
  func replaceOnUpdate() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO team (id, name) VALUES (2, 'Blue')")
      // Renaming Blue to Red replaces the Red row.
      try ReplacingTeam(id: 2, name: "Red").update(db)
      #expect(try Row.fetchAll(db, sql: "SELECT id, name FROM team") == [["id": 2, "name": "Red"]])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member") == 0)
    }
  }

  @Test("ignore leaves the existing row and calls no didInsert")
  func ignorePerCall() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = Team(name: "Red")
      try team.insert(db, onConflict: .ignore)
      #expect(team.id == nil)
      #expect(team.didInsertCount == 0)
      #expect(try redRow(db)?["motto"] == "Go red")
      #expect(try redRow(db)?["rid"] == 1 as Int64)
      var blue = Team(name: "Blue")
      try blue.insert(db, onConflict: .ignore)
      #expect(blue.didInsertCount == 1)
      #expect(blue.id != nil)
    }
  }

  @Test("An ignored insertAndFetch throws recordNotFound, GRDB's way to detect a failed INSERT OR IGNORE")
  func ignoredInsertAndFetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = Team(name: "Red")
      #expect(throws: RecordError.self) {
        _ = try team.insertAndFetch(db, onConflict: .ignore, as: Team.self)
      }
      #expect(team.didInsertCount == 0)
      #expect(team.id == nil)
      var blue = Team(name: "Blue")
      let stored = try blue.insertAndFetch(db, onConflict: .ignore, as: Team.self)
      #expect(stored.name == "Blue")
      #expect(blue.id == stored.id)
    }
  }

  @Test("An ignored insertAndFetch hands its fetch closure a statement without a row, as GRDB does")
  func ignoredInsertAndFetchStatement() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = Team(name: "Red")
      let motto = try team.insertAndFetch(db, onConflict: .ignore, selection: [Column("motto")]) {
        try String.fetchOne($0)
      }
      #expect(motto == nil)
      #expect(team.didInsertCount == 0)
      #expect(team.id == nil)
      let rows = try team.insertAndFetch(
        db, onConflict: .ignore, selection: [Column("motto"), Column("name")]
      ) {
        try Row.fetchAll($0)
      }
      #expect(rows.isEmpty)
      #expect(team.id == nil)
      // saveAndFetch still throws (see "Differences from GRDB").
      #expect(throws: RecordError.self) {
        try team.saveAndFetch(db, onConflict: .ignore, selection: [Column("motto")]) {
          try String.fetchOne($0)
        }
      }
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 1)
      var blue = Team(name: "Blue")
      let blueName = try blue.insertAndFetch(db, onConflict: .ignore, fetch: { try String.fetchOne($0) }) {
        _ in [Column("name")]
      }
      #expect(blueName == "Blue")
      #expect(blue.id != nil)
    }
  }

  @Test("A type-wide ignore policy skips conflicting inserts without calling didInsert")
  func ignorePerType() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = IgnoringTeam(name: "Red")
      try team.insert(db)
      #expect(!team.didInsertCalled)
      #expect(team.id == nil)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") == 1)
    }
  }

  @Test("A per-call policy overrides the type's policy")
  func perCallOverridesType() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var team = IgnoringTeam(name: "Red")
      #expect(throws: DatabaseError.self) { try team.insert(db, onConflict: .abort) }
    }
  }

  @Test("rollback undoes the whole transaction; fail keeps what the transaction did before")
  func rollbackAndFail() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.inDatabase { (db: Database) throws in
      try db.beginTransaction()
      try db.execute(sql: "INSERT INTO team (name) VALUES ('Green')")
      var failing = Team(name: "Red")
      #expect(throws: DatabaseError.self) { try failing.insert(db, onConflict: .fail) }
      #expect(db.isInsideTransaction)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team WHERE name = 'Green'") == 1)
      var rollingBack = Team(name: "Red")
      #expect(throws: DatabaseError.self) { try rollingBack.insert(db, onConflict: .rollback) }
      #expect(!db.isInsideTransaction)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team WHERE name = 'Green'") == 0)
    }
  }
}
