import Foundation
import Sealite

// README:begin fts4-records
struct Book: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var title: String
  var author: String
}

/// The full-text index of the books: a record too, to query it with `matching(_:)`.
struct BookFullText: TableRecord {
  static let databaseTableName = "book_ft"
}
// README:end fts4-records

/// The DocC article "Full-text search": an FTS4 index kept in sync with a table and
/// queried with patterns and the query interface, on a database of its own in
/// `directory`. FTS4 is in every SQLCipher Sealite supports, 3.4.1 included.
func fullTextSearchExamples(in directory: URL) throws {
  let dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("books.sqlite").path)

  // README:begin fts4-table
  try dbQueue.write { db in
    try db.create(table: "book") { t in
      t.primaryKey("id", .integer)
      t.column("title", .text).notNull()
      t.column("author", .text).notNull()
    }
    // The index stores no copy of the text: it reads `book`, and its triggers follow
    // every insert, update and delete of `book`.
    try db.create(virtualTable: "book_ft", using: FTS4()) { t in
      t.synchronize(withTable: "book")
      t.tokenizer = .porter
      t.column("title")
      t.column("author")
    }
    try Book(id: 1, title: "Moby-Dick", author: "Herman Melville").insert(db)
    try Book(id: 2, title: "Billy Budd, Sailor", author: "Herman Melville").insert(db)
    try Book(id: 3, title: "The Old Man and the Sea", author: "Ernest Hemingway").insert(db)
  }
  // README:end fts4-table

  // README:begin fts4-query
  let (melville, sailors, nothing) = try dbQueue.read { db in
    // Records of the indexed table, through a join on the rowid
    let pattern = FTS3Pattern(matchingAllTokensIn: "herman melville")
    let melville = try Book.fetchAll(
      db,
      sql: """
        SELECT book.* FROM book
        JOIN book_ft ON book_ft.rowid = book.rowid AND book_ft MATCH ?
        ORDER BY book.title
        """,
      arguments: [pattern])

    // The query interface: matching(_:) filters the index itself, and a column of the
    // index matches on its own with match(_:).
    let sailors = try BookFullText.matching(FTS3Pattern(matchingAllPrefixesIn: "sail"))
      .select(Column("title"), as: String.self)
      .fetchAll(db)

    // A pattern made of no word is nil, and matching(nil) matches nothing.
    let nothing = try BookFullText.filter(Column("author").match(FTS3Pattern(matchingAnyTokenIn: "--")))
      .fetchCount(db)
    return (melville, sailors, nothing)
  }
  print(melville.map(\.title))  // ["Billy Budd, Sailor", "Moby-Dick"]
  print(sailors)  // ["Billy Budd, Sailor"]
  print(nothing)  // 0
  // README:end fts4-query
  check(melville.map(\.title) == ["Billy Budd, Sailor", "Moby-Dick"], "melville: \(melville.map(\.title))")
  check(sailors == ["Billy Budd, Sailor"], "sailors: \(sailors)")
  check(nothing == 0, "nothing: \(nothing)")

  // README:begin fts-raw-pattern
  // Patterns typed by a power user, in SQLite's query syntax: checked when made.
  let phrase = try FTS3Pattern(rawPattern: "\"old man\" OR moby")
  let phraseMatches = try dbQueue.read { db in try BookFullText.matching(phrase).fetchCount(db) }
  print(phraseMatches)  // 2
  do {
    _ = try FTS3Pattern(rawPattern: "moby OR")
  } catch let error as DatabaseError {
    print(error.message ?? "")  // malformed MATCH expression: [moby OR]
  }
  // README:end fts-raw-pattern
  check(phraseMatches == 2, "phrase: \(phraseMatches)")
  check(hasPrinted(containing: "malformed MATCH expression"), "a malformed pattern was accepted")
  try dbQueue.close()
}
