import Foundation
import Sealite
import Testing

/// The ids of the documents whose index entry matches `pattern`.
private func matchingIDs(_ db: Database, _ pattern: String) throws -> [Int64] {
  try Int64.fetchAll(
    db, sql: "SELECT docid FROM ft_documents WHERE ft_documents MATCH ? ORDER BY docid", arguments: [pattern])
}

/// The names of the triggers of the schema, sorted.
private func triggerNames(_ db: Database) throws -> [String] {
  try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
}

/// A `documents` content table, with `rows` inserted before the FTS4 table
/// `ft_documents` is created, synchronized with it.
private func makeSynchronized(_ db: Database, rows: [String] = [], ifNotExists: Bool = false) throws
  -> [String]
{
  try db.create(table: "documents") { t in
    t.primaryKey("id", .integer)
    t.column("content", .text)
    t.column("lang", .text)
  }
  for row in rows { try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: [row]) }
  return try capturedSQL(db) {
    try db.create(virtualTable: "ft_documents", options: ifNotExists ? .ifNotExists : [], using: FTS4()) {
      t in
      t.synchronize(withTable: "documents")
      t.column("content")
    }
  }
}

@Suite("Full-text search: FTS4 tables synchronized with a content table")
struct FTS4SynchronizationTests {
  @Test("Creation writes the content option, GRDB's four triggers, and a rebuild", arguments: [false, true])
  func creationSQL(ifNotExists: Bool) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      let sql = try makeSynchronized(db, ifNotExists: ifNotExists)
      let ine = ifNotExists ? "IF NOT EXISTS " : ""
      #expect(
        sql.contains("CREATE VIRTUAL TABLE \(ine)\"ft_documents\" USING fts4(content, content=\"documents\")")
      )
      let forget = "\n    DELETE FROM \"ft_documents\" WHERE docid=old.\"id\";\nEND"
      let learn =
        "\n    INSERT INTO \"ft_documents\"(\"docid\", \"content\") VALUES(new.\"id\", new.\"content\");\nEND"
      let expected = [
        "CREATE TRIGGER \(ine)\"__ft_documents_bu\" BEFORE UPDATE ON \"documents\" BEGIN" + forget,
        "CREATE TRIGGER \(ine)\"__ft_documents_bd\" BEFORE DELETE ON \"documents\" BEGIN" + forget,
        "CREATE TRIGGER \(ine)\"__ft_documents_au\" AFTER UPDATE ON \"documents\" BEGIN" + learn,
        "CREATE TRIGGER \(ine)\"__ft_documents_ai\" AFTER INSERT ON \"documents\" BEGIN" + learn,
      ]
      for trigger in expected { #expect(sql.contains(trigger), "\(sql)") }
      #expect(sql.contains("INSERT INTO \"ft_documents\"(\"ft_documents\") VALUES('rebuild')"))
      #expect(
        try triggerNames(db) == [
          "__ft_documents_ai", "__ft_documents_au", "__ft_documents_bd", "__ft_documents_bu",
        ])
    }
  }

  @Test("Rows already in the content table are indexed when the FTS table is created")
  func rebuild() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      _ = try makeSynchronized(db, rows: ["foo", "bar", "foo bar"])
      #expect(try matchingIDs(db, "foo") == [1, 3])
      #expect(try matchingIDs(db, "bar") == [2, 3])
      #expect(
        try String.fetchAll(
          db, sql: "SELECT content FROM ft_documents WHERE ft_documents MATCH 'bar' ORDER BY docid") == [
            "bar", "foo bar",
          ])
    }
  }

  @Test("An insert into the content table is indexed", arguments: RequestProtocolStore.allCases)
  func insert(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { db in
      _ = try makeSynchronized(db)
      try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
    }
    try writer.read { (db: Database) throws in
      #expect(try matchingIDs(db, "foo") == [1])
      #expect(try matchingIDs(db, "bar") == [])
    }
  }

  @Test("An update of the content table replaces the index entry", arguments: RequestProtocolStore.allCases)
  func update(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { db in
      _ = try makeSynchronized(db, rows: ["foo", "other"])
      try db.execute(sql: "UPDATE documents SET content = ? WHERE id = 1", arguments: ["bar"])
    }
    try writer.read { (db: Database) throws in
      #expect(try matchingIDs(db, "foo") == [])
      #expect(try matchingIDs(db, "bar") == [1])
      #expect(try matchingIDs(db, "other") == [2])
    }
  }

  @Test("A delete from the content table removes the index entry", arguments: RequestProtocolStore.allCases)
  func delete(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { db in
      _ = try makeSynchronized(db, rows: ["foo", "foo bar"])
      try db.execute(sql: "DELETE FROM documents WHERE id = ?", arguments: [1])
    }
    try writer.read { (db: Database) throws in
      #expect(try matchingIDs(db, "foo") == [2])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ft_documents") == 1)
    }
  }

  @Test("A content table without an explicit rowid column is followed through its rowid")
  func implicitRowID() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      try db.execute(sql: "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('alpha')")
      let sql = try capturedSQL(db) {
        try db.create(virtualTable: "notes_ft", using: FTS4()) { t in
          t.synchronize(withTable: "notes")
          t.column("body")
        }
      }
      #expect(sql.contains { $0.contains("DELETE FROM \"notes_ft\" WHERE docid=old.\"rowid\";") })
      try db.execute(sql: "INSERT INTO notes VALUES ('beta')")
      try db.execute(sql: "UPDATE notes SET body = 'gamma' WHERE body = 'alpha'")
      #expect(
        try String.fetchAll(
          db, sql: "SELECT body FROM notes_ft WHERE notes_ft MATCH 'gamma OR beta' ORDER BY docid") == [
            "gamma", "beta",
          ])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notes_ft WHERE notes_ft MATCH 'alpha'") == 0)
    }
  }

  @Test("synchronize(withTable:) sets content; setting content afterwards ends the synchronization")
  func contentProperty() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      try db.execute(sql: "CREATE TABLE documents(id INTEGER PRIMARY KEY, content TEXT)")
      var content: String?
      let sql = try capturedSQL(db) {
        try db.create(virtualTable: "ft_documents", using: FTS4()) { t in
          t.synchronize(withTable: "documents")
          content = t.content
          t.content = "documents"
          t.column("content")
        }
      }
      #expect(content == "documents")
      #expect(!sql.contains { $0.contains("CREATE TRIGGER") })
      #expect(try triggerNames(db) == [])
    }
  }

  @Test("A temporary synchronized table throws, and leaves nothing")
  func temporary() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      try db.execute(sql: "CREATE TABLE documents(id INTEGER PRIMARY KEY, content TEXT)")
      #expect(throws: DatabaseError.self) {
        try db.create(virtualTable: "ft_documents", options: .temporary, using: FTS4()) { t in
          t.synchronize(withTable: "documents")
          t.column("content")
        }
      }
      #expect(!(try db.tableExists("ft_documents")))
    }
  }

  @Test(
    "Dropping the triggers frees the content table, and the index can be made again",
    arguments: RequestProtocolStore.allCases)
  func dropTriggers(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { db in try dropTriggersThenRecreate(db) }
    try writer.read { (db: Database) throws in #expect(try matchingIDs(db, "bar") == [1]) }
  }
}

