import Foundation
import Sealite
import Testing

/// True where the linked SQLite has FTS5 (the primary leg); the legacy leg
/// runs `FTS5UnavailableTests` instead.
let fts5Available = SQLiteFeatures.linked.supports(.fts5)

/// The number of rows of the full-text table `table` that match `pattern`.
func fts5Count(_ db: Database, _ table: String, _ pattern: some DatabaseValueConvertible) throws -> Int {
  try Int.fetchOne(
    db,
    sql:
      "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(table.quotedDatabaseIdentifier) MATCH ?",
    arguments: [pattern])!
}

/// True if `content`, inserted alone into the one-column table `documents`,
/// matches `query`.
func fts5Matches(_ db: Database, _ content: String, _ query: String) throws -> Bool {
  try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: [content])
  defer { try? db.execute(sql: "DELETE FROM documents") }
  return try fts5Count(db, "documents", query) > 0
}
