import Foundation
import Sealite
import Testing

// A request's filter(key:), filter(id:) and filter(keys:) keep their values,
// and read the key column from the schema when the request runs: these tests
// show that the column is the table's key of the moment, the rowid of a
// table without one, and that a composite key fails each time, with nothing
// kept from the failure.

@Suite("Requests filtered by primary key")
struct PrimaryKeyFilterTests {
  private func titles(_ rows: [Row]) -> [String] { rows.map { $0["title"] } }

  @Test("the key column is the table's key when the request runs, after the table is made again")
  func keyColumnFollowsTheSchema() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, number INTEGER, title TEXT)")
      try db.execute(sql: "INSERT INTO book VALUES (1, 2, 'Emma'), (2, 1, 'Persuasion')")
      let book = Table("book")
      #expect(try book.filter(key: 2).fetchOne(db)?["title"] == "Persuasion")
      #expect(
        try titles(book.filter(keys: [1, 2]).order(Column("id")).fetchAll(db)) == ["Emma", "Persuasion"])
      try db.execute(sql: "DROP TABLE book")
      try db.execute(sql: "CREATE TABLE book (id INTEGER, number INTEGER PRIMARY KEY, title TEXT)")
      try db.execute(sql: "INSERT INTO book VALUES (1, 2, 'Emma'), (2, 1, 'Persuasion')")
      #expect(try book.filter(key: 2).fetchOne(db)?["title"] == "Emma")
      #expect(try book.filter(keys: [1, 3]).fetchCount(db) == 1)
      #expect(try book.filter(key: 1).updateAll(db, Column("title").set(to: "Lady Susan")) == 1)
      #expect(try String.fetchOne(db, sql: "SELECT title FROM book WHERE id = 2") == "Lady Susan")
    }
  }

  @Test("a table without a primary key is filtered by rowid; NULL keys select nothing")
  func rowIDAndNullKeys() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE note (text TEXT)")
      try db.execute(sql: "INSERT INTO note (rowid, text) VALUES (5, 'five'), (7, 'seven')")
      let note = Table("note")
      #expect(try note.filter(key: 7).fetchOne(db)?["text"] == "seven")
      #expect(try note.filter(keys: [5, nil, 7] as [Int?]).fetchCount(db) == 2)
      #expect(try note.filter(key: Int?.none).fetchCount(db) == 0)
      #expect(try note.filter(keys: [Int?.none]).fetchCount(db) == 0)
      #expect(try note.filter(keys: [5]).deleteAll(db) == 1)
      #expect(try String.fetchAll(db, sql: "SELECT text FROM note") == ["seven"])
    }
  }

  @Test("a composite primary key throws a misuse error each time, and other requests still run")
  func compositeKey() throws {
    try DatabaseQueue().write { db in
      try db.execute(sql: "CREATE TABLE pair (a INTEGER, b INTEGER, PRIMARY KEY (a, b))")
      try db.execute(sql: "INSERT INTO pair VALUES (1, 2)")
      for _ in 0..<2 {
        let error = #expect(throws: DatabaseError.self) { try Table("pair").filter(key: 1).fetchOne(db) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(throws: DatabaseError.self) { try Table("pair").filter(keys: [1, 2]).deleteAll(db) }
        #expect(try Table("pair").filter(key: ["a": 1, "b": 2]).fetchCount(db) == 1)
      }
    }
  }
}
