import Foundation
import Sealite
import Testing

// An upsert renders the RETURNING clause of the type it fetches and reuses the
// rendering of the last selection array it was given. These tests alternate
// types whose selections are constant, made anew at each call, or the
// default, and check that each upsert returns the columns its type selects.

private struct Gadget: Codable, PersistableRecord {
  var id: Int64
  var name: String
  var weight: Int
}

/// The stored row, as the fetched type selects it.
private protocol SelectedRow: FetchableRecord, TableRecord {
  var row: Row { get }
}

/// The default selection: every column.
private struct EveryColumn: SelectedRow {
  static let databaseTableName = "gadget"
  var row: Row
  init(row: Row) { self.row = row.copy() }
}

/// A selection made anew at each call.
private struct IdOnly: SelectedRow {
  static let databaseTableName = "gadget"
  static var databaseSelection: [any SQLSelectable] { [Column("id")] }
  var row: Row
  init(row: Row) { self.row = row.copy() }
}

/// A constant selection, with an expression that binds a value.
private struct NameAndBoost: SelectedRow {
  static let databaseTableName = "gadget"
  nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [
    Column("name"), (Column("weight") + 1000).forKey("boosted"),
  ]
  var row: Row
  init(row: Row) { self.row = row.copy() }
}

@Suite("Upsert's RETURNING clause follows the type it fetches")
struct UpsertReturningTests {
  @Test("Types of other selections, upserted in turn, each get the columns they select")
  func selectionsInTurn() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE gadget (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight INTEGER)")
      for round in 0..<30 {
        let gadget = Gadget(id: Int64(round % 4), name: "g\(round)", weight: round)
        let every: [DatabaseValue] = [
          gadget.id.databaseValue, gadget.name.databaseValue, gadget.weight.databaseValue,
        ]
        let boosted: [DatabaseValue] = [gadget.name.databaseValue, (gadget.weight + 1000).databaseValue]
        let checks: [(any SelectedRow.Type, [String], [DatabaseValue])] = [
          (EveryColumn.self, ["id", "name", "weight"], every),
          (IdOnly.self, ["id"], [gadget.id.databaseValue]),
          (NameAndBoost.self, ["name", "boosted"], boosted),
        ]
        // Each round starts with another type, then the next one.
        for (type, names, values) in [checks[round % 3], checks[(round + 1) % 3]] {
          let row = try fetchedRow(gadget, as: type, db)
          #expect(row.columnNames == names, "round \(round), \(type)")
          #expect(row.databaseValues == values, "round \(round), \(type)")
        }
      }
    }
  }

  private func fetchedRow<T: SelectedRow>(_ gadget: Gadget, as type: T.Type, _ db: Database) throws -> Row {
    try gadget.upsertAndFetch(db, as: type).row
  }

  @Test("A schema change renders the selection again: a column added is returned")
  func schemaChange() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE gadget (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight INTEGER)")
      let gadget = Gadget(id: 1, name: "g", weight: 2)
      #expect(
        try gadget.upsertAndFetch(db, as: EveryColumn.self).row.columnNames == ["id", "name", "weight"])
      try db.execute(sql: "ALTER TABLE gadget ADD COLUMN color TEXT DEFAULT 'red'")
      let fetched = try gadget.upsertAndFetch(db, as: EveryColumn.self)
      #expect(fetched.row.columnNames == ["id", "name", "weight", "color"])
      #expect(fetched.row["color"] == "red")
    }
  }
}
