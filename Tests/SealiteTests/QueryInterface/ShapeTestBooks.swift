import Foundation
import Sealite

/// The record of the request-shape tests: `book(id INTEGER PRIMARY KEY, title
/// TEXT NOT NULL)`.
struct ShapeTestBook: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  static let databaseTableName = "book"
  var id: Int64
  var title: String
}

/// Runs `body` in a write of an in-memory queue whose `book` table holds
/// Emma (1), Persuasion (2) and Sanditon (3).
func withShapeTestBooks(_ body: (Database) throws -> Void) throws {
  try DatabaseQueue().write { db in
    try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    for (id, title) in [(1, "Emma"), (2, "Persuasion"), (3, "Sanditon")] {
      try ShapeTestBook(id: Int64(id), title: title).insert(db)
    }
    try body(db)
  }
}
