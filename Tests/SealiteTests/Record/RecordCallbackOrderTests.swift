import Foundation
import Sealite
import Testing

/// The persistence callbacks a record received, in order.
private final class Events {
  var list: [String] = []
}

/// A record that logs every persistence callback, `around…` ones on entry
/// (`>`) and on exit (`<`). The log is not a column.
private struct Logged: Codable, FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "player"
  var id: Int64?
  var name: String
  var events = Events()
  enum CodingKeys: String, CodingKey { case id, name }

  init(id: Int64? = nil, name: String) {
    self.id = id
    self.name = name
  }

  mutating func willInsert(_ db: Database) throws { events.list.append("willInsert") }
  func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    events.list.append("aroundInsert>")
    let inserted = try insert()
    events.list.append("aroundInsert< \(inserted.rowID)")
  }
  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    events.list.append("didInsert \(inserted.rowID)")
  }
  func willUpdate(_ db: Database, columns: Set<String>) throws {
    events.list.append("willUpdate \(columns.sorted().joined(separator: ","))")
  }
  func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
    events.list.append("aroundUpdate> \(columns.sorted().joined(separator: ","))")
    _ = try update()
    events.list.append("aroundUpdate<")
  }
  func didUpdate(_ updated: PersistenceSuccess) { events.list.append("didUpdate") }
  func willSave(_ db: Database) throws { events.list.append("willSave") }
  func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
    events.list.append("aroundSave>")
    _ = try save()
    events.list.append("aroundSave<")
  }
  func didSave(_ saved: PersistenceSuccess) { events.list.append("didSave") }
  func willDelete(_ db: Database) throws { events.list.append("willDelete") }
  func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
    events.list.append("aroundDelete>")
    let deleted = try delete()
    events.list.append("aroundDelete< \(deleted)")
  }
  func didDelete(deleted: Bool) { events.list.append("didDelete \(deleted)") }
}

/// The same record, as a PersistableRecord (non-mutating insert and save).
private struct LoggedConstant: Encodable, PersistableRecord {
  static let databaseTableName = "player"
  var id: Int64
  var name: String
  let events = Events()
  enum CodingKeys: String, CodingKey { case id, name }

  func willInsert(_ db: Database) throws { events.list.append("willInsert") }
  func didInsert(_ inserted: InsertionSuccess) { events.list.append("didInsert \(inserted.rowID)") }
  func willUpdate(_ db: Database, columns: Set<String>) throws { events.list.append("willUpdate") }
  func didUpdate(_ updated: PersistenceSuccess) { events.list.append("didUpdate") }
  func willSave(_ db: Database) throws { events.list.append("willSave") }
  func didSave(_ saved: PersistenceSuccess) { events.list.append("didSave") }
}

/// The name of a stored player, logged in `events` when it is decoded; an
/// empty name is refused.
private struct StoredName: FetchableRecord, TableRecord {
  static let databaseTableName = "player"
  struct EmptyName: Error {}
  /// The log of the record being upserted (one test uses it).
  nonisolated(unsafe) static var events: Events?
  var name: String

  init(row: Row) throws {
    name = try row.decode(String.self, forColumn: "name")
    guard !name.isEmpty else {
      Self.events?.list.append("refused")
      throw EmptyName()
    }
    Self.events?.list.append("decoded \(name)")
  }
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  }
  return dbQueue
}

private func insertSequence(_ rowID: Int64) -> [String] {
  [
    "willSave", "aroundSave>", "willInsert", "aroundInsert>", "aroundInsert< \(rowID)", "didInsert \(rowID)",
    "aroundSave<", "didSave",
  ]
}

private func updateSequence(_ columns: String) -> [String] {
  [
    "willSave", "aroundSave>", "willUpdate \(columns)", "aroundUpdate> \(columns)", "aroundUpdate<",
    "didUpdate",
    "aroundSave<", "didSave",
  ]
}

