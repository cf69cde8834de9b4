import Foundation
import Sealite
import Testing

// Associations declared on a `Table`, for databases read without record
// types, towards another `Table` or towards a record type.

private struct Author: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var name: String
}

private struct Book: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var authorId: Int64?
  var title: String
}

private struct Biography: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var authorId: Int64
  var text: String
}

private let authors = Table("author")
private let books = Table("book")
private let tags = Table("tag")
private let bookTags = Table("bookTag")

private func makeLibrary(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { db in
    try db.execute(
      sql: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL);
        CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
        CREATE TABLE bookTag (
          bookId INTEGER NOT NULL REFERENCES book(id), tagId INTEGER NOT NULL REFERENCES tag(id),
          PRIMARY KEY (bookId, tagId));
        CREATE TABLE biography (
          id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL UNIQUE REFERENCES author(id), text TEXT NOT NULL);
        INSERT INTO author VALUES (1, 'Melville'), (2, 'Austen'), (3, 'Nobody');
        INSERT INTO book VALUES (1, 1, 'Moby-Dick'), (2, 2, 'Emma'), (3, 2, 'Persuasion');
        INSERT INTO tag VALUES (1, 'sea'), (2, 'romance'), (3, 'classic');
        INSERT INTO bookTag VALUES (1, 1), (1, 3), (2, 2), (3, 2), (3, 3);
        INSERT INTO biography VALUES (1, 2, 'Born in Steventon');
        """)
  }
  return writer
}

@Suite("Associations of a Table: belongsTo, hasOne, hasMany and their through forms")
struct TableAssociationsTests {
  @Test(
    "belongsTo a Table or a record type joins the referenced row, under the destination table's key",
    arguments: RequestProtocolStore.allCases)
  func belongsTo(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeLibrary(store, directory)
    try writer.read { db in
      let rows = try books.including(required: books.belongsTo(authors)).order(Column("id")).fetchAll(db)
      #expect(rows.map { $0.scopes["author"]?["name"] as String? } == ["Melville", "Austen", "Austen"])

      let recordRows = try books.including(required: books.belongsTo(Author.self, key: "writer"))
        .order(Column("id")).fetchAll(db)
      let writers = try recordRows.map { try Author(row: #require($0.scopes["writer"])) }
      #expect(writers.map(\.name) == ["Melville", "Austen", "Austen"])
    }
  }

  @Test("hasMany a Table or a record type prefetches the rows that refer to each row")
  func hasMany() throws {
    let directory = TemporaryDirectory()
    let writer = try makeLibrary(.queue, directory)
    try writer.read { db in
      let rows = try authors.including(all: authors.hasMany(books)).order(Column("id")).fetchAll(db)
      #expect(rows.map { $0.prefetchedRows["books"]?.count } == [1, 2, 0])

      let withRecords = try authors.including(all: authors.hasMany(Book.self, key: "works"))
        .order(Column("id")).fetchAll(db)
      let works = try withRecords.map { try ($0.prefetchedRows["works"] ?? []).map(Book.init(row:)) }
      #expect(works.map { $0.map(\.title) } == [["Moby-Dick"], ["Emma", "Persuasion"], []])

      let counts = try authors.annotated(with: authors.hasMany(books).count).order(Column("id"))
        .fetchAll(db).map { $0["bookCount"] as Int? }
      #expect(counts == [1, 2, 0])
    }
  }

  @Test("hasOne a Table or a record type joins the one row that refers to each row")
  func hasOne() throws {
    let directory = TemporaryDirectory()
    let writer = try makeLibrary(.queue, directory)
    try writer.read { db in
      let biographies = Table("biography")
      let rows = try authors.including(optional: authors.hasOne(biographies)).order(Column("id")).fetchAll(db)
      #expect(rows.map { $0.scopes["biography"]?["text"] as String? } == [nil, "Born in Steventon", nil])

      let author = try biographies.including(required: biographies.belongsTo(Author.self)).fetchOne(db)
      #expect(author?.scopes["author"]?["name"] == "Austen")
      let withBiography = try authors.joining(required: authors.hasOne(Biography.self)).fetchAll(db)
      #expect(withBiography.map { $0["name"] as String? } == ["Austen"])
      let biography = try authors.including(required: authors.hasOne(Biography.self)).fetchOne(db)
        .map { try Biography(row: #require($0.scopes["biography"])) }
      #expect(biography?.text == "Born in Steventon")
    }
  }

  @Test("hasMany and hasOne through another association follow both steps")
  func through() throws {
    let directory = TemporaryDirectory()
    let writer = try makeLibrary(.queue, directory)
    try writer.read { db in
      let authorBooks = authors.hasMany(books)
      let bookTagLinks = books.hasMany(bookTags)
      let tagOfLink = bookTags.belongsTo(tags)
      let bookTagsTags = books.hasMany(Row.self, through: bookTagLinks, using: tagOfLink, key: "tags")
      let authorTags = authors.hasMany(Row.self, through: authorBooks, using: bookTagsTags)
      let rows = try authors.including(all: authorTags.distinct().order(Column("label")))
        .order(Column("id")).fetchAll(db)
      #expect(
        rows.map { ($0.prefetchedRows["tags"] ?? []).map { $0["label"] as String? } } == [
          ["classic", "sea"], ["classic", "romance"], [],
        ])

      let bookAuthor = books.belongsTo(authors)
      let authorBiography = authors.hasOne(Table("biography"))
      let bookBiography = books.hasOne(
        Row.self, through: bookAuthor, using: authorBiography, key: "authorBio")
      let bioRows = try books.including(optional: bookBiography).order(Column("id")).fetchAll(db)
      // The destination is a scope of the pivot's scope, found at any depth.
      #expect(bioRows.map(\.scopes.names) == [["author"], ["author"], ["author"]])
      let texts = bioRows.map { $0.scopesTree["authorBio"]?["text"] as String? }
      #expect(texts == [nil, "Born in Steventon", "Born in Steventon"])
    }
  }
}
