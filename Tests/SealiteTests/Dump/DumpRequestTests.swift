import Foundation
import Sealite
import Testing

private struct Author: TableRecord {
  static let books = hasMany(Book.self)
}

private struct Book: TableRecord {
  static let author = belongsTo(Author.self)
}

@Suite("Dump of requests")
struct DumpRequestTests {
  @Test("dumpRequest prints the rows of a query interface or SQL request")
  func request() throws {
    try makeQueue(createLibrary).read { db throws in
      #expect(
        try dumped { try db.dumpRequest(Author.order(Column("id")), to: $0) } == """
          1|Octavia Butler
          2|Ursula K. Le Guin

          """)
      #expect(
        try dumped { try db.dumpRequest(SQLRequest<Row>(sql: "SELECT title FROM book ORDER BY id"), to: $0) }
          == """
          The Dispossessed
          Anonymous Tales
          Kindred

          """)
      #expect(
        try dumped { try db.dumpRequest(Author.order(Column("id")), format: .json(), to: $0) } == """
          [{"id":1,"name":"Octavia Butler"},
          {"id":2,"name":"Ursula K. Le Guin"}]

          """)
    }
  }

  @Test("An included to-one association adds its columns to each row")
  func toOne() throws {
    try makeQueue(createLibrary).read { db throws in
      let request = Book.order(Column("id")).including(required: Book.author)
      #expect(
        try dumped { try db.dumpRequest(request, to: $0) } == """
          1|2|The Dispossessed|2|Ursula K. Le Guin
          3|1|Kindred|1|Octavia Butler

          """)
      #expect(
        try dumped { try db.dumpRequest(request, format: .json(), to: $0) } == """
          [{"id":1,"authorId":2,"title":"The Dispossessed","id":2,"name":"Ursula K. Le Guin"},
          {"id":3,"authorId":1,"title":"Kindred","id":1,"name":"Octavia Butler"}]

          """)
    }
  }

  @Test(
    "A to-many association prints its query's rows after a blank line and its key, without the key columns")
  func toMany() throws {
    try makeQueue(createLibrary).read { db throws in
      let request = Author.order(Column("id")).including(all: Author.books.order(Column("id")))
      #expect(
        try dumped { try db.dumpRequest(request, to: $0) } == """
          1|Octavia Butler
          2|Ursula K. Le Guin

          books
          1|2|The Dispossessed
          3|1|Kindred

          """)
      #expect(
        try dumped { try db.dumpRequest(request, format: .list(header: true), to: $0) } == """
          id|name
          1|Octavia Butler
          2|Ursula K. Le Guin

          books
          id|authorId|title
          1|2|The Dispossessed
          3|1|Kindred

          """)
      #expect(
        try dumped { try db.dumpRequest(request, format: .json(), to: $0) } == """
          [{"id":1,"name":"Octavia Butler"},
          {"id":2,"name":"Ursula K. Le Guin"}]

          books
          [{"id":1,"authorId":2,"title":"The Dispossessed"},
          {"id":3,"authorId":1,"title":"Kindred"}]

          """)
    }
  }

  @Test("A to-many association of an included one is named by its key path")
  func nestedToMany() throws {
    try makeQueue(createLibrary).read { db throws in
      let request = Book.order(Column("id"))
        .including(required: Book.author.including(all: Author.books.order(Column("id"))))
      #expect(
        try dumped { try db.dumpRequest(request, to: $0) } == """
          1|2|The Dispossessed|2|Ursula K. Le Guin
          3|1|Kindred|1|Octavia Butler

          author.books
          1|2|The Dispossessed
          3|1|Kindred

          """)
    }
  }
}