/// Drops a synchronized table and its triggers, changes the content table,
/// and synchronizes a new table with it.
private func dropTriggersThenRecreate(_ db: Database) throws {
  _ = try makeSynchronized(db, rows: ["foo"])
  try db.drop(table: "ft_documents")
  // Without the FTS table, the triggers make every change fail.
  #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE documents SET content = 'x'") }
  let sql = try capturedSQL(db) { try db.dropFTS4SynchronizationTriggers(forTable: "ft_documents") }
  for suffix in ["bu", "bd", "au", "ai"] {
    #expect(sql.contains { $0.hasPrefix("DROP TRIGGER IF EXISTS \"__ft_documents_\(suffix)\"") }, "\(sql)")
  }
  #expect(try triggerNames(db) == [])
  // Triggers that do not exist are ignored (GRDB 2.3.1 named them after the content table).
  try db.dropFTS4SynchronizationTriggers(forTable: "documents")
  try db.execute(sql: "UPDATE documents SET content = ?", arguments: ["bar"])
  try db.execute(sql: "INSERT INTO documents (content) VALUES (?)", arguments: ["foo"])
  try db.execute(sql: "DELETE FROM documents WHERE content = ?", arguments: ["foo"])
  try db.create(virtualTable: "ft_documents", using: FTS4()) { t in
    t.synchronize(withTable: "documents")
    t.column("content")
  }
}
