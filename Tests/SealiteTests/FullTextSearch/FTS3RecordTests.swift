import Foundation
import Sealite
import Testing

/// A book of an FTS table, with its rowid.
private struct Book: FetchableRecord, MutablePersistableRecord {
  static var databaseTableName: String { "books" }
  static var databaseSelection: [any SQLSelectable] { [.allColumns, Column.rowID] }
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

  init(row: Row) throws {
    id = row["rowid"]
    title = row["title"]
    author = row["author"]
    body = row["body"]
  }

  func encode(to container: inout PersistenceContainer) throws {
    container["rowid"] = id
    container["title"] = title
    container["author"] = author
    container["body"] = body
  }

  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}

/// The same table seen by a record that selects its default columns.
private struct BookTitle: FetchableRecord, TableRecord {
  static var databaseTableName: String { "books" }
  var title: String
  init(row: Row) throws { title = row["title"] }
}

/// An author, and the full-text index of the books with their author's id.
private struct Author: FetchableRecord, TableRecord {
  static var databaseTableName: String { "author" }
  static let books = hasMany(IndexedBook.self, using: ForeignKey(["authorId"]))
  var name: String
  init(row: Row) throws { name = row["name"] }
}

private struct IndexedBook: TableRecord {
  static var databaseTableName: String { "indexedBook" }
}

/// A queue or an encrypted pool with an FTS3 or FTS4 `books` table holding
/// Moby Dick, created through records.
private func makeLibrary(_ store: RequestProtocolStore, _ directory: TemporaryDirectory, fts4: Bool) throws
  -> (any DatabaseWriter, Book)
{
  let writer = try store.makeWriter(directory)
  let book = try writer.write { db in
    if fts4 {
      try db.create(virtualTable: "books", using: FTS4()) { t in
        t.column("title")
        t.column("author")
        t.column("body")
      }
    } else {
      try db.create(virtualTable: "books", using: FTS3()) { t in
        t.column("title")
        t.column("author")
        t.column("body")
      }
    }
    var book = Book(title: "Moby Dick", author: "Herman Melville", body: "Call me Ishmael.")
    try book.insert(db)
    var other = Book(title: "Red Mars", author: "Kim Stanley Robinson", body: "History is not evolution!")
    try other.insert(db)
    return book
  }
  return (writer, book)
}

@Suite("Full-text search: FTS3 and FTS4 matching through records and requests")
struct FTS3RecordTests {
  static let stores = RequestProtocolStore.allCases

