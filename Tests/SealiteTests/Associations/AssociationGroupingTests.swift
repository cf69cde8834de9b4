import Foundation
import Sealite
import Testing

// group(…) and having(…) on an association: in `including(all:)`, the second
// query is grouped and filtered as the association says, as in GRDB (which
// groups the prefetched rows of all origins together: grouping by the
// foreign key keeps each origin's groups apart).

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  static let books = hasMany(Book.self)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var authorId: Int64?
  var kind: String
}

@Suite("Grouped associations")
struct AssociationGroupingTests {
  @Test(
    "including(all:) groups and filters the associated rows of each origin",
    arguments: RequestProtocolStore.allCases)
  func groupedPrefetch(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { db in
      try db.execute(
        sql: """
          CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), kind TEXT NOT NULL);
          INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cid');
          INSERT INTO book VALUES (1, 1, 'novel'), (2, 1, 'novel'), (3, 1, 'poem'), (4, 2, 'poem'), (5, 2, 'poem'),
            (6, 2, 'novel');
          """)
    }
    try writer.read { (db: Database) throws in
      let kinds = Author.books
        .select(Column("kind"), count(Column("id")).forKey("n"))
        .group(Column("authorId"), Column("kind"))
        .having(count(Column("id")) > 1)
        .order(Column("kind"))
        .forKey("kinds")
      let rows = try Row.fetchAll(db, Author.including(all: kinds).order(Column("id")))
      #expect(
        rows.map { row in
          (row.prefetchedRows["kinds"] ?? []).map { "\($0["kind"] as String):\($0["n"] as Int)" }
        }
          == [["novel:2"], ["poem:2"], []])
      let all = Author.books.select(Column("kind")).group(Column("authorId"), Column("kind")).forKey("kinds")
      let allRows = try Row.fetchAll(db, Author.including(all: all).order(Column("id")))
      #expect(allRows.map { $0.prefetchedRows["kinds"]?.count } == [2, 2, 0])
    }
  }
}
