import Foundation
import Sealite
import Testing

// The rows that insertAndFetch, updateAndFetch, saveAndFetch and
// upsertAndFetch return are decoded with a decoding the connection keeps for
// the last record type and row layout it decoded: each new row is read by the
// same decoder. These tests check that each call returns its own row, across
// record types and selections, and that a record returned while another is
// being decoded does not take the decoder from under it.

private struct Gizmo: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  var weight: Double
}

/// The same table, another selection: rows of another layout.
private struct GizmoName: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "gizmo"
  static var databaseSelection: [any SQLSelectable] { [Column("name"), Column("id")] }
  var id: Int64
  var name: String
}

/// The same table, a third selection.
private struct GizmoWeight: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "gizmo"
  static var databaseSelection: [any SQLSelectable] { [Column("weight"), Column("id")] }
  var id: Int64
  var weight: Double
}

/// Returns another record of its own type from inside its decoding, between
/// two of its keys, when `hook` is set.
private struct Nesting: Codable, FetchableRecord, PersistableRecord, Equatable {
  nonisolated(unsafe) static var hook: (() throws -> Void)?
  var id: Int64
  var name: String

  init(id: Int64, name: String) {
    self.id = id
    self.name = name
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    if let hook = Nesting.hook {
      Nesting.hook = nil
      try hook()
    }
    name = try container.decode(String.self, forKey: .name)
  }
}

// Serialized: the tests that nest writes share `Nesting.hook`.
@Suite("records returned by persistence methods", .serialized)
struct ReturnedRowDecodingTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE gizmo (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight REAL NOT NULL)")
      try db.execute(sql: "CREATE TABLE nesting (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    }
    return dbQueue
  }

  @Test("each call returns its own row, whatever the method, type and selection before it")
  func eachCallReturnsItsOwnRow() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      var inserted: [Gizmo] = []
      for id in Int64(1)...5 {
        let gizmo = Gizmo(id: id, name: "g\(id)", weight: Double(id) / 4)
        inserted.append(try gizmo.insertAndFetch(db))
        // Another type and layout between two rows of the first.
        #expect(try gizmo.updateAndFetch(db, as: GizmoName.self) == GizmoName(id: id, name: "g\(id)"))
      }
      #expect(inserted == (1...5).map { Gizmo(id: $0, name: "g\($0)", weight: Double($0) / 4) })
      for id in Int64(1)...5 {
        let renamed = Gizmo(id: id, name: "renamed \(id)", weight: Double(id))
        #expect(try renamed.updateAndFetch(db) == renamed)
        let saved = Gizmo(id: id + 10, name: "saved \(id)", weight: 0.5)
        #expect(try saved.saveAndFetch(db) == saved)
        let upserted = Gizmo(id: id, name: "upserted \(id)", weight: -Double(id))
        #expect(try upserted.upsertAndFetch(db) == upserted)
        #expect(
          try upserted.upsertAndFetch(db, as: GizmoName.self) == GizmoName(id: id, name: "upserted \(id)"))
      }
      // What the calls returned is what the table holds.
      let stored = try Gizmo.order(Column("id")).fetchAll(db)
      #expect(stored.count == 10)
      #expect(stored.prefix(5).map(\.name) == (1...5).map { "upserted \($0)" })
    }
  }

  @Test("more record types and layouts in turn than the connection keeps decodings for")
  func manyTypesAndLayoutsInTurn() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      for round in 0..<3 {
        for id in Int64(1)...3 {
          let weight = Double(round * 10) + Double(id)
          let gizmo = Gizmo(id: id, name: "r\(round) g\(id)", weight: weight)
          // Six (type, layout) pairs: each method's statement has a layout of
          // its own, and each selection another.
          let upserted = try gizmo.upsertAndFetch(db)
          let named = try gizmo.upsertAndFetch(db, as: GizmoName.self)
          let weighed = try gizmo.upsertAndFetch(db, as: GizmoWeight.self)
          let updated = try gizmo.updateAndFetch(db)
          let updatedName = try gizmo.updateAndFetch(db, as: GizmoName.self)
          let updatedWeight = try gizmo.updateAndFetch(db, as: GizmoWeight.self)
          #expect(upserted == gizmo)
          #expect(updated == gizmo)
          #expect(named == GizmoName(id: id, name: gizmo.name))
          #expect(updatedName == GizmoName(id: id, name: gizmo.name))
          #expect(weighed == GizmoWeight(id: id, weight: weight))
          #expect(updatedWeight == GizmoWeight(id: id, weight: weight))
        }
      }
    }
  }

  @Test("a record returned while another is decoded gets a decoder of its own")
  func nestedReturnedRecord() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      // The first call leaves its decoding to the connection.
      #expect(try Nesting(id: 1, name: "first").insertAndFetch(db) == Nesting(id: 1, name: "first"))
      var inner: Nesting?
      Nesting.hook = { inner = try Nesting(id: 3, name: "inner").insertAndFetch(db) }
      let outer = try Nesting(id: 2, name: "outer").insertAndFetch(db)
      #expect(outer == Nesting(id: 2, name: "outer"))
      #expect(inner == Nesting(id: 3, name: "inner"))
      // And the kept decoding still reads new rows.
      #expect(try Nesting(id: 4, name: "after").upsertAndFetch(db) == Nesting(id: 4, name: "after"))
    }
  }

  // The stored row is decoded where the write's statement holds it: a write
  // of the same kind inside that decoding gets a statement of its own, and
  // leaves the outer row as it is.
  @Test(
    "a write of the same kind inside the decoding of a returned record leaves that record's row unchanged",
    arguments: ["insert", "update", "save", "upsert"])
  func nestedWriteOfTheSameKind(kind: String) throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      func write(_ record: Nesting) throws -> Nesting {
        switch kind {
        case "insert": return try record.insertAndFetch(db)
        case "update": return try record.updateAndFetch(db)
        case "save": return try record.saveAndFetch(db)
        default: return try record.upsertAndFetch(db)
        }
      }
      for id in Int64(1)...4 {
        try Nesting(id: id, name: "stored \(id)").insert(db)
      }
      if kind == "insert" { try db.execute(sql: "DELETE FROM nesting") }
      // A first write of each kind, so that the nested one finds the
      // statement the outer one runs.
      #expect(try write(Nesting(id: 1, name: "first")) == Nesting(id: 1, name: "first"))
      var inner: Nesting?
      Nesting.hook = { inner = try write(Nesting(id: 3, name: "inner")) }
      #expect(try write(Nesting(id: 2, name: "outer")) == Nesting(id: 2, name: "outer"))
      #expect(inner == Nesting(id: 3, name: "inner"))
      #expect(try write(Nesting(id: 4, name: "after")) == Nesting(id: 4, name: "after"))
      #expect(
        try String.fetchAll(db, sql: "SELECT name FROM nesting ORDER BY id") == [
          "first", "outer", "inner", "after",
        ])
    }
  }
}
