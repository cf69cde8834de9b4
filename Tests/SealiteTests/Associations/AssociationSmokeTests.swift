import Foundation
import Testing

@testable import Sealite

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  static let books = hasMany(Book.self)
  static let tags = hasMany(Tag.self, through: books, using: Book.tags)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var authorId: Int64?
  var title: String
  var year: Int
  static let author = belongsTo(Author.self)
  static let bookTags = hasMany(BookTag.self)
  static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.tag)
}

private struct Tag: Codable, FetchableRecord, PersistableRecord, Equatable, Hashable {
  var id: Int64
  var label: String
}

private struct BookTag: Codable, FetchableRecord, PersistableRecord {
  var bookId: Int64
  var tagId: Int64
  static let tag = belongsTo(Tag.self)
}

private struct BookInfo: Decodable, FetchableRecord {
  var book: Book
  var author: Author?
}

private struct AuthorInfo: Decodable, FetchableRecord {
  var author: Author
  var books: [Book]
}

private struct AuthorCount: Decodable, FetchableRecord {
  var name: String
  var bookCount: Int
}

@Suite("Association smoke")
struct AssociationSmokeTests {
  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT, year INT);
          CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT);
          CREATE TABLE bookTag (bookId INTEGER REFERENCES book(id), tagId INTEGER REFERENCES tag(id));
          """)
      try Author(id: 1, name: "Ann").insert(db)
      try Author(id: 2, name: "Bob").insert(db)
      try Author(id: 3, name: "Cid").insert(db)
      try Book(id: 1, authorId: 1, title: "A1", year: 2001).insert(db)
      try Book(id: 2, authorId: 1, title: "A2", year: 2005).insert(db)
      try Book(id: 3, authorId: 2, title: "B1", year: 1999).insert(db)
      try Book(id: 4, authorId: nil, title: "Anon", year: 1900).insert(db)
      try Tag(id: 1, label: "sf").insert(db)
      try Tag(id: 2, label: "poetry").insert(db)
      try BookTag(bookId: 1, tagId: 1).insert(db)
      try BookTag(bookId: 2, tagId: 1).insert(db)
      try BookTag(bookId: 3, tagId: 2).insert(db)
    }
    return dbQueue
  }

  @Test("belongsTo, hasMany, through, aggregates")
  func associations() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let infos = try Book.including(optional: Book.author).order(Column("id")).asRequest(of: BookInfo.self)
        .fetchAll(db)
      #expect(infos.map(\.book.title) == ["A1", "A2", "B1", "Anon"])
      #expect(infos.map { $0.author?.name } == ["Ann", "Ann", "Bob", nil])
      let required = try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
      #expect(required.count == 3)
      let authors = try Author.including(all: Author.books.order(Column("year").desc)).order(Column("id"))
        .asRequest(of: AuthorInfo.self).fetchAll(db)
      #expect(authors.map { $0.books.map(\.title) } == [["A2", "A1"], ["B1"], []])
      let counts = try Author.annotated(with: Author.books.count).order(Column("id"))
        .asRequest(of: AuthorCount.self).fetchAll(db)
      #expect(counts.map(\.bookCount) == [2, 1, 0])
      let prolific = try Author.having(Author.books.count >= 2).fetchAll(db)
      #expect(prolific.map(\.name) == ["Ann"])
      let empty = try Author.having(Author.books.isEmpty).fetchAll(db)
      #expect(empty.map(\.name) == ["Cid"])
      let recent = try Book.joining(required: Book.author.filter(Column("name") == "Ann"))
        .filter(Column("year") > 2002).fetchAll(db)
      #expect(recent.map(\.title) == ["A2"])
      let sfAuthors = try Author.joining(required: Author.tags.filter(Column("label") == "sf")).distinct()
        .fetchAll(db)
      #expect(sfAuthors.map(\.name) == ["Ann"])
      let tagCounts = try Row.fetchAll(
        db, Author.annotated(with: Author.tags.count).order(Column("id")))
      #expect(tagCounts.map { $0["tagCount"] as Int } == [2, 1, 0])
      let maxYear = try Row.fetchOne(
        db, Author.annotated(with: Author.books.max(Column("year"))).filter(Column("id") == 1))
      #expect(maxYear?["maxBookYear"] as Int? == 2005)
      let authorAlias = TableAlias<Author>()
      let ordered = try Book.joining(required: Book.author.aliased(authorAlias))
        .order(authorAlias[Column("name")].desc, Column("title")).fetchAll(db)
      #expect(ordered.map(\.title) == ["B1", "A1", "A2"])
    }
  }
}
