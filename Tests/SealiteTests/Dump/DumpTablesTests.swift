import Foundation
import Sealite
import Testing

@Suite("Dump of tables")
struct DumpTablesTests {
  @Test("Tables are sorted by primary key; names are printed for several tables, or when asked")
  func tables() throws {
    try makeQueue(createLibrary).read { db throws in
      #expect(try dumped { try db.dumpTables([], to: $0) } == "")
      // Inserted FR first: the order is the primary key's.
      #expect(try dumped { try db.dumpTables(["country"], to: $0) } == "DE|Germany\nFR|France\n")
      #expect(
        try dumped { try db.dumpTables(["country"], tableHeader: .always, to: $0) }
          == "country\nDE|Germany\nFR|France\n")
      #expect(
        try dumped { try db.dumpTables(["country", "author"], format: .quote(), to: $0) } == """
          country
          'DE','Germany'
          'FR','France'

          author
          1,'Octavia Butler'
          2,'Ursula K. Le Guin'

          """)
      // Between two tables, the line format's pending blank line is the one
      // that separates them.
      #expect(
        try dumped { try db.dumpTables(["country", "author"], format: .line(), to: $0) } == """
          country
          code = DE
          name = Germany

          code = FR
          name = France

          author
            id = 1
          name = Octavia Butler

            id = 2
          name = Ursula K. Le Guin

          """)
    }
  }

  @Test("A table without a declared primary key is sorted by rowid; a missing table throws")
  func rowIDAndMissingTable() throws {
    try makeQueue { db in
      try db.execute(sql: "CREATE TABLE note(text); INSERT INTO note VALUES ('b'), ('a'), ('c')")
      try db.execute(sql: "UPDATE note SET text = 'z' WHERE text = 'a'")
    }.read { db throws in
      #expect(try dumped { try db.dumpTables(["note"], to: $0) } == "b\nz\nc\n")
      #expect(throws: DatabaseError.self) { try db.dumpTables(["nowhere"], to: DumpOutput()) }
    }
  }

  @Test("A view keeps its order, or is sorted by every column with stableOrder")
  func views() throws {
    try makeQueue { db in
      try createLibrary(db)
      try db.execute(sql: "CREATE VIEW bookTitle AS SELECT title, authorId FROM book ORDER BY id")
    }.read { db throws in
      #expect(
        try dumped { try db.dumpTables(["bookTitle"], to: $0) } == """
          The Dispossessed|2
          Anonymous Tales|
          Kindred|1

          """)
      #expect(
        try dumped { try db.dumpTables(["bookTitle"], format: .json(), stableOrder: true, to: $0) } == """
          [{"title":"Anonymous Tales","authorId":null},
          {"title":"Kindred","authorId":1},
          {"title":"The Dispossessed","authorId":2}]

          """)
    }
  }
}
