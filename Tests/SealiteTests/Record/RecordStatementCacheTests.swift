import Foundation
import Sealite
import Testing

// Upsert, update and save build their statements once per connection and
// forget them when the schema changes: these tests show both halves (one
// statement per call, no schema query, no savepoint; and a trigger, a new
// primary key or a new column seen at once).

private struct Counter: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  var hits: Int
}

private func makeCounterTable(_ db: Database) throws {
  try db.execute(
    sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY, name TEXT NOT NULL, hits INTEGER NOT NULL)")
}

/// The name and hits of a counter, with the columns of the row it was read from.
private struct CounterHits: FetchableRecord, TableRecord {
  static let databaseTableName = "counter"
  static var databaseSelection: [any SQLSelectable] { [Column("name"), Column("hits")] }
  var columns: [String]
  var name: String
  var hits: Int

  init(row: Row) throws {
    columns = Array(row.columnNames)
    name = row["name"]
    hits = row["hits"]
  }
}

@Suite("Record statements built once per connection, and forgotten on schema changes")
struct RecordStatementCacheTests {
  @Test(
    "a repeated upsert, update or save runs only its own statement: no schema query, no savepoint",
    arguments: [false, true])
  func oneStatementPerCall(pool: Bool) throws {
    let directory = TemporaryDirectory()
    let writer: any DatabaseWriter =
      pool
      ? try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
      : try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try writer.write { db in
      try makeCounterTable(db)
      // The first calls build the statements and read the schema.
      try Counter(id: 1, name: "a", hits: 0).upsert(db)
      try Counter(id: 1, name: "a", hits: 1).update(db)
      try Counter(id: 1, name: "a", hits: 2).save(db)
      _ = try Counter(id: 1, name: "a", hits: 3).upsertAndFetch(db)
      let upsert = try capturedSQL(db) { try Counter(id: 1, name: "b", hits: 4).upsert(db) }
      let update = try capturedSQL(db) { try Counter(id: 1, name: "c", hits: 5).update(db) }
      let save = try capturedSQL(db) { try Counter(id: 1, name: "d", hits: 6).save(db) }
      let fetch = try capturedSQL(db) { _ = try Counter(id: 1, name: "e", hits: 7).upsertAndFetch(db) }
      if SQLiteFeatures.linked.supports(.returning) {
        #expect(upsert.count == 1 && upsert[0].hasPrefix("INSERT INTO \"counter\""), "\(upsert)")
        #expect(upsert.first?.contains("ON CONFLICT DO UPDATE SET") == true, "\(upsert)")
        #expect(fetch.count == 1 && fetch[0].contains("RETURNING"), "\(fetch)")
      } else {
        // The emulation: a lookup, then the update, in a savepoint.
        #expect(upsert.contains { $0.hasPrefix("SAVEPOINT") }, "\(upsert)")
      }
      #expect(update == ["UPDATE \"counter\" SET \"name\"=?, \"hits\"=? WHERE \"id\"=?"])
      #expect(save == update)
      let stored = try Counter.fetchOne(db, key: 1)
      #expect(stored == Counter(id: 1, name: "e", hits: 7))
    }
  }

