import Foundation
import Sealite
import Testing

// GRDB association APIs that Sealite lacks. Each test is written against GRDB's
// documented names (Documentation/AssociationsBasics.md).

private struct Author: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  var id: Int64
  var name: String
  static let books = hasMany(Book.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  var id: Int64
  var authorId: Int64?
  var kind: String
  var title: String
  static let author = belongsTo(Author.self)
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE book (
          id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), kind TEXT NOT NULL, title TEXT NOT NULL);
        """)
    try Author(id: 1, name: "Ann").insert(db)
    try Author(id: 2, name: "Bob").insert(db)
    try Book(id: 1, authorId: 1, kind: "novel", title: "A1").insert(db)
    try Book(id: 2, authorId: 1, kind: "novel", title: "A2").insert(db)
    try Book(id: 3, authorId: 1, kind: "poem", title: "A3").insert(db)
    try Book(id: 4, authorId: 2, kind: "poem", title: "B1").insert(db)
  }
  return dbQueue
}

private struct Label: Codable, FetchableRecord, PersistableRecord {
  var code: String?
  var name: String
}

private struct Item: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var labelCode: String?
  static let label = belongsTo(Label.self, using: ForeignKey(["labelCode"], to: ["code"]))
}

@Suite("Association extras: request(for:), annotations, association filters, records from rows")
struct AssociationExtrasTests {
  @Test("request(for:) builds the request of a record's associated rows")
  func requestFor() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let ann = try Author.find(db, id: 1)
      let books = try ann.request(for: Author.books).order(Column("id")).fetchAll(db)
      #expect(books.map(\.id) == [1, 2, 3])
      let book = try Book.find(db, id: 4)
      #expect(try book.request(for: Book.author).fetchOne(db)?.name == "Bob")
    }
  }

  @Test("request(for:) then aliased(_:) names the alias in the condition on the record's key too")
  func requestForAliased() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let book = try Book.find(db, id: 4)
      let request = book.request(for: Book.author).aliased(TableAlias(name: "custom"))
      var author: Author?
      let sql = try capturedSQL(db) { author = try request.fetchOne(db) }
      #expect(author?.name == "Bob")
      #expect(sql.last == #"SELECT "custom".* FROM "author" "custom" WHERE "custom"."id" = ?"#)

      let ann = try Author.find(db, id: 1)
      let books = TableAlias<Book>(name: "b")
      let novels = try ann.request(for: Author.books).aliased(books)
        .filter(books[Column("kind")] == "novel").order(books[Column("id")]).fetchAll(db)
      #expect(novels.map(\.id) == [1, 2])
    }
  }

  @Test("request(for:) of a record whose key is NULL selects no row, not the rows whose column is NULL")
  func requestForNullKey() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE label (code TEXT UNIQUE, name TEXT NOT NULL);
          CREATE TABLE item (id INTEGER PRIMARY KEY, labelCode TEXT REFERENCES label(code));
          INSERT INTO label VALUES (NULL, 'unlabelled'), ('a', 'first');
          """)
      let unlabelled = Item(id: 1, labelCode: nil)
      var labels: [Label] = []
      let sql = try capturedSQL(db) { labels = try unlabelled.request(for: Item.label).fetchAll(db) }
      #expect(labels.isEmpty)
      #expect(sql.last == #"SELECT * FROM "label" WHERE 0"#)
      let labelled = Item(id: 2, labelCode: "a")
      #expect(try labelled.request(for: Item.label).fetchAll(db).map(\.name) == ["first"])
    }
  }

  @Test("annotated(withRequired:) and annotated(withOptional:) add columns of an associated row")
  func annotatedWithAssociation() throws {
    struct BookInfo: Decodable, FetchableRecord {
      var book: Book
      var authorName: String
    }
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let infos =
        try Book
        .annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))
        .order(Column("id")).asRequest(of: BookInfo.self).fetchAll(db)
      #expect(infos.map(\.authorName) == ["Ann", "Ann", "Ann", "Bob"])
      let rows = try Row.fetchAll(
        db, Book.annotated(withOptional: Book.author.select(Column("name").forKey("authorName"))))
      #expect(rows.count == 4)
    }
  }

  @Test("associations filter by key and id, and refine with distinct")
  func associationRefinements() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      #expect(try Book.joining(required: Book.author.filter(key: 2)).fetchAll(db).map(\.id) == [4])
      #expect(try Book.joining(required: Book.author.filter(id: 1)).fetchCount(db) == 3)
      #expect(try Book.joining(required: Book.author.filter(ids: [1, 2])).fetchCount(db) == 4)
      let kinds = try Row.fetchOne(
        db,
        Author.including(all: Author.books.select(Column("kind")).distinct().forKey("bookKinds"))
          .filter(Column("id") == 1))
      #expect(kinds?.prefetchedRows["bookKinds"]?.count == 2)
    }
  }

  @Test("row subscripts decode records from scopes and prefetched rows")
  func rowSubscriptsDecodeRecords() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let row = try #require(
        try Row.fetchOne(db, Book.including(required: Book.author).filter(Column("id") == 4)))
      let author: Author = try row["author"]
      #expect(author.name == "Bob")
      let authorRow = try #require(
        try Row.fetchOne(db, Author.including(all: Author.books).filter(Column("id") == 2)))
      let books: [Book] = try authorRow["books"]
      #expect(books.map(\.id) == [4])
      #expect(row.scopesTree["author"]?["name"] == "Bob")
    }
  }
}
