import Foundation
import Sealite
import Testing

// `exists(db)`, `delete(db)` and `save(db)` find a record's key where the
// connection's key statements say it is among the record's columns: these
// tests show that they find the right row whatever the order and the case of
// the columns a record encodes, a key that is missing or NULL finds none
// without running a statement, and a schema change is seen at once.

private struct Counter: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  var hits: Int
}

/// A row of `pair`, whose key is (a, b), encoded in another order than the
/// table's and in upper case.
private struct Pair: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "pair"
  var value: Int
  var b: String?
  var a: Int

  enum CodingKeys: String, CodingKey {
    case value = "VALUE"
    case b = "B"
    case a = "A"
  }
}

/// A record of `pair` that does not encode the key's column b.
private struct HalfPair: Codable, PersistableRecord {
  static let databaseTableName = "pair"
  var a: Int
  var value: Int
}

/// A record of `counter` that encodes its key alone.
private struct KeyOnly: Codable, PersistableRecord {
  static let databaseTableName = "counter"
  var id: Int64
}

/// A record whose key is NULL until it is inserted.
private struct Note: Codable, PersistableRecord {
  var id: Int64?
  var text: String
}

private func makeTables(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE counter (id INTEGER PRIMARY KEY, name TEXT NOT NULL, hits INTEGER NOT NULL);
      CREATE TABLE pair (a INTEGER NOT NULL, b TEXT, value INTEGER NOT NULL, PRIMARY KEY (a, b));
      CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
      """)
}

/// Runs `body` in a write access of a new in-memory database with the tables.
private func inTables(_ body: (Database) throws -> Void) throws {
  try DatabaseQueue().write { db in
    try makeTables(db)
    try body(db)
  }
}

@Suite("exists, delete and save find the record's key through the connection's key statements")
struct RecordKeyStatementsTests {
  @Test("exists and delete run one statement per call, made once for the record's table and columns")
  func oneStatementPerCall() throws {
    try inTables { db in
      for id in 1...3 { try Counter(id: Int64(id), name: "c\(id)", hits: id).insert(db) }
      _ = try Counter(id: 1, name: "", hits: 0).exists(db)
      var found: [Bool] = []
      let exists = try capturedSQL(db) {
        for id in 2...4 { found.append(try Counter(id: Int64(id), name: "", hits: 0).exists(db)) }
      }
      #expect(found == [true, true, false])
      #expect(
        exists == Array(repeating: "SELECT EXISTS (SELECT 1 FROM \"counter\" WHERE \"id\"=?)", count: 3))
      var deleted: [Bool] = []
      let delete = try capturedSQL(db) {
        for id in [2, 2, 3] { deleted.append(try Counter(id: Int64(id), name: "", hits: 0).delete(db)) }
      }
      #expect(deleted == [true, false, true])
      #expect(delete == Array(repeating: "DELETE FROM \"counter\" WHERE \"id\"=?", count: 3))
      #expect(try Counter.fetchAll(db) == [Counter(id: 1, name: "c1", hits: 1)])
    }
  }

  @Test("a composite key encoded in another order and case finds its row only")
  func compositeKey() throws {
    try inTables { db in
      try Pair(value: 1, b: "x", a: 1).insert(db)
      try Pair(value: 2, b: "y", a: 1).insert(db)
      try Pair(value: 3, b: "x", a: 2).insert(db)
      #expect(try Pair(value: 0, b: "x", a: 1).exists(db))
      #expect(try Pair(value: 0, b: "y", a: 1).exists(db))
      #expect(try !Pair(value: 0, b: "y", a: 2).exists(db))
      #expect(try Pair(value: 0, b: "y", a: 1).delete(db))
      #expect(try !Pair(value: 0, b: "y", a: 1).delete(db))
      let rest = try Row.fetchAll(db, sql: "SELECT a, b, value FROM pair ORDER BY a, b")
      #expect(rest == [["a": 1, "b": "x", "value": 1], ["a": 2, "b": "x", "value": 3]])
      // save: the update finds the row by both columns.
      try Pair(value: 9, b: "x", a: 2).save(db)
      #expect(try Int.fetchOne(db, sql: "SELECT value FROM pair WHERE a = 2 AND b = 'x'") == 9)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pair") == 2)
    }
  }

  @Test("a key column the record does not encode, or a NULL one, finds no row, and runs no statement")
  func incompleteKey() throws {
    try inTables { db in
      try Pair(value: 1, b: "x", a: 1).insert(db)
      try db.execute(sql: "INSERT INTO pair (a, b, value) VALUES (1, NULL, 2)")
      try db.execute(sql: "INSERT INTO note (id, text) VALUES (1, 'kept')")
      var results: [Bool] = []
      let statements = try capturedSQL(db) {
        // Another record of the same table, without the column b.
        results.append(try HalfPair(a: 1, value: 0).exists(db))
        results.append(try HalfPair(a: 1, value: 0).delete(db))
        // b is NULL: no row has such a key (NULL equals nothing).
        results.append(try Pair(value: 0, b: nil, a: 1).exists(db))
        results.append(try Pair(value: 0, b: nil, a: 1).delete(db))
        results.append(try Note(id: nil, text: "").exists(db))
        results.append(try Note(id: nil, text: "").delete(db))
      }
      #expect(results == Array(repeating: false, count: 6))
      // (The schema is read, the first time, to find where the key is.)
      #expect(!statements.contains { $0.hasPrefix("SELECT 1 ") || $0.hasPrefix("DELETE") }, "\(statements)")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pair") == 2)
      // The records with the full key still find their rows.
      #expect(try Pair(value: 0, b: "x", a: 1).exists(db))
      #expect(try Note(id: 1, text: "").exists(db))
    }
  }

  @Test("save inserts a record with a NULL key, and updates one whose key has a row")
  func saveByKeyValue() throws {
    try inTables { db in
      try Note(id: nil, text: "first").save(db)
      try Note(id: nil, text: "second").save(db)
      try Note(id: 1, text: "first, edited").save(db)
      // A non-NULL key without a row: the update finds none, the save inserts.
      try Note(id: 10, text: "tenth").save(db)
      let notes = try Row.fetchAll(db, sql: "SELECT id, text FROM note ORDER BY id")
      #expect(
        notes == [
          ["id": 1, "text": "first, edited"], ["id": 2, "text": "second"], ["id": 10, "text": "tenth"],
        ])
    }
  }

  @Test("a table made again with another key: exists, delete and save use the new key")
  func tableRecreated() throws {
    try inTables { db in
      try Counter(id: 1, name: "a", hits: 1).insert(db)
      #expect(try Counter(id: 1, name: "other", hits: 0).exists(db))
      #expect(try !Counter(id: 2, name: "a", hits: 0).delete(db))
      try Counter(id: 1, name: "a", hits: 2).save(db)
      try db.execute(sql: "DROP TABLE counter")
      try db.execute(
        sql: "CREATE TABLE counter (id INTEGER NOT NULL, name TEXT PRIMARY KEY, hits INTEGER NOT NULL)")
      try Counter(id: 7, name: "a", hits: 1).insert(db)
      // The key is now the name: the id is a column like any other.
      #expect(try Counter(id: 99, name: "a", hits: 0).exists(db))
      #expect(try !Counter(id: 7, name: "b", hits: 0).exists(db))
      try Counter(id: 8, name: "a", hits: 5).save(db)
      #expect(try Counter.fetchAll(db) == [Counter(id: 8, name: "a", hits: 5)])
      #expect(try Counter(id: 99, name: "a", hits: 0).delete(db))
      #expect(try Counter.fetchCount(db) == 0)
    }
  }

  @Test("a delete through the kept statement is heard by transaction observers")
  func deleteIsObserved() throws {
    let dbQueue = try DatabaseQueue()
    let observer = RecordingObserver(tables: ["counter"])
    try dbQueue.write { db in
      try makeTables(db)
      try Counter(id: 1, name: "a", hits: 1).insert(db)
      try Counter(id: 2, name: "b", hits: 1).insert(db)
      try Counter(id: 1, name: "", hits: 0).delete(db)
    }
    dbQueue.add(transactionObserver: observer)
    let deleted = try dbQueue.write { db in
      [try Counter(id: 2, name: "", hits: 0).delete(db), try Counter(id: 3, name: "", hits: 0).delete(db)]
    }
    #expect(deleted == [true, false])
    #expect(observer.rows == ["delete counter 2"])
    #expect(observer.commitCount == 1)
  }

  @Test("exists and delete of a record whose table does not exist throw the database's error")
  func missingTable() throws {
    try DatabaseQueue().write { db in
      for call in [
        { _ = try Counter(id: 1, name: "", hits: 0).exists(db) },
        { _ = try Counter(id: 1, name: "", hits: 0).delete(db) },
      ] {
        let error = #expect(throws: DatabaseError.self) { try call() }
        #expect(error?.message?.contains("counter") == true, "\(String(describing: error))")
      }
    }
  }

  @Test("exists(db, key:) and deleteOne(db, key:) run one kept statement per call and find their row only")
  func staticKeyMethods() throws {
    try inTables { db in
      for id in 1...3 { try Counter(id: Int64(id), name: "c\(id)", hits: id).insert(db) }
      _ = try Counter.exists(db, key: 1)
      _ = try Counter.deleteOne(db, key: 10)
      var results: [Bool] = []
      let statements = try capturedSQL(db) {
        results.append(try Counter.exists(db, key: 2))
        results.append(try Counter.exists(db, key: 4))
        results.append(try Counter.deleteOne(db, key: 2))
        results.append(try Counter.deleteOne(db, key: 2))
        results.append(try Counter.exists(db, key: 2))
        // A NULL key finds no row, and runs nothing.
        results.append(try Counter.exists(db, key: Int?.none))
        results.append(try Counter.deleteOne(db, key: Int?.none))
      }
      #expect(results == [true, false, true, false, false, false, false])
      // A key given as a value is written as GRDB's query interface writes
      // it; a record's own statements as GRDB's record SQL (`"id"=?`).
      let exists = "SELECT EXISTS (SELECT * FROM \"counter\" WHERE \"id\" = ?)"
      let delete = "DELETE FROM \"counter\" WHERE \"id\" = ?"
      #expect(statements == [exists, exists, delete, delete, exists])
      #expect(try Counter.fetchAll(db).map(\.id) == [1, 3])
      // A record of the key's column alone runs its own statements, and finds the same rows.
      #expect(try KeyOnly(id: 3).exists(db) && KeyOnly(id: 3).delete(db) && !Counter.exists(db, key: 3))
    }
  }

  @Test("a key given as one value for a composite primary key is a misuse error; a missing table, its error")
  func staticKeyErrors() throws {
    try inTables { db in
      for call in [{ _ = try Pair.exists(db, key: 1) }, { _ = try Pair.deleteOne(db, key: 1) }] {
        let error = #expect(throws: DatabaseError.self) { try call() }
        #expect(error?.resultCode == .SQLITE_MISUSE, "\(String(describing: error))")
        #expect(
          error?.message?.contains("composite primary key (a, b)") == true, "\(String(describing: error))")
      }
      try db.execute(sql: "DROP TABLE counter")
      for call in [{ _ = try Counter.exists(db, key: 1) }, { _ = try Counter.deleteOne(db, key: 1) }] {
        let error = #expect(throws: DatabaseError.self) { try call() }
        #expect(error?.message?.contains("counter") == true, "\(String(describing: error))")
      }
    }
  }

  @Test("an observation of exists(db, key: 1) is refreshed by a change of rowid 1, not of rowid 2")
  func staticExistsRegion() async throws {
    let dbQueue = try DatabaseQueue()
    try await dbQueue.write { db in
      try makeTables(db)
      try Counter(id: 1, name: "a", hits: 0).insert(db)
      try Counter(id: 2, name: "b", hits: 0).insert(db)
    }
    let changes = Locked(0)
    let observation = ValueObservation.tracking { db in try Counter.exists(db, key: 1) }
      .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
    let recorder = ValueRecorder<Bool>()
    let cancellable = recorder.start(observation, in: dbQueue)
    #expect(await eventually { recorder.values.value == [true] })
    try await dbQueue.write { db in _ = try Counter.deleteOne(db, key: 2) }
    #expect(changes.value == 0)
    try await dbQueue.write { db in _ = try Counter.deleteOne(db, key: 1) }
    #expect(await eventually { recorder.values.value == [true, false] })
    withExtendedLifetime(cancellable) {}
  }
}
