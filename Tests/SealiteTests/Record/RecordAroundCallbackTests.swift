import Foundation
import Sealite
import Testing

/// How a record's `around…` callbacks misbehave.
private enum Misuse {
  case none
  /// The callback returns without calling its action.
  case skipsAction
  /// The callback calls its action and swallows its error.
  case swallowsError
  /// The callback calls its action twice.
  case callsTwice
}

/// Which callback misbehaves.
private enum Callback {
  case aroundSave, aroundInsert, aroundUpdate, aroundDelete
}

private final class Calls {
  var didInsert = 0
  var didUpdate = 0
  var didSave = 0
  var didDelete = 0
  var lastInsertedRowID: Int64?
}

/// A record whose `around…` callbacks can be made to misbehave.
private struct Record: Codable, FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "item"
  var id: Int64?
  var name: String
  var misuse: Misuse = .none
  var callback: Callback = .aroundSave
  let calls = Calls()
  enum CodingKeys: String, CodingKey { case id, name }

  init(id: Int64? = nil, name: String, misuse: Misuse = .none, in callback: Callback = .aroundSave) {
    self.id = id
    self.name = name
    self.misuse = misuse
    self.callback = callback
  }

  private func run<T>(_ callback: Callback, _ action: () throws -> T) throws {
    guard callback == self.callback else {
      _ = try action()
      return
    }
    switch misuse {
    case .none: _ = try action()
    case .skipsAction: break
    case .swallowsError: _ = try? action()
    case .callsTwice:
      _ = try action()
      _ = try action()
    }
  }

  func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { try run(.aroundSave, save) }
  func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    try run(.aroundInsert, insert)
  }
  func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
    try run(.aroundUpdate, update)
  }
  func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { try run(.aroundDelete, delete) }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
    calls.didInsert += 1
    calls.lastInsertedRowID = inserted.rowID
  }
  func didUpdate(_ updated: PersistenceSuccess) { calls.didUpdate += 1 }
  func didSave(_ saved: PersistenceSuccess) { calls.didSave += 1 }
  func didDelete(deleted: Bool) { calls.didDelete += 1 }
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE part (id INTEGER PRIMARY KEY, itemId INTEGER REFERENCES item(id) ON DELETE RESTRICT);
        INSERT INTO item (id, name) VALUES (1, 'bolt');
        """)
  }
  return dbQueue
}

/// Expects SQLITE_MISUSE, the error of an `around…` callback that does not
/// run its action or hides its failure.
private func expectMisuse(_ operation: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
  let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) { try operation() }
  #expect(error?.resultCode == .SQLITE_MISUSE, sourceLocation: sourceLocation)
}

private func names(_ db: Database) throws -> [String] {
  try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id")
}

@Suite("Record around callbacks")
struct RecordAroundCallbackTests {
  @Test("aroundInsert receives the insertion success after the statement ran, before didInsert")
  func aroundInsertSeesSuccess() throws {
    struct Wrapped: Codable, MutablePersistableRecord {
      static let databaseTableName = "item"
      var id: Int64?
      var name: String
      func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 1)
        let inserted = try insert()
        #expect(inserted.rowIDColumn == "id")
        #expect(inserted.persistenceContainer["id"]?.databaseValue == inserted.rowID.databaseValue)
        #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 2)
        #expect(id == nil)
      }
      mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }
    try makeDatabase().write { (db: Database) throws in
      var record = Wrapped(id: nil, name: "nut")
      try record.insert(db)
      #expect(record.id == 2)
    }
  }

  @Test("An around callback that rethrows lets the original error through, and no did… callback runs")
  func rethrownError() throws {
    try makeDatabase().write { (db: Database) throws in
      var duplicate = Record(name: "bolt")
      let error = #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
      #expect(error?.resultCode == .SQLITE_CONSTRAINT)
      #expect(duplicate.calls.didInsert == 0)
      #expect(duplicate.calls.didSave == 0)
    }
  }

  @Test(
    "An around callback that does not call its action makes the method throw SQLITE_MISUSE; nothing is written"
  )
  func skippedAction() throws {
    try makeDatabase().write { (db: Database) throws in
      for callback in [Callback.aroundSave, .aroundInsert] {
        var record = Record(name: "nut", misuse: .skipsAction, in: callback)
        expectMisuse { try record.insert(db) }
        expectMisuse { _ = try record.insertAndFetch(db, as: Record.self) }
        expectMisuse { try record.upsert(db) }
        #expect(record.calls.didInsert == 0)
        #expect(record.calls.didSave == 0)
      }
      for callback in [Callback.aroundSave, .aroundUpdate] {
        let record = Record(id: 1, name: "screw", misuse: .skipsAction, in: callback)
        expectMisuse { try record.update(db) }
        expectMisuse { _ = try record.updateAndFetch(db, as: Record.self) }
        var copy = record
        expectMisuse { try copy.save(db) }
        #expect(record.calls.didUpdate == 0)
        #expect(record.calls.didSave == 0)
      }
      let record = Record(id: 1, name: "bolt", misuse: .skipsAction, in: .aroundDelete)
      expectMisuse { try record.delete(db) }
      #expect(record.calls.didDelete == 0)
      #expect(try names(db) == ["bolt"])
    }
  }

  @Test("An around callback that swallows the error of its action makes the method throw SQLITE_MISUSE")
  func swallowedError() throws {
    try makeDatabase().write { (db: Database) throws in
      // The insert fails: the name is taken.
      for callback in [Callback.aroundSave, .aroundInsert] {
        var record = Record(name: "bolt", misuse: .swallowsError, in: callback)
        expectMisuse { try record.insert(db) }
        #expect(record.calls.didInsert == 0)
      }
      // The update fails: no row has the key.
      for callback in [Callback.aroundSave, .aroundUpdate] {
        let record = Record(id: 42, name: "ghost", misuse: .swallowsError, in: callback)
        expectMisuse { try record.update(db) }
        #expect(record.calls.didUpdate == 0)
      }
      // The delete fails: a part refers to the item (foreign keys are on by default).
      try db.execute(sql: "INSERT INTO part (itemId) VALUES (1)")
      let record = Record(id: 1, name: "bolt", misuse: .swallowsError, in: .aroundDelete)
      expectMisuse { try record.delete(db) }
      #expect(record.calls.didDelete == 0)
      #expect(try names(db) == ["bolt"])
    }
  }

  @Test("save falls back to insert only when the update's recordNotFound comes out of aroundUpdate")
  func saveFallbackNeedsRethrow() throws {
    try makeDatabase().write { (db: Database) throws in
      var record = Record(id: 5, name: "nut", misuse: .swallowsError, in: .aroundUpdate)
      expectMisuse { try record.save(db) }
      #expect(try names(db) == ["bolt"])
      var wellBehaved = Record(id: 5, name: "nut")
      try wellBehaved.save(db)
      #expect(try names(db) == ["bolt", "nut"])
      #expect(wellBehaved.calls.didInsert == 1)
      #expect(wellBehaved.calls.didUpdate == 0)
    }
  }

  @Test("save inserts only when its own row is missing, not when its aroundUpdate misses another row")
  func saveFallbackNeedsItsOwnKey() throws {
    try DatabaseQueue().write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE chained (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.execute(sql: "INSERT INTO chained VALUES (1, 'first')")
      do {
        try ChainedRecord(id: 1, name: "renamed").save(db)
        Issue.record("save succeeded although the other row is missing")
      } catch RecordError.recordNotFound(databaseTableName: "chained", key: let key) {
        #expect(key == ["id": 1001.databaseValue])
      }
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM chained ORDER BY id") == [1])
      // A record whose own row is missing is inserted.
      try ChainedRecord(id: 2, name: "second", touchesOther: false).save(db)
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM chained ORDER BY id") == [1, 2])
    }
  }

  @Test(
    "An around callback that calls its action twice runs the statement twice, as GRDB does; did… runs once")
  func actionCalledTwice() throws {
    try makeDatabase().write { (db: Database) throws in
      try db.execute(
        sql: "DROP TABLE part; DROP TABLE item; CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
      var record = Record(name: "nut", misuse: .callsTwice, in: .aroundInsert)
      try record.insert(db)
      #expect(try names(db) == ["nut", "nut"])
      #expect(record.calls.didInsert == 1)
      #expect(record.calls.lastInsertedRowID == 2)
      #expect(record.id == 2)
      #expect(record.calls.didSave == 1)
    }
  }
}

/// A record whose update also updates another row of its table, which may be missing.
private struct ChainedRecord: Codable, PersistableRecord {
  static let databaseTableName = "chained"
  var id: Int64
  var name: String
  var touchesOther = true

  enum CodingKeys: String, CodingKey { case id, name }

  init(id: Int64, name: String, touchesOther: Bool = true) {
    self.id = id
    self.name = name
    self.touchesOther = touchesOther
  }

  func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
    _ = try update()
    if touchesOther { try ChainedRecord(id: id + 1000, name: "other", touchesOther: false).update(db) }
  }
}
