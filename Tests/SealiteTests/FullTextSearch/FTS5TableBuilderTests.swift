import Foundation
import Sealite
import Testing

@Suite("FTS5 tables: the CREATE VIRTUAL TABLE statement and its options", .enabled(if: fts5Available))
struct FTS5TableBuilderTests {
  /// The statements `body` runs on a fresh queue.
  private func statements(_ body: (Database) throws -> Void) throws -> [String] {
    try DatabaseQueue().inDatabase { (db: Database) throws in try capturedSQL(db) { try body(db) } }
  }

  @Test("a table of one column, with the options of create(virtualTable:)")
  func options() throws {
    let cases: [(VirtualTableOptions, String)] = [
      ([], "CREATE VIRTUAL TABLE \"documents\" USING fts5(content)"),
      (.ifNotExists, "CREATE VIRTUAL TABLE IF NOT EXISTS \"documents\" USING fts5(content)"),
      (.temporary, "CREATE VIRTUAL TABLE temp.\"documents\" USING fts5(content)"),
    ]
    for (options, sql) in cases {
      try DatabaseQueue().inDatabase { (db: Database) throws in
        let run = try capturedSQL(db) {
          try db.create(virtualTable: "documents", options: options, using: FTS5()) { t in t.column("content")
          }
        }
        #expect(run.contains(sql), "\(run)")
        try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["abc"])
        #expect(try fts5Count(db, "documents", "abc") == 1)
      }
    }
    let legacy = try statements { (db: Database) throws in
      try db.create(virtualTable: "documents", ifNotExists: true, using: FTS5()) { t in t.column("content") }
    }
    #expect(legacy.contains("CREATE VIRTUAL TABLE IF NOT EXISTS \"documents\" USING fts5(content)"))
  }

  @Test("tokenizers are written as a quoted list of quoted components")
  func tokenizers() throws {
    let cases: [(FTS5TokenizerDescriptor, String)] = [
      (.ascii(), "'''ascii'''"),
      (.ascii(separators: ["X"]), "'''ascii'' ''separators'' ''X'''"),
      (.ascii(tokenCharacters: Set(".-")), "'''ascii'' ''tokenchars'' ''-.'''"),
      (.porter(), "'''porter'''"),
      (.porter(wrapping: .ascii()), "'''porter'' ''ascii'''"),
      (.porter(wrapping: .unicode61()), "'''porter'' ''unicode61'''"),
      (.unicode61(), "'''unicode61'''"),
      (.unicode61(diacritics: .keep), "'''unicode61'' ''remove_diacritics'' ''0'''"),
      (.unicode61(diacritics: .remove), "'''unicode61'' ''remove_diacritics'' ''2'''"),
      (.unicode61(separators: ["X"]), "'''unicode61'' ''separators'' ''X'''"),
      (.unicode61(tokenCharacters: Set(".-")), "'''unicode61'' ''tokenchars'' ''-.'''"),
      (.unicode61(categories: "L* N* Co S*"), "'''unicode61'' ''categories'' ''L* N* Co S*'''"),
    ]
    for (tokenizer, option) in cases {
      let run = try statements { (db: Database) throws in
        try db.create(virtualTable: "documents", using: FTS5()) { t in
          t.tokenizer = tokenizer
          t.column("content")
        }
      }
      #expect(
        run.contains("CREATE VIRTUAL TABLE \"documents\" USING fts5(content, tokenize=\(option))"), "\(run)")
    }
    #expect(
      FTS5TokenizerDescriptor.unicode61(diacritics: .keep).components == [
        "unicode61", "remove_diacritics", "0",
      ])
    #expect(FTS5TokenizerDescriptor(components: ["porter", "ascii"]).components == ["porter", "ascii"])
  }

  @Test("columns are matched, or stored only when not indexed")
  func columns() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      let run = try capturedSQL(db) {
        try db.create(virtualTable: "books", using: FTS5()) { t in
          t.column("author").notIndexed()
          t.column("title")
          t.column("body").notIndexed()
        }
      }
      #expect(
        run.contains("CREATE VIRTUAL TABLE \"books\" USING fts5(author UNINDEXED, title, body UNINDEXED)"))
      try db.execute(
        sql: "INSERT INTO books VALUES (?, ?, ?)", arguments: ["Melville", "Moby Dick", "Call me Ishmael."])
      #expect(try fts5Count(db, "books", "Dick") == 1)
      #expect(try fts5Count(db, "books", "title:Dick") == 1)
      #expect(try fts5Count(db, "books", "author:Dick") == 0)
      #expect(try fts5Count(db, "books", "Melville") == 0)
      #expect(try fts5Count(db, "books", "Ishmael") == 0)
    }
  }

  @Test("content, prefixes, column size and detail options")
  func fts5Options() throws {
    let run = try statements { (db: Database) throws in
      try db.create(virtualTable: "documents", using: FTS5()) { t in
        t.content = ""
        t.prefixes = [4, 2]
        t.columnSize = 0
        t.detail = "column"
        t.column("content")
      }
    }
    #expect(
      run.contains(
        "CREATE VIRTUAL TABLE \"documents\" USING fts5(content, content='', prefix='2 4', columnSize=0, detail=column)"
      ), "\(run)")
    let external = try statements { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT)")
      try db.create(virtualTable: "ft", using: FTS5()) { t in
        t.content = "doc"
        t.contentRowID = "id"
        #expect(t.content == "doc")
        #expect(t.contentRowID == "id")
        t.column("body")
      }
    }
    #expect(
      external.contains("CREATE VIRTUAL TABLE \"ft\" USING fts5(body, content='doc', content_rowid='id')"))
  }

  @Test("a table without columns, or a temporary synchronized table, is a misuse error")
  func misuses() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      #expect(throws: DatabaseError.self) { try db.create(virtualTable: "empty", using: FTS5()) { _ in } }
      #expect(try !db.tableExists("empty"))
      try db.execute(sql: "CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT)")
      #expect(throws: DatabaseError.self) {
        try db.create(virtualTable: "ft", options: .temporary, using: FTS5()) { t in
          t.synchronize(withTable: "doc")
          t.column("body")
        }
      }
      // Nothing is left of the failed creation.
      #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_temp_master").isEmpty)
    }
  }
}
