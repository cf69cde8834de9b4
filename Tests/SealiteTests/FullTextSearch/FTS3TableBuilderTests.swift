import Foundation
import Sealite
import Testing

/// The number of rows of `table` that match `pattern`.
func fts3MatchCount(_ db: Database, _ table: String, _ pattern: String, column: String? = nil) throws -> Int {
  let lhs = (column ?? table).quotedDatabaseIdentifier
  return try Int.fetchOne(
    db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(lhs) MATCH ?",
    arguments: [pattern])!
}

@Suite("Full-text search: creating FTS3 tables")
struct FTS3TableBuilderTests {
  @Test("A table without body is created as `USING fts3`, and indexes its content")
  func withoutBody() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      let sql = try capturedSQL(db) { try db.create(virtualTable: "documents", using: FTS3()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE \"documents\" USING fts3"))
      try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["abc"])
      #expect(try fts3MatchCount(db, "documents", "abc") == 1)
    }
  }

  @Test("Options and the legacy ifNotExists flag make IF NOT EXISTS and temp tables")
  func options() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      var sql = try capturedSQL(db) { try db.create(virtualTable: "a", options: .ifNotExists, using: FTS3()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE IF NOT EXISTS \"a\" USING fts3"))
      sql = try capturedSQL(db) { try db.create(virtualTable: "b", options: .temporary, using: FTS3()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE temp.\"b\" USING fts3"))
      sql = try capturedSQL(db) { try db.create(virtualTable: "a", ifNotExists: true, using: FTS3()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE IF NOT EXISTS \"a\" USING fts3"))
      try db.execute(sql: "INSERT INTO b VALUES ('abc')")
      #expect(try fts3MatchCount(db, "b", "abc") == 1)
      #expect(try String.fetchOne(db, sql: "SELECT name FROM sqlite_temp_master WHERE name = 'b'") == "b")
    }
  }

  @Test("Tokenizers are written as GRDB writes them")
  func tokenizerSQL() throws {
    let cases: [(FTS3TokenizerDescriptor, String)] = [
      (.simple, "fts3(tokenize=simple)"),
      (.porter, "fts3(tokenize=porter)"),
      (.unicode61(), "fts3(tokenize=unicode61)"),
      (.unicode61(diacritics: .keep), "fts3(tokenize=unicode61 \"remove_diacritics=0\")"),
      (.unicode61(separators: ["X"]), "fts3(tokenize=unicode61 \"separators=X\")"),
      (.unicode61(tokenCharacters: Set(".-")), "fts3(tokenize=unicode61 \"tokenchars=-.\")"),
      (
        .unicode61(diacritics: .keep, separators: ["b", "a"], tokenCharacters: ["_"]),
        "fts3(tokenize=unicode61 \"remove_diacritics=0\" \"separators=ab\" \"tokenchars=_\")"
      ),
    ]
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      for (index, (tokenizer, module)) in cases.enumerated() {
        let sql = try capturedSQL(db) {
          try db.create(virtualTable: "t\(index)", using: FTS3()) { t in t.tokenizer = tokenizer }
        }
        #expect(sql.contains("CREATE VIRTUAL TABLE \"t\(index)\" USING \(module)"), "\(sql)")
      }
    }
  }

  @Test("Columns are declared in order, and each can be matched")
  func columns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      let sql = try capturedSQL(db) {
        try db.create(virtualTable: "books", using: FTS3()) { t in
          t.column("author")
          t.column("title")
          t.column("body")
        }
      }
      #expect(sql.contains("CREATE VIRTUAL TABLE \"books\" USING fts3(author, title, body)"))
      try db.execute(
        sql: "INSERT INTO books VALUES (?, ?, ?)", arguments: ["Melville", "Moby Dick", "Call me Ishmael."])
      #expect(try fts3MatchCount(db, "books", "Melville") == 1)
      #expect(try fts3MatchCount(db, "books", "title:Melville") == 0)
      #expect(try fts3MatchCount(db, "books", "Melville", column: "title") == 0)
      #expect(try fts3MatchCount(db, "books", "author:Melville") == 1)
      #expect(try fts3MatchCount(db, "books", "Melville", column: "author") == 1)
    }
  }
}
