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
