import Foundation
import Sealite
import Testing

// GRDB's descriptions (DatabaseValueTests, RowAdapterTests,
// AssociationPrefetchingRowTests): users grep logs for them and compare them
// in tests.

private struct Writer: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var name: String
  static let books = hasMany(Novel.self, using: ForeignKey(["writerId"]))
}

private struct Novel: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var writerId: Int64
  var title: String
  static let writer = belongsTo(Writer.self, using: ForeignKey(["writerId"]))
}

private func library() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE writer (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE novel (id INTEGER PRIMARY KEY, writerId INTEGER REFERENCES writer(id), title TEXT);
        INSERT INTO writer VALUES (1, 'Bob'), (2, 'Ann');
        INSERT INTO novel VALUES (10, 1, 'First'), (11, 1, 'Second');
        """)
  }
  return dbQueue
}

@Suite("Descriptions print as GRDB prints them")
struct DescriptionTests {
  @Test("A database value prints as SQL would read it: NULL, numbers, quoted and escaped text, blob size")
  func databaseValues() {
    #expect(DatabaseValue.null.description == "NULL")
    #expect((1 as Int).databaseValue.description == "1")
    #expect(100000.1.databaseValue.description == "100000.1")
    #expect(1e20.databaseValue.description == "1e+20")
    #expect("foo\n\t\r\"".databaseValue.description == #""foo\n\t\r\"""#)
    #expect(Data([1, 2, 3]).databaseValue.description == "Data(3 bytes)")
  }

  @Test("A row prints its columns as name:value, and a plain row's debugDescription is the same")
  func plainRow() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let row = try #require(
        try Row.fetchOne(db, sql: "SELECT NULL AS id, 'x' AS name, 1.5 AS score, x'00' AS b"))
      #expect(row.description == #"[id:NULL name:"x" score:1.5 b:Data(1 bytes)]"#)
      #expect(row.debugDescription == row.description)
    }
    let literal: Row = ["a": 1, "a": "it's \"quoted\""]
    #expect(literal.description == #"[a:1 a:"it\'s \"quoted\""]"#)
  }

  @Test(
    "A row with an included association prints as a tree: the joined row it was cut from, then its scopes")
  func scopedRow() throws {
    let dbQueue = try library()
    try dbQueue.read { (db: Database) throws in
      let request = Novel.including(required: Novel.writer).order(Column("id"))
      let row = try #require(try Row.fetchOne(db, request))
      #expect(row.description == #"[id:10 writerId:1 title:"First"]"#)
      #expect(
        row.debugDescription == """
          ▿ [id:10 writerId:1 title:"First"]
            unadapted: [id:10 writerId:1 title:"First" id:1 name:"Bob"]
            - writer: [id:1 name:"Bob"]
          """)
      // A scope is cut from the same joined row.
      let writer = try #require(row.scopes["writer"])
      #expect(
        writer.debugDescription == """
          ▿ [id:1 name:"Bob"]
            unadapted: [id:10 writerId:1 title:"First" id:1 name:"Bob"]
          """)
    }
  }

  @Test("A row with prefetched rows prints their count by key")
  func prefetchedRows() throws {
    let dbQueue = try library()
    try dbQueue.read { (db: Database) throws in
      let rows = try Row.fetchAll(db, Writer.including(all: Writer.books).order(Column("id")))
      #expect(rows.count == 2)
      #expect(
        rows[0].debugDescription == """
          ▿ [id:1 name:"Bob"]
            + novels: 2 rows
          """)
      #expect(
        rows[1].debugDescription == """
          ▿ [id:2 name:"Ann"]
            + novels: 0 row
          """)
    }
  }
}
