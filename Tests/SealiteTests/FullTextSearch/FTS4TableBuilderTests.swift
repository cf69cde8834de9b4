import Foundation
import Sealite
import Testing

@Suite("Full-text search: creating FTS4 tables")
struct FTS4TableBuilderTests {
  @Test("A table without body is created as `USING fts4`, with the creation options")
  func withoutBody() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      var sql = try capturedSQL(db) { try db.create(virtualTable: "documents", using: FTS4()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE \"documents\" USING fts4"))
      sql = try capturedSQL(db) {
        try db.create(virtualTable: "documents", options: .ifNotExists, using: FTS4())
      }
      #expect(sql.contains("CREATE VIRTUAL TABLE IF NOT EXISTS \"documents\" USING fts4"))
      sql = try capturedSQL(db) { try db.create(virtualTable: "scratch", options: .temporary, using: FTS4()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE temp.\"scratch\" USING fts4"))
      sql = try capturedSQL(db) { try db.create(virtualTable: "documents", ifNotExists: true, using: FTS4()) }
      #expect(sql.contains("CREATE VIRTUAL TABLE IF NOT EXISTS \"documents\" USING fts4"))
      try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["abc"])
      #expect(try fts3MatchCount(db, "documents", "abc") == 1)
    }
  }

  @Test("Tokenizers are written as for FTS3")
  func tokenizers() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      var sql = try capturedSQL(db) {
        try db.create(virtualTable: "a", using: FTS4()) { t in t.tokenizer = .porter }
      }
      #expect(sql.contains("CREATE VIRTUAL TABLE \"a\" USING fts4(tokenize=porter)"))
      sql = try capturedSQL(db) {
        try db.create(virtualTable: "b", using: FTS4()) { t in t.tokenizer = .unicode61(diacritics: .keep) }
      }
      #expect(
        sql.contains("CREATE VIRTUAL TABLE \"b\" USING fts4(tokenize=unicode61 \"remove_diacritics=0\")"))
    }
  }

  @Test("Columns out of the index are stored, never matched")
  func notIndexedColumns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      let sql = try capturedSQL(db) {
        try db.create(virtualTable: "books", using: FTS4()) { t in
          t.column("author").notIndexed()
          t.column("title")
          t.column("body").notIndexed()
        }
      }
      #expect(
        sql.contains(
          "CREATE VIRTUAL TABLE \"books\" USING fts4(author, notindexed=author, title, body, notindexed=body)"
        ))
      try db.execute(
        sql: "INSERT INTO books VALUES (?, ?, ?)", arguments: ["Melville", "Moby Dick", "Call me Ishmael."])
      #expect(try fts3MatchCount(db, "books", "Dick") == 1)
      #expect(try fts3MatchCount(db, "books", "title:Dick") == 1)
      #expect(try fts3MatchCount(db, "books", "Melville") == 0)
      #expect(try fts3MatchCount(db, "books", "Melville", column: "author") == 0)
      #expect(try fts3MatchCount(db, "books", "Ishmael") == 0)
      #expect(try String.fetchOne(db, sql: "SELECT author FROM books") == "Melville")
    }
  }

  @Test("The FTS4 options are written as GRDB writes them; a language id restricts matches")
  func fts4Options() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      let sql = try capturedSQL(db) {
        try db.create(virtualTable: "documents", using: FTS4()) { t in
          t.content = ""
          t.compress = "zip"
          t.uncompress = "unzip"
          t.matchinfo = "fts3"
          t.prefixes = [4, 2]
          t.column("content")
          t.column("lid").asLanguageId()
        }
      }
      #expect(
        sql.contains(
          "CREATE VIRTUAL TABLE \"documents\" USING fts4(content, languageid=\"lid\", content=\"\", "
            + "compress=\"zip\", uncompress=\"unzip\", matchinfo=\"fts3\", prefix=\"2,4\")"))
      try db.execute(
        sql: "INSERT INTO documents (docid, content, lid) VALUES (?, ?, ?)", arguments: [1, "abc", 0])
      #expect(
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ? AND lid=0", arguments: ["abc"])
          == 1)
      #expect(
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ? AND lid=1", arguments: ["abc"])
          == 0)
    }
  }

  @Test("An external content table is read by the index, and `content` reads it back")
  func externalContent() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      try db.execute(sql: "CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT)")
      try db.execute(sql: "INSERT INTO doc(body) VALUES ('secret garden')")
      var definitionContent: String?
      let sql = try capturedSQL(db) {
        try db.create(virtualTable: "doc_ft", using: FTS4()) { t in
          t.content = "doc"
          definitionContent = t.content
          t.column("body")
        }
      }
      #expect(definitionContent == "doc")
      #expect(sql.contains("CREATE VIRTUAL TABLE \"doc_ft\" USING fts4(body, content=\"doc\")"))
      // Without synchronization, the application fills the index itself.
      #expect(!sql.contains { $0.hasPrefix("CREATE TRIGGER") })
      #expect(try fts3MatchCount(db, "doc_ft", "garden") == 0)
      try db.execute(sql: "INSERT INTO doc_ft(doc_ft) VALUES('rebuild')")
      #expect(
        try String.fetchAll(db, sql: "SELECT body FROM doc_ft WHERE doc_ft MATCH 'garden'") == [
          "secret garden"
        ])
    }
  }

  @Test("Compression functions given as options are called by the index")
  func compression() throws {
    let directory = TemporaryDirectory()
    let calls = Locked<Set<String>>([])
    var configuration = rawKeyConfiguration()
    configuration.prepareDatabase { db in
      db.add(
        function: DatabaseFunction("zipit", argumentCount: 1, pure: true) { values in
          calls.withLock { _ = $0.insert("zip") }
          return values[0]
        })
      db.add(
        function: DatabaseFunction("unzipit", argumentCount: 1, pure: true) { values in
          calls.withLock { _ = $0.insert("unzip") }
          return values[0]
        })
    }
    let dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
    try dbPool.write { db in
      try db.create(virtualTable: "documents", using: FTS4()) { t in
        t.compress = "zipit"
        t.uncompress = "unzipit"
        t.column("content")
      }
      try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["abc"])
    }
    let content = try dbPool.read { db in try String.fetchOne(db, sql: "SELECT content FROM documents") }
    #expect(content == "abc")
    #expect(calls.value == ["zip", "unzip"])
  }
}
