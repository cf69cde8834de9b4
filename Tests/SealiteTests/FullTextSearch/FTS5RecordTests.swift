import Foundation
import Sealite
import Testing

private struct Book: FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "books"
  static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
  var id: Int64?
  var title: String
  var author: String
  var body: String

  init(id: Int64? = nil, title: String, author: String, body: String) {
    self.id = id
    self.title = title
    self.author = author
    self.body = body
  }

  init(row: Row) {
    id = row[.rowID]
    title = row["title"]
    author = row["author"]
    body = row["body"]
  }

  func encode(to container: inout PersistenceContainer) {
    container[.rowID] = id
    container["title"] = title
    container["author"] = author
    container["body"] = body
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}

@Suite(
  "FTS5 in requests: matching(_:), match(_:), rank, and FTS5's auxiliary functions",
  .enabled(if: fts5Available))
struct FTS5RecordTests {
  private func makeBooks(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
    -> any DatabaseWriter
  {
    let writer = try store.makeWriter(directory)
    try writer.write { (db: Database) throws in
      try db.create(virtualTable: "books", using: FTS5()) { t in
        t.column("title")
        t.column("author")
        t.column("body")
      }
      var books = [
        Book(title: "Moby Dick", author: "Herman Melville", body: "Call me Ishmael."),
        Book(title: "Bartleby", author: "Herman Melville", body: "I would prefer not to. Melville wrote it."),
        Book(title: "Walden", author: "Henry David Thoreau", body: "I went to the woods."),
      ]
      for index in books.indices { try books[index].insert(db) }
    }
    return writer
  }

  @Test(
    "matching(_:) fetches the matching records with their rowid", arguments: RequestProtocolStore.allCases)
  func matching(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeBooks(store, directory)
    try writer.read { (db: Database) throws in
      let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "Moby Melville"))
      let book = try #require(try Book.matching(pattern).fetchOne(db))
      #expect(book.id == 1)
      #expect(book.title == "Moby Dick")
      #expect(try Book.matching(FTS5Pattern(matchingAnyTokenIn: "Melville")).fetchCount(db) == 2)
      #expect(try Book.all().matching(FTS5Pattern(matchingAnyTokenIn: "woods")).fetchCount(db) == 1)
      #expect(try Table("books").all().matching(FTS5Pattern(matchingAnyTokenIn: "woods")).fetchCount(db) == 1)
      // A nil pattern matches nothing.
      #expect(FTS5Pattern(matchingAllTokensIn: "") == nil)
      #expect(try Book.matching(FTS5Pattern(matchingAllTokensIn: "")).fetchCount(db) == 0)
    }
  }

  @Test("the SQL of matching(_:): the table's hidden column MATCH the pattern")
  func matchingSQL() throws {
    let directory = TemporaryDirectory()
    let writer = try makeBooks(.queue, directory)
    try writer.read { (db: Database) throws in
      let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "Herman Melville"))
      let run = try capturedSQL(db) { () throws in #expect(try Book.matching(pattern).fetchCount(db) == 2) }
      #expect(run.contains { $0.contains("FROM \"books\" WHERE \"books\" MATCH ?") }, "\(run)")
      let tableRun = try capturedSQL(db) { () throws in
        #expect(try Table("books").all().matching(pattern).fetchCount(db) == 2)
      }
      #expect(tableRun.contains("SELECT COUNT(*) FROM \"books\" WHERE \"books\" MATCH ?"), "\(tableRun)")
      let request = Book.matching(pattern).filter(Column("title") != "Walden")
      let fetch = try capturedSQL(db) { () throws in #expect(try request.fetchAll(db).count == 2) }
      #expect(
        fetch.contains { $0.contains("FROM \"books\" WHERE (\"books\" MATCH ?) AND (\"title\" <> ?)") },
        "\(fetch)")
    }
  }

  @Test("matching(_:) in an aliased request", arguments: RequestProtocolStore.allCases)
  func aliased(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeBooks(store, directory)
    try writer.read { (db: Database) throws in
      let alias = TableAlias<Book>(name: "b")
      let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: "Melville"))
      let titles = try Book.aliased(alias).matching(pattern).order(alias[Column("title")]).fetchAll(db).map(
        \.title)
      #expect(titles == ["Bartleby", "Moby Dick"])
    }
  }

  @Test("Column.match(_:) matches one column", arguments: RequestProtocolStore.allCases)
  func columnMatch(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeBooks(store, directory)
    try writer.read { (db: Database) throws in
      let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "Melville"))
      #expect(try Book.filter(Column("books").match(pattern)).fetchCount(db) == 2)
      #expect(try Book.filter(Column("author").match(pattern)).fetchCount(db) == 2)
      #expect(try Book.filter(Column("body").match(pattern)).fetchCount(db) == 1)
      #expect(try Book.filter(Column("title").match(pattern)).fetchCount(db) == 0)
    }
  }

  @Test(
    "Column.rank orders matches by relevance, and bm25, highlight and snippet work in SQL literals",
    arguments: RequestProtocolStore.allCases)
  func ranking(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeBooks(store, directory)
    try writer.read { (db: Database) throws in
      let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: "Melville"))
      // Bartleby names Melville twice: it ranks first.
      let titles = try Book.matching(pattern).order(Column.rank).fetchAll(db).map(\.title)
      #expect(titles == ["Bartleby", "Moby Dick"])
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT title, bm25(books) AS score,
                 highlight(books, 2, '[', ']') AS highlighted,
                 snippet(books, 2, '<', '>', '…', 3) AS excerpt
          FROM books WHERE books MATCH ? ORDER BY bm25(books)
          """, arguments: [pattern])
      #expect(rows.map { $0["title"] as String } == ["Bartleby", "Moby Dick"])
      #expect(rows.allSatisfy { ($0["score"] as Double) < 0 })
      #expect(rows[0]["highlighted"] as String == "I would prefer not to. [Melville] wrote it.")
      #expect(rows[1]["highlighted"] as String == "Call me Ishmael.")
      #expect((rows[0]["excerpt"] as String).contains("<Melville>"))
      let selected = try Book.matching(pattern)
        .select(literal: "highlight(books, 1, '*', '*')")
        .order(Column.rank)
        .asRequest(of: String.self)
        .fetchAll(db)
      #expect(selected == ["Herman *Melville*", "Herman *Melville*"])
    }
  }
}
