import Foundation
import Sealite
import Testing

// The second query of `including(all:)` as GRDB writes it, and where its rows
// are found: each prefetched row ends with the key it was grouped by, named
// `grdb_<column>`; one key is compared with `=`, several are listed sorted;
// through another table, the keys filter that table in its ON clause; and a
// row finds the prefetched rows of its included to-one associations too.

@Suite("Prefetched associations: their query, their rows, their keys")
struct PrefetchQueryTests {
  private struct Author: TableRecord {
    static let databaseTableName = "author"
    static let books = hasMany(Book.self)
    static let kittens = hasMany(Book.self, key: "kittens")
    static let chapters = hasMany(Chapter.self, through: books, using: Book.chapters)
  }

  private struct Book: TableRecord {
    static let databaseTableName = "book"
    static let author = belongsTo(Author.self)
    static let chapters = hasMany(Chapter.self)
  }

  private struct Chapter: TableRecord {
    static let databaseTableName = "chapter"
  }

  /// Authors 1, 2 and 3; books 10 and 11 (author 2), 12 (author 1), 13 (no
  /// author); chapters 100 and 101 (book 10), 102 (book 12).
  private func withLibrary(_ body: (Database) throws -> Void) throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
          CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
          CREATE TABLE chapter (id INTEGER PRIMARY KEY, bookId INTEGER REFERENCES book(id));
          INSERT INTO author VALUES (1, 'a'), (2, 'b'), (3, 'c');
          INSERT INTO book VALUES (10, 2, 'x'), (11, 2, 'y'), (12, 1, 'z'), (13, NULL, 'w');
          INSERT INTO chapter VALUES (100, 10), (101, 10), (102, 12);
          """)
      try body(db)
    }
  }

  @Test("the keys are listed sorted, whatever the order of the origin rows")
  func sortedKeys() throws {
    try withLibrary { db in
      var rows: [Row] = []
      let sql = try capturedSQL(db) {
        rows = try Row.fetchAll(
          db, Author.including(all: Author.books.order(Column("id"))).order(Column("id").desc))
      }
      #expect(
        sql.last
          == #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?, ?) ORDER BY "id""#
      )
      // Bound in the sorted order: authors 3, 2, 1 were fetched.
      #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["id"] as Int64 } } == [[], [10, 11], [12]])
    }
  }

  @Test("one origin key is compared with =, as GRDB writes it")
  func oneKey() throws {
    try withLibrary { db in
      var row: Row?
      let sql = try capturedSQL(db) {
        row = try Row.fetchOne(db, Author.filter(key: 2).including(all: Author.books.order(Column("id"))))
      }
      #expect(
        sql.last == #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" = ? ORDER BY "id""#
      )
      #expect(row?.prefetchedRows["books"]?.map { $0["title"] as String } == ["x", "y"])
    }
  }

  @Test("through another table, the keys filter that table in its ON clause, and name its column")
  func throughKeysInJoin() throws {
    try withLibrary { db in
      var rows: [Row] = []
      let sql = try capturedSQL(db) {
        rows = try Row.fetchAll(
          db, Author.including(all: Author.chapters.order(Column("id"))).order(Column("id")))
      }
      #expect(
        sql.last
          == #"SELECT "chapter".*, "book"."authorId" AS "grdb_authorId" FROM "chapter" "#
          + #"JOIN "book" ON ("book"."id" = "chapter"."bookId") AND ("book"."authorId" IN (?, ?, ?)) "#
          + #"ORDER BY "chapter"."id""#)
      #expect(
        rows.map { $0.prefetchedRows["chapters"]?.map { $0["id"] as Int64 } } == [[102], [100, 101], []])
      #expect(rows[1].prefetchedRows["chapters"]?.first?.columnNames == ["id", "bookId", "grdb_authorId"])
    }
  }

  @Test("a row finds the prefetched rows of its included to-one associations, breadth first")
  func nestedPrefetchedRows() throws {
    struct SiblingBook: Decodable, FetchableRecord, Equatable {
      var id: Int64
    }
    struct BookInfo: Decodable, FetchableRecord, Equatable {
      var id: Int64
      // Found in the author's scope, decoded from the book's row.
      var books: [SiblingBook]
    }
    try withLibrary { db in
      let request = Book.including(optional: Book.author.including(all: Author.books.order(Column("id"))))
        .order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(
        rows.map { $0.prefetchedRows["books"]?.map { $0["id"] as Int64 } } == [
          [10, 11], [10, 11], [12], [],
        ])
      #expect(rows[0].prefetchedRows.keys == ["books"])
      #expect(rows[0].scopes["author"]?.prefetchedRows["books"]?.count == 2)
      #expect(rows[0].prefetchedRows.isEmpty == false)
      let infos = try BookInfo.fetchAll(db, request)
      #expect(infos.map { $0.books.map(\.id) } == [[10, 11], [10, 11], [12], []])
    }
  }

  @Test("a key given to a to-many association is singular where one row is included, as GRDB inflects it")
  func givenKeyInflected() throws {
    try withLibrary { db in
      let row = try #require(
        try Row.fetchOne(db, Author.including(required: Author.kittens).order(Column("id"))))
      #expect(Array(row.scopes.names) == ["kitten"])
      #expect(row.scopes["kitten"]?["id"] == 12)
      let aliased = try #require(
        try Row.fetchOne(db, Author.including(required: Author.books.forKey("puppies")).order(Column("id"))))
      #expect(Array(aliased.scopes.names) == ["puppy"])
      let prefetched = try #require(
        try Row.fetchOne(db, Author.including(all: Author.kittens).order(Column("id"))))
      #expect(prefetched.prefetchedRows.keys == ["kittens"])
      // A to-one key stays as given.
      let book = try #require(try Row.fetchOne(db, Book.including(required: Book.author.forKey("writers"))))
      #expect(Array(book.scopes.names) == ["writers"])
    }
  }

  @Test("a scope tree's names are a set, as GRDB gives them")
  func scopeTreeNames() throws {
    try withLibrary { db in
      let request = Chapter.including(
        required: Chapter.belongsTo(Book.self).including(required: Book.author)
      ).order(Column("id"))
      let row = try #require(try Row.fetchOne(db, request))
      let names: Set<String> = row.scopesTree.names
      #expect(names == ["book", "author"])
    }
  }
}
