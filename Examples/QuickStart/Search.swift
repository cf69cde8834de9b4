import Foundation
import Sealite

/// The README's full-text search over the music library: an FTS5 index of the track
/// titles, kept in sync with `track`, searched by title words and ranked. The library
/// has the six tracks of the quick start; `dbQueue` opens it. Needs FTS5: where the
/// linked SQLCipher has none (3.4.1), it checks the error instead.
func searchExamples(_ dbQueue: DatabaseQueue) throws {
  guard SQLiteFeatures.linked.supports(.fts5) else {
    // README:begin search-unsupported
    do {
      try dbQueue.write { db in
        try db.create(virtualTable: "trackSearch", using: FTS5()) { t in t.column("title") }
      }
    } catch let error as SQLiteFeatureError {
      print(error)  // FTS5 full-text search needs SQLITE_ENABLE_FTS5; …
    }
    // README:end search-unsupported
    check(hasPrinted(containing: "FTS5"), "no clear error for FTS5")
    check(try dbQueue.read { db in try !db.tableExists("trackSearch") }, "a half-created FTS5 table")
    return
  }

  // README:begin search
  try dbQueue.write { db in
    // An index of the track titles. Triggers keep it in sync with `track`, and the
    // porter tokenizer matches "blues" when one searches "blue".
    try db.create(virtualTable: "trackSearch", using: FTS5()) { t in
      t.synchronize(withTable: "track")
      t.tokenizer = .porter(wrapping: .unicode61())
      t.column("title")
    }
    // Tracks inserted from now on are indexed as well.
    let kindOfBlue = try Album.filter(Column("title") == "Kind of Blue").fetchOne(db)!
    var allBlues = Track(id: nil, albumId: kindOfBlue.id!, title: "All Blues", duration: 693)
    try allBlues.insert(db)
  }

  func search(_ text: String) throws -> [Track] {
    // nil when the text has no word to search: no match, rather than an SQL error.
    guard let pattern = FTS5Pattern(matchingAnyTokenIn: text) else { return [] }
    return try dbQueue.read { db in
      let request: SQLRequest<Track> = """
        SELECT track.* FROM track
        JOIN trackSearch ON trackSearch.rowid = track.id
        WHERE trackSearch MATCH \(pattern)
        ORDER BY trackSearch.rank
        """
      return try request.fetchAll(db)
    }
  }

  print(try search("blue green").map(\.title))  // ["Blue in Green", "All Blues"]: best first
  print(try search("\"so\" AND (what").map(\.title))  // ["So What"]: words, never FTS5 syntax
  print(try search("  ").map(\.title))  // []
  // README:end search

  check(try search("blue green").map(\.title) == ["Blue in Green", "All Blues"], "search: blue green")
  check(try search("\"so\" AND (what").map(\.title) == ["So What"], "search: punctuation")
  check(try search("  ").isEmpty, "search: no words")
  check(try search("freeloaders").map(\.title) == ["Freddie Freeloader"], "search: stemming")

  // The index follows deletions too.
  try dbQueue.write { db in _ = try Track.filter(Column("title") == "All Blues").deleteAll(db) }
  check(try search("blue").map(\.title) == ["Blue in Green"], "search after delete")
}
