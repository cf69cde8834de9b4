import Foundation
import Sealite
import Testing

// Associations from a record type to a table that has no record type.

private struct Author: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var name: String
  static let books = hasMany(Table("book"))
  static let biography = hasOne(Table("biography"))
}

private struct Book: Codable, FetchableRecord, TableRecord, Equatable {
  var id: Int64
  var authorId: Int64
  var title: String
  static let author = belongsTo(Table("author"))
}

@Suite("Associations from a record type to a Table")
struct RecordToTableAssociationsTests {
  @Test("belongsTo, hasOne and hasMany a Table join and prefetch its rows", arguments: [false, true])
  func recordToTable(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    let writer: any DatabaseWriter =
      encrypted
      ? try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
      : try DatabaseQueue(path: directory.path())
    try writer.write { db in
      try db.execute(
        sql: """
          CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT);
          CREATE TABLE biography (id INTEGER PRIMARY KEY, authorId INTEGER UNIQUE REFERENCES author(id), text TEXT);
          INSERT INTO author VALUES (1, 'Melville'), (2, 'Austen');
          INSERT INTO book VALUES (1, 1, 'Moby-Dick'), (2, 2, 'Emma'), (3, 2, 'Persuasion');
          INSERT INTO biography VALUES (1, 2, 'Born in Steventon');
          """)
    }
    try writer.read { db in
      let bookRows = try Book.including(required: Book.author).order(Column("id")).asRequest(of: Row.self)
        .fetchAll(db)
      #expect(bookRows.map { $0.scopes["author"]?["name"] as String? } == ["Melville", "Austen", "Austen"])

      let authorRows = try Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
        .asRequest(of: Row.self).fetchAll(db)
      #expect(
        authorRows.map { $0.prefetchedRows["books"]?.map { $0["title"] as String } } == [
          ["Moby-Dick"], ["Emma", "Persuasion"],
        ])

      let biographies = try Author.including(optional: Author.biography).order(Column("id"))
        .asRequest(of: Row.self).fetchAll(db)
      #expect(biographies.map { $0.scopes["biography"]?["text"] as String? } == [nil, "Born in Steventon"])
    }
  }
}
