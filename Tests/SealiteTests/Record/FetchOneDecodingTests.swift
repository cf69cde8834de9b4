import Foundation
import Sealite
import Testing

// A request's `fetchOne` decodes its row with the decoding its statement keeps
// for the record type, as `fetchAll` does: the decoder of one run reads the
// row of the next. These tests check that each run returns its own row, for
// record types that share the statement in turn, and that a run that fails
// leaves its statement idle.

private struct Thing: Decodable, FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "thing"
  var id: Int
  var label: String
}

/// The same rows, read by an `init(row:)` of its own.
private struct ThingLabel: FetchableRecord, TableRecord, Equatable {
  static let databaseTableName = "thing"
  var label: String
  init(label: String) { self.label = label }
  init(row: Row) { label = row["label"] }
}

/// Fails on the row whose id is 3.
private struct FailingThing: Decodable, FetchableRecord, TableRecord {
  static let databaseTableName = "thing"
  struct Refused: Error {}
  var id: Int
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    if id == 3 { throw Refused() }
  }
  private enum CodingKeys: String, CodingKey { case id }
}

@Suite("fetchOne decodes with its statement's kept decoding")
struct FetchOneDecodingTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE thing (id INTEGER PRIMARY KEY, label TEXT NOT NULL)")
      for id in 1...6 {
        try db.execute(sql: "INSERT INTO thing VALUES (?, ?)", arguments: [id, "label \(id)"])
      }
    }
    return dbQueue
  }

  @Test("each run returns its own row, whichever record type ran the statement before")
  func eachRunReturnsItsRow() throws {
    let dbQueue = try makeQueue()
    try dbQueue.inDatabase { db in
      let id = Column("id")
      for value in [4, 1, 6, 2, 2, 5] {
        let thing = try Thing.filter(id == value).fetchOne(db)
        #expect(thing == Thing(id: value, label: "label \(value)"))
        // The same SQL, decoded by another type in between.
        let label = try ThingLabel.filter(id == value).fetchOne(db)
        #expect(label == ThingLabel(label: "label \(value)"))
        let fromSQL = try Thing.fetchOne(db, sql: "SELECT * FROM thing WHERE id = ?", arguments: [value])
        #expect(fromSQL?.id == value)
      }
      #expect(try Thing.filter(id == 99).fetchOne(db) == nil)
      #expect(try Thing.filter(id > 5).fetchOne(db) == Thing(id: 6, label: "label 6"))
    }
  }

  @Test("a record that throws ends the run, and the next run decodes again")
  func failureEndsTheRun() throws {
    let dbQueue = try makeQueue()
    try dbQueue.inDatabase { db in
      let id = Column("id")
      #expect(try FailingThing.filter(id == 2).fetchOne(db)?.id == 2)
      #expect(throws: FailingThing.Refused.self) { try FailingThing.filter(id == 3).fetchOne(db) }
      #expect(try FailingThing.filter(id == 4).fetchOne(db)?.id == 4)
      // A schema change: the statement and its decoding are made again.
      try db.execute(sql: "ALTER TABLE thing ADD COLUMN extra TEXT")
      try db.execute(sql: "UPDATE thing SET label = 'relabeled' WHERE id = 5")
      #expect(try Thing.filter(id == 5).fetchOne(db) == Thing(id: 5, label: "relabeled"))
      // No run holds the table: SQLite refuses to drop a table a statement
      // of the connection is reading.
      try db.execute(sql: "DROP TABLE thing")
    }
  }
}