  @Test("a trigger created after the first upsertAndFetch is seen by the next: the row it wrote comes back")
  func triggerAfterFirstUpsert() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      #expect(try Counter(id: 1, name: "a", hits: 1).upsertAndFetch(db) == Counter(id: 1, name: "a", hits: 1))
      try db.execute(
        sql: """
          CREATE TRIGGER count_more AFTER UPDATE OF name ON counter
          BEGIN UPDATE counter SET hits = hits + 100 WHERE id = NEW.id; END
          """)
      // RETURNING reports the row before the trigger ran: the row is read again.
      #expect(
        try Counter(id: 1, name: "b", hits: 2).upsertAndFetch(db) == Counter(id: 1, name: "b", hits: 102))
      #expect(try Counter.fetchOne(db, key: 1) == Counter(id: 1, name: "b", hits: 102))
    }
  }

  @Test("a table made again with another primary key: update and upsert find rows by the new key")
  func tableRecreated() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      try Counter(id: 1, name: "a", hits: 1).insert(db)
      try Counter(id: 1, name: "a", hits: 2).update(db)
      try Counter(id: 1, name: "a", hits: 3).upsert(db)
      try db.execute(sql: "DROP TABLE counter")
      try db.execute(
        sql: "CREATE TABLE counter (id INTEGER NOT NULL, name TEXT PRIMARY KEY, hits INTEGER NOT NULL)")
      try Counter(id: 7, name: "a", hits: 1).insert(db)
      // The key is now the name: the id is a column like any other.
      try Counter(id: 8, name: "a", hits: 2).update(db)
      #expect(try Counter.fetchAll(db) == [Counter(id: 8, name: "a", hits: 2)])
      try Counter(id: 9, name: "a", hits: 3).upsert(db)
      #expect(try Counter.fetchAll(db) == [Counter(id: 9, name: "a", hits: 3)])
      #expect(throws: RecordError.self) { try Counter(id: 9, name: "missing", hits: 0).update(db) }
    }
  }

  @Test("a primary key another connection changed: save, exists, delete and fetchOne(key:) use the new key")
  func primaryKeyChangedByAnotherConnection() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try pool.write { db in
      try makeCounterTable(db)
      try Counter(id: 1, name: "a", hits: 1).save(db)
      try Counter(id: 1, name: "a", hits: 2).save(db)
      #expect(try Counter(id: 1, name: "z", hits: 0).exists(db))
    }
    let other = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try other.write { db in
      try db.execute(sql: "DROP TABLE counter")
      try db.execute(
        sql: "CREATE TABLE counter (id INTEGER NOT NULL, name TEXT PRIMARY KEY, hits INTEGER NOT NULL)")
      try db.execute(sql: "INSERT INTO counter VALUES (5, 'a', 0)")
    }
    try other.close()
    try pool.write { db in
      // The key is now the name: this save updates the row named "a".
      try Counter(id: 6, name: "a", hits: 1).save(db)
      #expect(try Counter.fetchAll(db) == [Counter(id: 6, name: "a", hits: 1)])
      #expect(try Counter.fetchOne(db, key: "a") == Counter(id: 6, name: "a", hits: 1))
      #expect(try Counter(id: 99, name: "a", hits: 0).exists(db))
      #expect(try !Counter(id: 6, name: "b", hits: 0).exists(db))
      #expect(try Counter(id: 99, name: "a", hits: 0).delete(db))
      #expect(try Counter.fetchCount(db) == 0)
    }
  }

  @Test(
    "upsertAndFetch returns the selection's columns, without the rowid RETURNING ends with, call after call")
  func upsertAndFetchRowsKeepTheirColumns() throws {
    guard SQLiteFeatures.linked.supports(.returning) else { return }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      for hits in 1...3 {
        let fetched = try Counter(id: 1, name: "n\(hits)", hits: hits).upsertAndFetch(
          db, as: CounterHits.self)
        #expect(fetched.columns == ["name", "hits"])
        #expect(fetched.name == "n\(hits)" && fetched.hits == hits)
        #expect(
          try Counter(id: 2, name: "b", hits: hits).upsertAndFetch(db)
            == Counter(id: 2, name: "b", hits: hits))
      }
      // A new column: the statement and its rows' layout are made again.
      try db.execute(sql: "ALTER TABLE counter ADD COLUMN note TEXT")
      let fetched = try Counter(id: 1, name: "again", hits: 9).upsertAndFetch(db, as: CounterHits.self)
      #expect(fetched.columns == ["name", "hits"])
      #expect(fetched.name == "again" && fetched.hits == 9)
      #expect(
        try Row.fetchAll(db, sql: "SELECT id, name, hits FROM counter ORDER BY id") == [
          ["id": 1, "name": "again", "hits": 9], ["id": 2, "name": "b", "hits": 3],
        ])
    }
  }

  @Test("a trigger created by another connection is seen by the next upsertAndFetch of a pool's writer")
  func triggerFromAnotherConnection() throws {
    guard SQLiteFeatures.linked.supports(.returning) else { return }
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try pool.write { db in
      try makeCounterTable(db)
      _ = try Counter(id: 1, name: "a", hits: 1).upsertAndFetch(db)
    }
    let other = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try other.write { db in
      try db.execute(
        sql: """
          CREATE TRIGGER count_more AFTER UPDATE OF name ON counter
          BEGIN UPDATE counter SET hits = hits + 100 WHERE id = NEW.id; END
          """)
    }
    try other.close()
    let fetched = try pool.write { db in try Counter(id: 1, name: "b", hits: 2).upsertAndFetch(db) }
    #expect(fetched == Counter(id: 1, name: "b", hits: 102))
  }

  @Test("save encodes a struct once, and a class again after its willUpdate changed it")
  func saveEncodesClassesAgain() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      try Counter(id: 1, name: "a", hits: 0).insert(db)
      try Counter(id: 1, name: "b", hits: 1).save(db)
      #expect(try Counter.fetchOne(db, key: 1) == Counter(id: 1, name: "b", hits: 1))
      let counted = CountedOnUpdate(id: 1, name: "c", hits: 5)
      try counted.save(db)
      // willUpdate added one hit to the object: the row has it.
      #expect(try Counter.fetchOne(db, key: 1) == Counter(id: 1, name: "c", hits: 6))
    }
  }

  @Test("a repeated insertAndFetch or updateAndFetch runs only its own statement, RETURNING included")
  func returningStatementsKept() throws {
    guard SQLiteFeatures.linked.supports(.returning) else { return }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      var first = Counter(id: 1, name: "a", hits: 1)
      _ = try first.insertAndFetch(db)
      _ = try Counter(id: 1, name: "a", hits: 2).updateAndFetch(db)
      var stored: [Counter] = []
      let statements = try capturedSQL(db) {
        for id in 2...3 {
          var counter = Counter(id: Int64(id), name: "n\(id)", hits: id)
          stored.append(try counter.insertAndFetch(db))
        }
        for id in 1...3 {
          stored.append(try Counter(id: Int64(id), name: "u\(id)", hits: 0).updateAndFetch(db))
        }
      }
      #expect(
        stored == [
          Counter(id: 2, name: "n2", hits: 2), Counter(id: 3, name: "n3", hits: 3),
          Counter(id: 1, name: "u1", hits: 0), Counter(id: 2, name: "u2", hits: 0),
          Counter(id: 3, name: "u3", hits: 0),
        ])
      let insert = "INSERT INTO \"counter\" (\"id\", \"name\", \"hits\") VALUES (?,?,?) RETURNING *"
      let update = "UPDATE \"counter\" SET \"name\"=?, \"hits\"=? WHERE \"id\"=? RETURNING *"
      #expect(statements == [insert, insert, update, update, update])
    }
  }

  @Test("selections that render the same RETURNING clause with other values each return their own")
  func returningValuesOfEachSelection() throws {
    guard SQLiteFeatures.linked.supports(.returning) else { return }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      var values: [Int] = []
      for (id, offset) in [(1, 10), (2, 20), (3, 10)] {
        var counter = Counter(id: Int64(id), name: "n", hits: id)
        values.append(
          try counter.insertAndFetch(db, selection: [Column("hits") + offset]) { try Int.fetchOne($0)! })
      }
      for (id, offset) in [(1, 100), (2, 200)] {
        values.append(
          try Counter(id: Int64(id), name: "m", hits: 0).updateAndFetch(
            db, selection: [Column("hits") + offset]
          ) { try Int.fetchOne($0)! })
      }
      #expect(values == [11, 22, 13, 100, 200])
    }
  }

  @Test("a column added after the first insertAndFetch and updateAndFetch is returned by the next ones")
  func returningAfterSchemaChange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeCounterTable(db)
      var counter = Counter(id: 1, name: "a", hits: 1)
      #expect(try counter.insertAndFetch(db, as: CounterColumns.self).columns == ["id", "name", "hits"])
      #expect(
        try Counter(id: 1, name: "a", hits: 2).updateAndFetch(db, as: CounterColumns.self).columns == [
          "id", "name", "hits",
        ])
      try db.execute(sql: "ALTER TABLE counter ADD COLUMN note TEXT DEFAULT 'added'")
      var next = Counter(id: 2, name: "b", hits: 1)
      let inserted = try next.insertAndFetch(db, as: CounterColumns.self)
      #expect(inserted.columns == ["id", "name", "hits", "note"] && inserted.note == "added")
      let updated = try Counter(id: 1, name: "a", hits: 3).updateAndFetch(db, as: CounterColumns.self)
      #expect(updated.columns == ["id", "name", "hits", "note"] && updated.note == "added")
    }
  }
}

/// A class record whose willUpdate changes it.
private final class CountedOnUpdate: Codable, PersistableRecord, @unchecked Sendable {
  static let databaseTableName = "counter"
  var id: Int64
  var name: String
  var hits: Int

  init(id: Int64, name: String, hits: Int) {
    self.id = id
    self.name = name
    self.hits = hits
  }

  func willUpdate(_ db: Database, columns: Set<String>) throws {
    hits += 1
  }
}

/// A row of `counter` as stored: its columns, and its note if it has one.
private struct CounterColumns: FetchableRecord, TableRecord {
  static let databaseTableName = "counter"
  var columns: [String]
  var note: String?

  init(row: Row) throws {
    columns = Array(row.columnNames)
    note = row.hasColumn("note") ? row["note"] : nil
  }
}