  @Test("matching(_:) fetches the matching records with their rowid", arguments: stores, [false, true])
  func matchingFetchesRecords(store: RequestProtocolStore, fts4: Bool) throws {
    let directory = TemporaryDirectory()
    let (writer, book) = try makeLibrary(store, directory, fts4: fts4)
    let pattern = try FTS3Pattern(rawPattern: "Herman Melville")
    try writer.read { db in
      let fetched = try #require(try Book.matching(pattern).fetchOne(db))
      #expect(fetched.id == book.id)
      #expect(fetched.title == "Moby Dick")
      #expect(fetched.author == "Herman Melville")
      #expect(fetched.body == "Call me Ishmael.")
      #expect(
        try Book.matching(FTS3Pattern(matchingAnyTokenIn: "mars evolution")).fetchAll(db).map(\.title) == [
          "Red Mars"
        ])
      #expect(try Book.all().matching(FTS3Pattern(matchingPhrase: "moby dick")).fetchCount(db) == 1)
      #expect(
        try Table<BookTitle>("books").all().matching(pattern).fetchAll(db).map(\.title) == ["Moby Dick"])
    }
  }

  @Test("The request's table MATCHes the pattern, bound as an argument", arguments: stores)
  func matchingSQL(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let (writer, _) = try makeLibrary(store, directory, fts4: false)
    let pattern = try FTS3Pattern(rawPattern: "Herman Melville")
    try writer.read { db in
      var count = 0
      var sql = try capturedSQL(db) { count = try BookTitle.matching(pattern).fetchCount(db) }
      #expect(count == 1)
      #expect(sql.contains("SELECT COUNT(*) FROM \"books\" WHERE \"books\" MATCH ?"), "\(sql)")

      sql = try capturedSQL(db) { _ = try BookTitle.matching(pattern).fetchAll(db) }
      #expect(sql.contains("SELECT * FROM \"books\" WHERE \"books\" MATCH ?"), "\(sql)")

      let statement = try BookTitle.matching(pattern).filter(Column("title") != "x").makePreparedRequest(db)
      #expect(
        statement.statement.sql == "SELECT * FROM \"books\" WHERE (\"books\" MATCH ?) AND (\"title\" <> ?)")
      #expect(statement.statement.arguments == ["Herman Melville", "x"])

      // An unnamed alias of the request keeps the table's name.
      let alias = TableAlias()
      let aliased = BookTitle.all().aliased(alias).matching(pattern).filter(alias[Column("title")] != "x")
      #expect(
        try aliased.makePreparedRequest(db).statement.sql
          == "SELECT * FROM \"books\" WHERE (\"books\" MATCH ?) AND (\"title\" <> ?)")
      #expect(try aliased.fetchAll(db).map(\.title) == ["Moby Dick"])
    }
  }

  @Test("A nil pattern matches nothing, whether on the table or on a column", arguments: stores)
  func nilPattern(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let (writer, _) = try makeLibrary(store, directory, fts4: true)
    let pattern: FTS3Pattern? = nil
    try writer.read { db in
      #expect(try Book.fetchCount(db) == 2)
      #expect(try Book.matching(pattern).fetchCount(db) == 0)
      #expect(try Book.all().matching(pattern).fetchCount(db) == 0)
      #expect(try Book.filter(Column("books").match(pattern)).fetchCount(db) == 0)
      #expect(try Book.filter(Column("author").match(pattern)).fetchCount(db) == 0)
      let sql = try capturedSQL(db) {
        _ = try BookTitle.filter(Column("author").match(pattern)).fetchCount(db)
      }
      #expect(sql.contains("SELECT COUNT(*) FROM \"books\" WHERE \"author\" MATCH NULL"), "\(sql)")
    }
  }

  @Test("Column.match(_:) matches the table's hidden column or one column", arguments: stores)
  func columnMatch(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let (writer, _) = try makeLibrary(store, directory, fts4: false)
    let pattern = try FTS3Pattern(rawPattern: "Herman Melville")
    try writer.read { db in
      #expect(try Book.filter(Column("books").match(pattern)).fetchCount(db) == 1)
      #expect(try Book.filter(Column("author").match(pattern)).fetchCount(db) == 1)
      #expect(try Book.filter(Column("title").match(pattern)).fetchCount(db) == 0)
      let sql = try capturedSQL(db) {
        _ = try BookTitle.filter(Column("author").match(pattern)).fetchCount(db)
      }
      #expect(sql.contains("SELECT COUNT(*) FROM \"books\" WHERE \"author\" MATCH ?"), "\(sql)")
    }
  }

  @Test("matching(_:) on an association filters the joined FTS table", arguments: stores)
  func matchingAssociation(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT)")
      try db.create(virtualTable: "indexedBook", using: FTS4()) { t in
        t.column("authorId").notIndexed()
        t.column("title")
      }
      try db.execute(sql: "INSERT INTO author VALUES (1, 'Herman Melville'), (2, 'Marcel Proust')")
      try db.execute(sql: "INSERT INTO indexedBook VALUES (1, 'Moby-Dick'), (2, 'Du côté de chez Swann')")
    }
    let pattern = try FTS3Pattern(rawPattern: "moby dick")
    try writer.read { db in
      let request = Author.joining(required: Author.books.matching(pattern))
      #expect(try request.fetchAll(db).map(\.name) == ["Herman Melville"])
      // Sealite writes the filters of an inner join in WHERE.
      let sql = try request.makePreparedRequest(db).statement.sql
      #expect(sql.contains(" JOIN \"indexedBook\" ON "), "\(sql)")
      #expect(sql.contains("\"indexedBook\" MATCH ?"), "\(sql)")
      // An optional join keeps its filters in its ON clause.
      let optional = Author.joining(optional: Author.books.matching(pattern)).select(Column("name"))
      #expect(
        try optional.makePreparedRequest(db).statement.sql
          == "SELECT \"author\".\"name\" FROM \"author\" LEFT JOIN \"indexedBook\" ON "
          + "(\"indexedBook\".\"authorId\" = \"author\".\"id\") AND (\"indexedBook\" MATCH ?)")
      do {
        #expect(
          try optional.order(Column("name")).asRequest(of: String.self).fetchAll(db) == [
            "Herman Melville", "Marcel Proust",
          ])
      } catch let error as DatabaseError where TestEnvironment.isLegacy {
        // SQLite 3.15 can not use MATCH in the ON clause of a LEFT JOIN, whoever writes it.
        #expect(error.message?.contains("unable to use function MATCH") == true, "\(error)")
      }
      #expect(try Author.joining(required: Author.books.matching(nil as FTS3Pattern?)).fetchCount(db) == 0)
    }
  }
}
