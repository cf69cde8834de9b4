import Foundation
import Sealite
import Testing

/// A player that takes its id on insertion; the table adds a `bonus` column
/// with a default.
private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
  var id: Int64?
  var name: String
  var score: Int

  enum Columns {
    static let id = Column("id")
    static let name = Column("name")
    static let score = Column("score")
    static let bonus = Column("bonus")
  }

  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The full row of the player table.
private struct PlayerInfo: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "player"
  var id: Int64
  var name: String
  var score: Int
  var bonus: Int
}

/// A record with its id set before insertion, in a table with an AFTER
/// INSERT trigger (the …AndFetch methods then read the row back instead of
/// using RETURNING).
private struct Event: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var title: String

  enum Columns {
    static let title = Column("title")
    static let createdAt = Column("createdAt")
    static let stamp = Column("stamp")
  }
}

private let schema = """
  CREATE TABLE player (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    score INTEGER NOT NULL,
    bonus INTEGER NOT NULL DEFAULT 5);
  CREATE TABLE event (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    createdAt TEXT NOT NULL DEFAULT 'today',
    stamp TEXT);
  CREATE TRIGGER event_stamp AFTER INSERT ON event BEGIN
    UPDATE event SET stamp = 'stamped ' || NEW.title WHERE id = NEW.id;
  END;
  """

/// The INSERT, UPDATE and DELETE statements `body` runs.
private func writes(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
  let capture = SQLCapture(on: db)
  defer { capture.stop(db) }
  try body()
  return capture.writes
}

