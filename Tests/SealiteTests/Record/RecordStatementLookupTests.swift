import Sealite
import Testing

// A record write finds its statement by comparing its table, its columns,
// the columns it updates and its conflict resolution with those of the last
// statement found, where the caller holds them. These tests write one table
// through keys that differ in one part only, and of the same number of
// columns (the part the cache hashes), taken in turn: each write must run its
// own statement.

/// A record of the `a` column of `item`.
private struct ItemA: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "item"
  var id: Int64
  var a: String
}

/// A record of the `b` column of the same table, with as many columns.
private struct ItemB: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "item"
  var id: Int64
  var b: String
}

/// Runs `body` in a write of a new in-memory database with the `item` table.
private func withItemTable(_ body: (Database) throws -> Void) throws {
  try DatabaseQueue().write { db in
    try db.execute(
      sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, a TEXT, b TEXT, c INTEGER NOT NULL DEFAULT 0)")
    try body(db)
  }
}

/// The row of `id`, as `[a, b]`.
private func columns(_ db: Database, _ id: Int64) throws -> [String?] {
  let row = try Row.fetchOne(db, sql: "SELECT a, b FROM item WHERE id = ?", arguments: [id])
  return [row?["a"], row?["b"]]
}

@Suite("Record writes of one table that differ in one part of their key run their own statements")
struct RecordStatementLookupTests {
  @Test("inserts, updates and saves of two record types of one table, in turn, write their own columns")
  func twoTypesOfOneTable() throws {
    try withItemTable { db in
      for id in Int64(1)...10 {
        try ItemA(id: id, a: "a\(id)").insert(db)
        try ItemB(id: id + 100, b: "b\(id)").insert(db)
        try ItemA(id: id, a: "a\(id) updated").update(db)
        try ItemB(id: id + 100, b: "b\(id) updated").update(db)
        try ItemA(id: id + 100, a: "a\(id) saved").save(db)
        try ItemB(id: id, b: "b\(id) saved").save(db)
      }
      for id in Int64(1)...10 {
        #expect(try columns(db, id) == ["a\(id) updated", "b\(id) saved"])
        #expect(try columns(db, id + 100) == ["a\(id) saved", "b\(id) updated"])
      }
      // A save of a key no row has inserts, with this type's columns only.
      try ItemB(id: 50, b: "new").save(db)
      #expect(try columns(db, 50) == [nil, "new"])
    }
  }

  @Test("inserts with other conflict resolutions, in turn, each keep their own resolution")
  func conflictResolutionsInTurn() throws {
    try withItemTable { db in
      for id in Int64(1)...10 {
        try ItemA(id: id, a: "first").insert(db)
        // The same columns and table: only the resolution tells them apart.
        try ItemA(id: id, a: "ignored").insert(db, onConflict: .ignore)
        #expect(throws: DatabaseError.self) { try ItemA(id: id, a: "refused").insert(db) }
        try ItemA(id: id, a: "replaced").insert(db, onConflict: .replace)
      }
      for id in Int64(1)...10 {
        #expect(try columns(db, id) == ["replaced", nil])
      }
    }
  }

  @Test("updates of all columns and of some columns, in turn, each write their own")
  func updatedColumnsInTurn() throws {
    try withItemTable { db in
      try db.execute(sql: "INSERT INTO item (id, a, b, c) VALUES (1, 'a', 'b', 1)")
      for round in 1...10 {
        // The same record columns: only the updated columns tell them apart.
        try ItemA(id: 1, a: "all \(round)").update(db)
        #expect(try columns(db, 1) == ["all \(round)", "b"])
        try ItemA(id: 1, a: "none \(round)").update(db, columns: ["c"])
        #expect(try columns(db, 1) == ["all \(round)", "b"])
        try ItemA(id: 1, a: "some \(round)").update(db, columns: ["a"])
        #expect(try columns(db, 1) == ["some \(round)", "b"])
      }
    }
  }
}

/// A record that inserts without an id and reports what its insert wrote
/// into its container: its columns are given in `columns` order, and `id`
/// is spelled `idColumn` (a rowid alias of another case), or left out.
private struct Inserted: EncodableRecord, MutablePersistableRecord {
  static let databaseTableName = "item"
  var columns: [String]
  var idColumn: String?
  var a: String
  /// The container's id and `a` after each insert.
  var written: [(id: DatabaseValue?, a: DatabaseValue?, rowID: Int64)] = []

  func encode(to container: inout PersistenceContainer) throws {
    for column in columns {
      if column == "a" { container["a"] = a }
      if column == "id", let idColumn { container[idColumn] = DatabaseValue.null }
    }
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    written.append(
      (
        inserted.persistenceContainer["id"]?.databaseValue, inserted.persistenceContainer["a"]?.databaseValue,
        inserted.rowID
      ))
  }
}

extension RecordStatementLookupTests {
  @Test(
    "inserts of records whose id is at another place, of another case, or missing write the rowid in its column"
  )
  func rowIDWrittenInItsColumn() throws {
    try withItemTable { db in
      var records = [
        Inserted(columns: ["a", "id"], idColumn: "id", a: "id second"),
        Inserted(columns: ["id", "a"], idColumn: "id", a: "id first"),
        Inserted(columns: ["a", "id"], idColumn: "ID", a: "upper case"),
        Inserted(columns: ["a"], idColumn: nil, a: "no id"),
      ]
      for _ in 1...3 {
        for index in records.indices { try records[index].insert(db) }
      }
      for record in records {
        #expect(record.written.count == 3)
        for written in record.written {
          #expect(written.id == written.rowID.databaseValue, "\(record.a)")
          #expect(written.a == record.a.databaseValue, "\(record.a)")
        }
      }
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item") == 12)
    }
  }
}