@Suite("Record callback order")
struct RecordCallbackOrderTests {
  @Test(
    "insert and inserted run each callback once: willSave, aroundSave, willInsert, aroundInsert, didInsert, didSave"
  )
  func insert() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      try record.insert(db)
      #expect(record.events.list == insertSequence(1))
      let copy = try Logged(name: "Barbara").inserted(db)
      #expect(copy.events.list == insertSequence(2))
      #expect(copy.id == 2)
    }
  }

  @Test("update runs willSave once, and willUpdate and aroundUpdate with all the table's columns")
  func update() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      try record.insert(db)
      record.events.list = []
      record.name = "Arthur II"
      try record.update(db)
      #expect(record.events.list == updateSequence("id,name"))
      #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur II")
    }
  }

  @Test("update(columns:) and updateChanges give willUpdate and aroundUpdate the columns they write")
  func updateColumns() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      try record.insert(db)
      record.events.list = []
      try record.update(db, columns: ["name"])
      #expect(record.events.list == updateSequence("name"))
      record.events.list = []
      try record.updateChanges(db) { $0.name = "Arthur II" }
      #expect(record.events.list == updateSequence("name"))
      record.events.list = []
      // Nothing changed: no callback at all.
      #expect(try !record.updateChanges(db) { $0.name = "Arthur II" })
      #expect(record.events.list.isEmpty)
    }
  }

  @Test("save of a record without id runs the insert callbacks only")
  func saveInsert() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      try record.save(db)
      #expect(record.events.list == insertSequence(1))
    }
  }

  @Test("save of a record whose row exists runs the update callbacks only")
  func saveUpdate() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      try record.insert(db)
      record.events.list = []
      try record.save(db)
      #expect(record.events.list == updateSequence("id,name"))
    }
  }

  @Test(
    "save of a record whose row is missing runs willSave once, then the update that finds nothing, then the insert"
  )
  func saveFallback() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(id: 7, name: "Arthur")
      try record.save(db)
      #expect(
        record.events.list == [
          "willSave", "aroundSave>", "willUpdate id,name", "aroundUpdate> id,name",
          "willInsert", "aroundInsert>", "aroundInsert< 7", "didInsert 7", "aroundSave<", "didSave",
        ])
      #expect(try Int.fetchOne(db, sql: "SELECT id FROM player") == 7)
      let copy = try Logged(id: 8, name: "Barbara").saved(db)
      #expect(copy.events.list.filter { $0 == "willSave" }.count == 1)
    }
  }

  @Test("upsert runs the insert callbacks once each")
  func upsert() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(id: 3, name: "Arthur")
      try record.upsert(db)
      #expect(record.events.list == insertSequence(3))
      record.events.list = []
      record.name = "Arthur II"
      _ = try record.upsertAndFetch(db)
      #expect(record.events.list == insertSequence(3))
      #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 3") == "Arthur II")
    }
  }

  // GRDB decodes the stored row of an …AndFetch method inside the write: a
  // record that fails to decode stops the callbacks there, before didInsert
  // or didUpdate.
  @Test("The …AndFetch methods decode the stored row inside aroundInsert or aroundUpdate, before did…")
  func andFetchDecodesInsideTheWrite() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(id: 3, name: "Arthur")
      StoredName.events = record.events
      defer { StoredName.events = nil }
      func expectEvents(_ events: [String], _ write: () throws -> Void) throws {
        record.events.list = []
        try write()
        #expect(record.events.list == events)
      }
      let inserted = [
        "willSave", "aroundSave>", "willInsert", "aroundInsert>", "decoded Arthur", "aroundInsert< 3",
        "didInsert 3", "aroundSave<", "didSave",
      ]
      let updated = [
        "willSave", "aroundSave>", "willUpdate id,name", "aroundUpdate> id,name", "decoded Arthur",
        "aroundUpdate<", "didUpdate", "aroundSave<", "didSave",
      ]
      try expectEvents(inserted) { () throws in
        #expect(try record.insertAndFetch(db, as: StoredName.self).name == "Arthur")
      }
      try expectEvents(updated) { () throws in
        #expect(try record.updateAndFetch(db, as: StoredName.self).name == "Arthur")
      }
      try expectEvents(updated) { () throws in
        #expect(try record.saveAndFetch(db, as: StoredName.self).name == "Arthur")
      }
      try expectEvents(inserted) { () throws in
        #expect(try record.upsertAndFetch(db, as: StoredName.self).name == "Arthur")
      }
      // The `fetch` closure of the selection forms runs at the same place.
      try expectEvents(updated.map { $0 == "decoded Arthur" ? "fetched Arthur" : $0 }) {
        let name = try record.updateAndFetch(db, selection: [Column("name")]) { statement in
          let name = try String.fetchOne(statement)!
          record.events.list.append("fetched \(name)")
          return name
        }
        #expect(name == "Arthur")
      }
      // A refused row stops the callbacks where it is decoded; the write
      // itself ran.
      record.name = ""
      try expectEvents(["willSave", "aroundSave>", "willInsert", "aroundInsert>", "refused"]) { () throws in
        #expect(throws: StoredName.EmptyName.self) { try record.upsertAndFetch(db, as: StoredName.self) }
      }
      try expectEvents([
        "willSave", "aroundSave>", "willUpdate id,name", "aroundUpdate> id,name", "refused",
      ]) { () throws in
        #expect(throws: StoredName.EmptyName.self) { try record.updateAndFetch(db, as: StoredName.self) }
      }
      #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 3") == "")
    }
  }

  @Test("delete runs willDelete, aroundDelete and didDelete once each, whether a row was deleted or not")
  func delete() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      try record.insert(db)
      record.events.list = []
      #expect(try record.delete(db))
      #expect(record.events.list == ["willDelete", "aroundDelete>", "aroundDelete< true", "didDelete true"])
      record.events.list = []
      #expect(try !record.delete(db))
      #expect(
        record.events.list == ["willDelete", "aroundDelete>", "aroundDelete< false", "didDelete false"])
    }
  }

  @Test("The …AndFetch methods run the callbacks of the method they extend, once each")
  func andFetch() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Logged(name: "Arthur")
      _ = try record.insertAndFetch(db, as: Logged.self)
      #expect(record.events.list == insertSequence(1))
      record.events.list = []
      _ = try record.updateAndFetch(db)
      #expect(record.events.list == updateSequence("id,name"))
      record.events.list = []
      _ = try record.saveAndFetch(db, as: Logged.self)
      #expect(record.events.list == updateSequence("id,name"))
      var missing = Logged(id: 9, name: "Barbara")
      _ = try missing.saveAndFetch(db, as: Logged.self)
      #expect(missing.events.list.filter { $0 == "willSave" }.count == 1)
      #expect(missing.events.list.last == "didSave")
      let fresh = Logged(name: "Craig")
      let stored = try fresh.insertAndFetch(db)
      #expect(stored.id == 10)
      #expect(fresh.events.list == insertSequence(10))
    }
  }

  @Test("A non-mutating willSave is the callback GRDB calls; PersistableRecord callbacks run once each")
  func persistableRecord() throws {
    try makeDatabase().write { (db: Database) throws in
      let record = LoggedConstant(id: 1, name: "Arthur")
      try record.insert(db)
      #expect(record.events.list == ["willSave", "willInsert", "didInsert 1", "didSave"])
      let missing = LoggedConstant(id: 2, name: "Barbara")
      try missing.save(db)
      #expect(missing.events.list == ["willSave", "willUpdate", "willInsert", "didInsert 2", "didSave"])
      let existing = LoggedConstant(id: 2, name: "Barbara II")
      try existing.update(db)
      #expect(existing.events.list == ["willSave", "willUpdate", "didUpdate", "didSave"])
    }
  }

  @Test("A willSave that throws stops an update before anything is written")
  func willSaveVeto() throws {
    struct Guarded: Encodable, PersistableRecord {
      static let databaseTableName = "player"
      var id: Int64
      var name: String
      func willSave(_ db: Database) throws {
        if name.isEmpty { throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "empty name") }
      }
    }
    try makeDatabase().write { (db: Database) throws in
      try Guarded(id: 1, name: "Arthur").insert(db)
      #expect(throws: DatabaseError.self) { try Guarded(id: 1, name: "").update(db) }
      #expect(throws: DatabaseError.self) { try Guarded(id: 1, name: "").save(db) }
      #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
    }
  }

  @Test("What willInsert changes is what is inserted")
  func willInsertChangesAreEncoded() throws {
    struct Stamped: Codable, MutablePersistableRecord {
      static let databaseTableName = "player"
      var id: Int64?
      var name: String
      mutating func willInsert(_ db: Database) throws { name += " (new)" }
    }
    try makeDatabase().write { (db: Database) throws in
      var record = Stamped(id: nil, name: "Arthur")
      try record.insert(db)
      #expect(record.name == "Arthur (new)")
      #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur (new)")
    }
  }
}