@Suite("GRDB 7.8 record API: …AndFetch with a selection, updateChangesAndFetch")
struct RecordSelectionFetchTests {
  @Test(
    "insertAndFetch(_:selection:fetch:) inserts once and fetches the stored values",
    arguments: RecordAPIWriter.allCases)
  func insertAndFetchSelection(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        var bonus: Int?
        let sql = try writes(db) { () throws in
          bonus = try player.insertAndFetch(db, selection: [Column("bonus"), Column("score") * 2]) {
            statement in
            let row = try Row.fetchOne(statement)!
            #expect(row["score * 2"] as Int? == 20 || row.databaseValues[1] == 20.databaseValue)
            return row["bonus"] as Int?
          }
        }
        #expect(bonus == 5)
        #expect(player.id == 1)
        #expect(sql.count == 1)
        #expect(sql.first?.hasPrefix("INSERT") == true)
        #expect(try PlayerInfo.fetchOne(db, key: 1) == PlayerInfo(id: 1, name: "Arthur", score: 10, bonus: 5))
      }
    }
  }

  @Test(
    "A selection of all columns but some names the record table's other columns",
    arguments: RecordAPIWriter.allCases)
  func allColumnsExcluding(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        let inserted = try player.insertAndFetch(db, selection: [.allColumns(excluding: ["score", "name"])]) {
          try Row.fetchOne($0)!
        }
        #expect(inserted.columnNames == ["id", "bonus"])
        #expect(inserted["bonus"] as Int? == 5)
        player.score = 11
        let saved = try player.saveAndFetch(db, selection: [.allColumns(excluding: ["id"])]) {
          try Row.fetchOne($0)!
        }
        #expect(saved.columnNames == ["name", "score", "bonus"])
        #expect(saved["score"] as Int? == 11)
        // The same selection, another table: its own columns.
        let event = Event(id: 3, title: "launch")
        let stored = try event.insertAndFetch(db, selection: [.allColumns(excluding: ["id"])]) {
          try Row.fetchOne($0)!
        }
        #expect(stored.columnNames == ["title", "createdAt", "stamp"])
      }
    }
  }

  @Test(
    "insertAndFetch(_:fetch:select:) selects from the record's columns", arguments: RecordAPIWriter.allCases)
  func insertAndFetchSelect(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Barbara", score: 3)
        let values = try player.insertAndFetch(db, fetch: { try Row.fetchOne($0)! }) { [$0.id, $0.bonus] }
        #expect(values["id"] as Int64? == player.id)
        #expect(values["bonus"] as Int? == 5)
        // The non-mutating form of PersistableRecord, in a table with a trigger.
        let event = Event(id: 7, title: "launch")
        let stamp = try event.insertAndFetch(db, fetch: { try String.fetchOne($0) }) { [$0.stamp] }
        #expect(stamp == "stamped launch")
        let createdAt = try Event(id: 8, title: "party").insertAndFetch(
          db, selection: [Event.Columns.createdAt]
        ) { try String.fetchOne($0) }
        #expect(createdAt == "today")
      }
    }
  }

  @Test(
    "An insert ignored by its conflict resolution gives fetch a statement without a row; as: throws recordNotFound",
    arguments: RecordAPIWriter.allCases)
  func insertAndFetchIgnored(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var first = Player(id: 1, name: "Arthur", score: 1)
        try first.insert(db)
        var duplicate = Player(id: 1, name: "Other", score: 2)
        let score = try duplicate.insertAndFetch(db, onConflict: .ignore, selection: [Column("score")]) {
          try Int.fetchOne($0)
        }
        #expect(score == nil)
        #expect(throws: RecordError.self) {
          try duplicate.insertAndFetch(db, onConflict: .ignore, as: PlayerInfo.self)
        }
        #expect(try PlayerInfo.fetchOne(db, key: 1)?.name == "Arthur")
      }
    }
  }

  @Test(
    "saveAndFetch(_:selection:fetch:) inserts a new record and updates a stored one",
    arguments: RecordAPIWriter.allCases)
  func saveAndFetchSelection(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        let inserted = try writes(db) { () throws in
          let bonus = try player.saveAndFetch(db, selection: [Column("bonus")]) { try Int.fetchOne($0) }
          #expect(bonus == 5)
        }
        #expect(inserted.count == 1 && inserted[0].hasPrefix("INSERT"))
        #expect(player.id == 1)
        player.score = 20
        let updated = try writes(db) { () throws in
          let score = try player.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
          #expect(score == 20)
        }
        #expect(updated.count == 1 && updated[0].hasPrefix("UPDATE"))
        let event = Event(id: 3, title: "fair")
        let stamp = try event.saveAndFetch(db, selection: [Column("stamp")]) { try String.fetchOne($0) }
        #expect(stamp == "stamped fair")
      }
    }
  }

  @Test(
    "updateAndFetch with a selection writes all or the given columns", arguments: RecordAPIWriter.allCases)
  func updateAndFetchSelection(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        try player.insert(db)
        player.name = "Arthur II"
        player.score = 11
        var sql = try writes(db) { () throws in
          let info = try player.updateAndFetch(db, selection: [AllColumns()]) { try PlayerInfo.fetchOne($0) }
          #expect(info == PlayerInfo(id: 1, name: "Arthur II", score: 11, bonus: 5))
        }
        #expect(sql.count == 1 && sql[0].contains("\"name\"=?") && sql[0].contains("\"score\"=?"))

        player.name = "Ignored"
        player.score = 12
        sql = try writes(db) { () throws in
          let row = try player.updateAndFetch(
            db, columns: ["score"], selection: [Column("name"), Column("score")]
          ) {
            try Row.fetchOne($0)!
          }
          #expect(row["name"] as String? == "Arthur II")
          #expect(row["score"] as Int? == 12)
        }
        #expect(sql.count == 1 && sql[0].contains("\"score\"=?") && !sql[0].contains("\"name\"=?"))

        player.score = 13
        let score = try player.updateAndFetch(
          db, columns: [Player.Columns.score], selection: [Player.Columns.score]
        ) { try Int.fetchOne($0) }
        #expect(score == 13)

        // A selection that binds values (in RETURNING, or in the read of the row).
        player.name = "Arthur II"
        player.score = 14
        let plus = try player.updateAndFetch(db, selection: [Column("score") + 100]) { try Int.fetchOne($0) }
        #expect(plus == 114)
        #expect(try PlayerInfo.fetchOne(db, key: 1)?.name == "Arthur II")
      }
    }
  }

  @Test(
    "updateAndFetch with a selection throws recordNotFound for a missing row",
    arguments: RecordAPIWriter.allCases)
  func updateAndFetchMissing(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        let player = Player(id: 99, name: "Nobody", score: 0)
        do {
          _ = try player.updateAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
          Issue.record("expected recordNotFound")
        } catch let error as RecordError {
          #expect(error == .recordNotFound(databaseTableName: "player", key: ["id": 99.databaseValue]))
          #expect(error.description == "Key not found in table player: [id:99]")
        }
      }
    }
  }

  @Test(
    "updateChangesAndFetch writes only the changed columns and returns the stored record",
    arguments: RecordAPIWriter.allCases)
  func updateChangesAndFetch(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        try player.insert(db)
        var stored: Player?
        let sql = try writes(db) { () throws in
          stored = try player.updateChangesAndFetch(db) { $0.score = 15 }
        }
        #expect(stored == Player(id: 1, name: "Arthur", score: 15))
        #expect(player.score == 15)
        #expect(sql.count == 1)
        #expect(sql[0].contains("SET \"score\"=?") && !sql[0].contains("\"name\"=?"))

        let info = try player.updateChangesAndFetch(db, as: PlayerInfo.self) { $0.name = "Arthur II" }
        #expect(info == PlayerInfo(id: 1, name: "Arthur II", score: 15, bonus: 5))

        let bonus = try player.updateChangesAndFetch(
          db, selection: [Player.Columns.bonus], fetch: { try Int.fetchOne($0) }
        ) { $0.score += 1 }
        #expect(bonus == 5)
        #expect(try PlayerInfo.fetchOne(db, key: 1)?.score == 16)
      }
    }
  }

  @Test(
    "updateChangesAndFetch returns nil and runs no statement when nothing changed",
    arguments: RecordAPIWriter.allCases)
  func updateChangesAndFetchNoChange(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        try player.insert(db)
        var fetched = false
        let statements = try capturedSQL(db) { () throws in
          #expect(try player.updateChangesAndFetch(db) { $0.score = 10 } == nil)
          #expect(try player.updateChangesAndFetch(db, as: PlayerInfo.self) { _ in } == nil)
          let result = try player.updateChangesAndFetch(
            db, selection: [Column("score")],
            fetch: { statement -> Int? in
              fetched = true
              return try Int.fetchOne(statement)
            }
          ) { $0.name = "Arthur" }
          #expect(result == nil)
        }
        #expect(statements.isEmpty)
        #expect(!fetched)
      }
    }
  }

  @Test("updateChangesAndFetch of a missing row throws recordNotFound", arguments: RecordAPIWriter.allCases)
  func updateChangesAndFetchMissing(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: 5, name: "Ghost", score: 0)
        #expect(throws: RecordError.recordNotFound(databaseTableName: "player", key: ["id": 5.databaseValue]))
        {
          try player.updateChangesAndFetch(db) { $0.score = 1 }
        }
      }
    }
  }

  @Test(
    "upsertAndFetch compiles and runs with GRDB 7.8's arguments (no updating:)",
    arguments: RecordAPIWriter.allCases)
  func upsertAndFetchGRDB78Spelling(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.write { (db: Database) throws in
        var player = Player(id: nil, name: "Arthur", score: 10)
        let first = try player.upsertAndFetch(db)
        #expect(first.name == "Arthur" && first.score == 10)
        var again = Player(id: nil, name: "Arthur", score: 50)
        let upserted = try again.upsertAndFetch(db, onConflict: ["name"]) { _ in
          [Player.Columns.bonus.set(to: 9)]
        }
        #expect(upserted.id == first.id)
        #expect(upserted.score == 50)
        var third = Player(id: nil, name: "Arthur", score: 70)
        let info = try third.upsertAndFetch(db, as: PlayerInfo.self, onConflict: ["name"]) { excluded in
          [Player.Columns.score.set(to: excluded[Player.Columns.score] + 1)]
        }
        #expect(info == PlayerInfo(id: first.id!, name: "Arthur", score: 71, bonus: 9))
        let event = try Event(id: 1, title: "launch").upsertAndFetch(db, onConflict: [], doUpdate: nil)
        #expect(event == Event(id: 1, title: "launch"))
        let row = try Event(id: 1, title: "relaunch").upsertAndFetch(
          db, as: PlayerInfoOfEvent.self, onConflict: ["id"])
        #expect(row.title == "relaunch")
      }
    }
  }

  @Test("databaseChanges(modify:) modifies the record and returns the old values of changed columns")
  func databaseChangesModify() throws {
    var player = Player(id: 1, name: "Arthur", score: 10)
    let changes = try player.databaseChanges {
      $0.score = 10
      $0.name = "Barbara"
    }
    #expect(player.name == "Barbara")
    #expect(changes == ["name": "Arthur".databaseValue])
    #expect(try player.databaseChanges { _ in }.isEmpty)
  }

  @Test("PersistenceContainer is a random-access collection of columns and values, in order")
  func persistenceContainerCollection() throws {
    var container = PersistenceContainer()
    container["id"] = 1
    container["name"] = "Arthur"
    container["ID"] = 2
    let start: PersistenceContainer.Index = container.startIndex
    #expect(start == 0)
    #expect(container.endIndex == 2)
    #expect(container.count == 2)
    #expect(container.map(\.0) == ["id", "name"])
    #expect(container.map(\.1) == [2.databaseValue, "Arthur".databaseValue])
    #expect(container[1].0 == "name")
    #expect(container["name"]?.databaseValue == "Arthur".databaseValue)
    #expect(PersistenceContainer().isEmpty)
  }
}

/// The event table, read as another type.
private struct PlayerInfoOfEvent: Decodable, FetchableRecord, TableRecord {
  static let databaseTableName = "event"
  var id: Int64
  var title: String
  var stamp: String?
}
