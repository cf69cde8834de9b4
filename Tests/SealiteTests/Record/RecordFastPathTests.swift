import Foundation
import Sealite
import Testing

// The fast paths of fetching and inserting records: the column lookups a record
// cursor replays from its first row, the decoder it reuses for every row, the
// buffers that copied rows share, and the INSERT statement a connection keeps
// for the record type it inserted last. Each test gives them the cases where a
// shortcut would read the wrong column or run the wrong statement.

/// Decodes `a` or `b` depending on `kind`: its keys come in another order from
/// one row to the next.
private struct Variant: Decodable, FetchableRecord, Equatable {
  enum CodingKeys: String, CodingKey { case id, kind, a, b }
  var id: Int
  var text: String

  init(id: Int, text: String) {
    self.id = id
    self.text = text
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    if try container.decode(String.self, forKey: .kind) == "a" {
      text = try container.decode(String.self, forKey: .a)
    } else {
      text = try container.decode(String.self, forKey: .b)
    }
  }
}

/// A coding key that is a struct holding a string: not a plain value, so the
/// cache compares its name.
private struct NameKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Decodes the columns named in a row's own `columns` value, in that order.
private struct ByName: Decodable, FetchableRecord, Equatable {
  var values: [String]

  init(values: [String]) { self.values = values }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: NameKey.self)
    let names = try container.decode(String.self, forKey: NameKey(stringValue: "columns"))
    values = try names.split(separator: ",").map {
      try container.decode(String.self, forKey: NameKey(stringValue: String($0)))
    }
  }
}

private struct Pet: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
}

private struct Toy: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var label: String
  var petId: Int64
}

/// A record whose selection takes an argument of its own: its lookups by key
/// can not reuse one SQL with the key as the only argument.
private struct BonusPet: Codable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "pet"
  static var databaseSelection: [any SQLSelectable] {
    [AllColumns(), SQL(sql: "? AS bonus", arguments: [10])]
  }
  var id: Int64
  var name: String
  var bonus: Int
}

/// A record of a table whose primary key is a text.
private struct Tag: Codable, FetchableRecord, PersistableRecord, Equatable {
  var code: String
  var label: String
}

