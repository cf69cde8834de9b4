import Foundation
import Sealite
import Testing

@Suite("FTS5 external-content tables synchronized with a table by triggers", .enabled(if: fts5Available))
struct FTS5SynchronizationTests {
  private func makeDocuments(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
    -> any DatabaseWriter
  {
    let writer = try store.makeWriter(directory)
    try writer.write { (db: Database) throws in
      try db.create(table: "documents") { t in
        t.primaryKey("id", .integer)
        t.column("content", .text)
      }
      try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
    }
    return writer
  }

  @Test(
    "the index is rebuilt from the existing rows, then follows inserts, updates and deletes",
    arguments: RequestProtocolStore.allCases)
  func synchronization(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDocuments(store, directory)
    try writer.write { (db: Database) throws in
      try db.create(virtualTable: "ft_documents", using: FTS5()) { t in
        t.synchronize(withTable: "documents")
        t.column("content")
      }
    }
    func counts() throws -> [Int] {
      try writer.read { (db: Database) throws in
        [try fts5Count(db, "ft_documents", "foo"), try fts5Count(db, "ft_documents", "bar")]
      }
    }
    #expect(try counts() == [1, 0])
    try writer.write { (db: Database) throws in
      try db.execute(sql: "UPDATE documents SET content = ?", arguments: ["bar"])
    }
    #expect(try counts() == [0, 1])
    try writer.write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
    }
    #expect(try counts() == [1, 1])
    try writer.write { (db: Database) throws in
      try db.execute(sql: "DELETE FROM documents WHERE content = ?", arguments: ["foo"])
    }
    #expect(try counts() == [0, 1])
    // The indexed rowid is the content table's primary key.
    #expect(
      try writer.read { (db: Database) throws in
        try Int64.fetchAll(db, sql: "SELECT rowid FROM ft_documents WHERE ft_documents MATCH 'bar'")
      }
        == [1])
  }

  @Test("the statements: content options, GRDB's triggers, and the rebuild")
  func statements() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      try db.create(table: "documents") { t in
        t.primaryKey("id", .integer)
        t.column("content", .text)
      }
      let run = try capturedSQL(db) {
        try db.create(virtualTable: "ft_documents", options: .ifNotExists, using: FTS5()) { t in
          t.synchronize(withTable: "documents")
          t.column("content")
        }
      }
      let trimmed = run.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      #expect(
        trimmed.contains(
          "CREATE VIRTUAL TABLE IF NOT EXISTS \"ft_documents\" USING fts5(content, content='documents', content_rowid='id')"
        ), "\(run)")
      #expect(
        trimmed.contains(
          """
          CREATE TRIGGER IF NOT EXISTS "__ft_documents_ai" AFTER INSERT ON "documents" BEGIN
              INSERT INTO "ft_documents"("rowid", "content") VALUES (new."id", new."content");
          END
          """), "\(run)")
      #expect(
        trimmed.contains(
          """
          CREATE TRIGGER IF NOT EXISTS "__ft_documents_ad" AFTER DELETE ON "documents" BEGIN
              INSERT INTO "ft_documents"("ft_documents", "rowid", "content") VALUES('delete', old."id", old."content");
          END
          """), "\(run)")
      #expect(
        trimmed.contains(
          """
          CREATE TRIGGER IF NOT EXISTS "__ft_documents_au" AFTER UPDATE ON "documents" BEGIN
              INSERT INTO "ft_documents"("ft_documents", "rowid", "content") VALUES('delete', old."id", old."content");
              INSERT INTO "ft_documents"("rowid", "content") VALUES (new."id", new."content");
          END
          """), "\(run)")
      #expect(trimmed.contains("INSERT INTO \"ft_documents\"(\"ft_documents\") VALUES('rebuild')"), "\(run)")
    }
  }

  @Test("a content table without an integer primary key is indexed by its rowid")
  func rowidContent() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE content(id TEXT PRIMARY KEY, text TEXT)")
      try db.execute(sql: "INSERT INTO content VALUES ('a', 'hello world')")
      let run = try capturedSQL(db) {
        try db.create(virtualTable: "fts", using: FTS5()) { t in
          t.tokenizer = .porter()
          t.synchronize(withTable: "content")
          t.column("id").notIndexed()
          t.column("text")
        }
      }
      #expect(
        run.contains(
          "CREATE VIRTUAL TABLE \"fts\" USING fts5(id UNINDEXED, text, tokenize='''porter''', content='content')"
        ))
      #expect(try fts5Count(db, "fts", "worlds") == 1)
      try db.execute(
        sql:
          "INSERT INTO content VALUES ('b', 'other words') ON CONFLICT(id) DO UPDATE SET text = excluded.text"
      )
      try db.execute(
        sql: "INSERT INTO content VALUES ('a', 'changed') ON CONFLICT(id) DO UPDATE SET text = excluded.text")
      #expect(try fts5Count(db, "fts", "world") == 0)
      #expect(try fts5Count(db, "fts", "word") == 1)
      #expect(try fts5Count(db, "fts", "changed") == 1)
    }
  }

  /// A record of the content table of `rowidContent()`.
  private struct Content: Codable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "content"
    var id: String
    var text: String
  }

  // GRDB's issue 1390: an upsert into a table whose FTS5 index follows it by
  // triggers failed its transaction when its statement was left before it ran
  // to the end.
  @Test("upserts, and writes that fetch the stored row, commit in a synchronized table and are indexed")
  func writesReturningRows() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE content(id TEXT PRIMARY KEY, text TEXT)")
      try db.create(virtualTable: "fts", using: FTS5()) { t in
        t.tokenizer = .porter()
        t.synchronize(withTable: "content")
        t.column("id").notIndexed()
        t.column("text")
      }
      try db.inTransaction { () throws -> Database.TransactionCompletion in
        try Content(id: "a", text: "baz").upsert(db)
        return .commit
      }
      try db.inTransaction { () throws -> Database.TransactionCompletion in
        #expect(
          try Content(id: "a", text: "hello world").upsertAndFetch(db)
            == Content(id: "a", text: "hello world"))
        #expect(
          try Content(id: "b", text: "other words").insertAndFetch(db)
            == Content(id: "b", text: "other words"))
        #expect(
          try Content(id: "b", text: "more words").updateAndFetch(db) == Content(id: "b", text: "more words"))
        #expect(try Content(id: "c", text: "third").saveAndFetch(db) == Content(id: "c", text: "third"))
        return .commit
      }
      #expect(!db.isInsideTransaction)
      #expect(try fts5Count(db, "fts", "baz") == 0)
      #expect(try fts5Count(db, "fts", "worlds") == 1)
      #expect(try fts5Count(db, "fts", "word") == 1)
      #expect(try fts5Count(db, "fts", "third") == 1)
      #expect(try Content.fetchCount(db) == 3)
    }
  }

  @Test("dropping the triggers frees the content table, and the index can be made again")
  func dropTriggers() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      try db.create(table: "documents") { t in
        t.primaryKey("id", .integer)
        t.column("content", .text)
      }
      try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
      try db.create(virtualTable: "ft_documents", using: FTS5()) { t in
        t.synchronize(withTable: "documents")
        t.column("content")
      }
      try db.drop(table: "ft_documents")
      // With the triggers left, writes to the content table fail.
      #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE documents SET content = 'x'") }
      try db.dropFTS5SynchronizationTriggers(forTable: "documents")  // GRDB 2.3.1 named them so
      try db.dropFTS5SynchronizationTriggers(forTable: "ft_documents")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
      try db.execute(sql: "UPDATE documents SET content = ?", arguments: ["bar"])
      try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
      try db.execute(sql: "DELETE FROM documents WHERE content = ?", arguments: ["foo"])
      try db.create(virtualTable: "ft_documents", using: FTS5()) { t in
        t.synchronize(withTable: "documents")
        t.column("content")
      }
      #expect(try fts5Count(db, "ft_documents", "bar") == 1)
    }
  }
}