@Suite("Record fast paths")
struct RecordFastPathTests {
  private func variantQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE variant(id INTEGER PRIMARY KEY, kind TEXT, a TEXT, b TEXT)")
      for id in 1...50 {
        try db.execute(
          sql: "INSERT INTO variant VALUES (?, ?, ?, ?)",
          arguments: [id, id % 3 == 0 ? "b" : "a", "a\(id)", "b\(id)"])
      }
    }
    return dbQueue
  }

  private func expectedVariants() -> [Variant] {
    (1...50).map { Variant(id: $0, text: $0 % 3 == 0 ? "b\($0)" : "a\($0)") }
  }

  @Test("a record that asks for its keys in another order on some rows reads the right columns")
  func keysInAnotherOrder() throws {
    let dbQueue = try variantQueue()
    let sql = "SELECT * FROM variant ORDER BY id"
    let fetched = try dbQueue.read { db in try Variant.fetchAll(db, sql: sql) }
    #expect(fetched == expectedVariants())
    let iterated = try dbQueue.read { db in
      var records: [Variant] = []
      let cursor = try Variant.fetchCursor(db, sql: sql)
      while let record = try cursor.next() { records.append(record) }
      return records
    }
    #expect(iterated == expectedVariants())
  }

  @Test("a record whose first rows all ask the same keys, then one asks others, still reads right")
  func orderChangesLate() throws {
    let dbQueue = try variantQueue()
    // Every row of kind "a" first (the cache records and replays them), then "b".
    let sql = "SELECT * FROM variant ORDER BY kind, id"
    let fetched = try dbQueue.read { db in try Variant.fetchAll(db, sql: sql) }
    let expected = expectedVariants().sorted { ($0.text.first!, $0.id) < ($1.text.first!, $1.id) }
    #expect(fetched == expected)
  }

  @Test("coding keys that are not plain values are told apart by their names")
  func structKeys() throws {
    let dbQueue = try DatabaseQueue()
    let records = try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t(columns TEXT, x TEXT, y TEXT, z TEXT)")
      try db.execute(sql: "INSERT INTO t VALUES ('x,y', 'x1', 'y1', 'z1')")
      try db.execute(sql: "INSERT INTO t VALUES ('y,x', 'x2', 'y2', 'z2')")
      try db.execute(sql: "INSERT INTO t VALUES ('z,y,x', 'x3', 'y3', 'z3')")
      try db.execute(sql: "INSERT INTO t VALUES ('x,y', 'x4', 'y4', 'z4')")
      return try ByName.fetchAll(db, sql: "SELECT * FROM t ORDER BY rowid")
    }
    #expect(
      records == [
        ByName(values: ["x1", "y1"]), ByName(values: ["y2", "x2"]), ByName(values: ["z3", "y3", "x3"]),
        ByName(values: ["x4", "y4"]),
      ])
  }

  @Test("two cursors of one record type, iterated in turns, each read their own rows")
  func interleavedCursors() throws {
    let dbQueue = try variantQueue()
    try dbQueue.read { db in
      let ascending = try Variant.fetchCursor(db, sql: "SELECT * FROM variant ORDER BY id")
      let descending = try Variant.fetchCursor(db, sql: "SELECT id, b, kind, a FROM variant ORDER BY id DESC")
      let expected = expectedVariants()
      for index in 0..<50 {
        #expect(try ascending.next() == expected[index])
        #expect(try descending.next() == expected[49 - index])
      }
      #expect(try ascending.next() == nil)
      #expect(try descending.next() == nil)
    }
  }

  @Test("rows of a large fetchAll, spread over several shared buffers, keep their values alone")
  func copiedRowsShareBuffers() throws {
    let dbQueue = try DatabaseQueue()
    // 3,000 rows of 4 columns: 12,000 values, over a dozen buffers.
    let kept: [Row] = try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE v(i INTEGER, t TEXT, b BLOB, r REAL)")
      let statement = try db.makeStatement(sql: "INSERT INTO v VALUES (?, ?, ?, ?)")
      for i in 0..<3000 {
        try statement.execute(arguments: [
          i, i % 5 == 0 ? nil : "text \(i) " + String(repeating: "é", count: i % 40),
          Data([UInt8(i % 256), 1, 2]), i % 7 == 0 ? nil : Double(i) / 4,
        ])
      }
      let rows = try Row.fetchAll(db, sql: "SELECT * FROM v ORDER BY i")
      #expect(rows.count == 3000)
      // Keep one row in 97: the others, and most buffers' other rows, go away.
      return stride(from: 0, to: 3000, by: 97).map { rows[$0] }
    }
    for row in kept {
      let i: Int = row["i"]
      let text: String? = row["t"]
      let blob: Data = row["b"]
      let real: Double? = row["r"]
      #expect(text == (i % 5 == 0 ? nil : "text \(i) " + String(repeating: "é", count: i % 40)))
      #expect(blob == Data([UInt8(i % 256), 1, 2]))
      #expect(real == (i % 7 == 0 ? nil : Double(i) / 4))
      #expect(row.copy() == row)
    }
  }

  @Test("inserting records of two types in turns runs each type's own INSERT")
  func alternatingInserts() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE pet(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.execute(sql: "CREATE TABLE toy(id INTEGER PRIMARY KEY, label TEXT NOT NULL, petId INTEGER)")
      for id in Int64(1)...20 {
        try Pet(id: id, name: "pet \(id)").insert(db)
        try Toy(id: id, label: "toy \(id)", petId: id).insert(db)
      }
      #expect(try Pet.fetchAll(db) == (Int64(1)...20).map { Pet(id: $0, name: "pet \($0)") })
      #expect(try Toy.fetchAll(db) == (Int64(1)...20).map { Toy(id: $0, label: "toy \($0)", petId: $0) })
    }
  }

  @Test("after the table is dropped and created again, inserts use the new table")
  func insertAfterSchemaChange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE pet(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try Pet(id: 1, name: "before").insert(db)
      try db.execute(sql: "DROP TABLE pet")
      // Other column order, and a WITHOUT ROWID table whose key is the name.
      try db.execute(sql: "CREATE TABLE pet(name TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID")
      try Pet(id: 2, name: "after").insert(db)
      #expect(try Pet.fetchAll(db) == [Pet(id: 2, name: "after")])
      #expect(try Row.fetchOne(db, sql: "SELECT name, id FROM pet") == ["name": "after", "id": 2])
    }
  }

  @Test("an argument out of SQLite's range is still refused when given in an array literal")
  func arrayLiteralRange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t(a, b)")
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, UInt64.max])
      }
      try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [2.5, UInt64(7)])
      #expect(try Row.fetchAll(db, sql: "SELECT * FROM t") == [["a": 2.5, "b": 7]])
    }
  }

  @Test("lookups by primary key find each record, nil for a missing or NULL key")
  func lookups() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE pet(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.execute(sql: "CREATE TABLE tag(code TEXT PRIMARY KEY, label TEXT NOT NULL)")
      for id in Int64(1)...30 { try Pet(id: id, name: "pet \(id)").insert(db) }
      for code in ["a", "b", "c"] { try Tag(code: code, label: "label \(code)").insert(db) }
    }
    try dbQueue.read { db throws in
      for id in [Int64(7), 1, 30, 7, 12] {
        #expect(try Pet.fetchOne(db, key: id) == Pet(id: id, name: "pet \(id)"))
      }
      #expect(try Pet.fetchOne(db, key: 31) == nil)
      #expect(try Pet.fetchOne(db, key: Int64?.none) == nil)
      // A text key compares as SQLite compares it with an INTEGER column, as the
      // query interface's request does.
      #expect(try Pet.fetchOne(db, key: "3") == Pet.filter(key: "3").fetchOne(db))
      #expect(try Pet.fetchOne(db, key: "3")?.id == 3)
      #expect(try Tag.fetchOne(db, key: "b") == Tag(code: "b", label: "label b"))
      #expect(try Tag.fetchOne(db, key: "z") == nil)
      // Lookups of two types in turns each keep their own SQL.
      #expect(try Pet.fetchOne(db, key: 2)?.name == "pet 2")
      #expect(try Tag.fetchOne(db, key: "c")?.label == "label c")
      #expect(try BonusPet.fetchOne(db, key: 4) == BonusPet(id: 4, name: "pet 4", bonus: 10))
      #expect(try Pet.fetchOne(db, key: 5)?.name == "pet 5")
    }
  }

  @Test("after the table changes, lookups by primary key read the new table")
  func lookupAfterSchemaChange() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE tag(code TEXT PRIMARY KEY, label TEXT NOT NULL)")
      try Tag(code: "a", label: "first").insert(db)
      #expect(try Tag.fetchOne(db, key: "a")?.label == "first")
      try db.execute(sql: "DROP TABLE tag")
      try db.execute(sql: "CREATE TABLE tag(label TEXT NOT NULL, code TEXT PRIMARY KEY) WITHOUT ROWID")
      try Tag(code: "a", label: "second").insert(db)
      #expect(try Tag.fetchOne(db, key: "a") == Tag(code: "a", label: "second"))
    }
  }

  @Test("an observation of a lookup by primary key is not refreshed by changes of other rows")
  func lookupRegion() async throws {
    let dbQueue = try DatabaseQueue()
    try await dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE pet(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try Pet(id: 1, name: "one").insert(db)
      try Pet(id: 2, name: "two").insert(db)
    }
    let changes = Locked(0)
    let observation = ValueObservation.tracking { db in try Pet.fetchOne(db, key: 1) }
      .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
    let recorder = ValueRecorder<Pet?>()
    let cancellable = recorder.start(observation, in: dbQueue)
    #expect(await eventually { recorder.values.value.count == 1 })
    try await dbQueue.write { db in try db.execute(sql: "UPDATE pet SET name = 'deux' WHERE id = 2") }
    #expect(changes.value == 0)
    try await dbQueue.write { db in try db.execute(sql: "UPDATE pet SET name = 'un' WHERE id = 1") }
    #expect(await eventually { recorder.last??.name == "un" })
    #expect(changes.value == 1)
    withExtendedLifetime(cancellable) {}
  }
}
