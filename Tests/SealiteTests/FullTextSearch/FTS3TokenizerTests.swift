import Foundation
import Sealite
import Testing

/// True if a document holding `content` matches `query` in the empty
/// `documents` table; the document is removed afterwards.
private func matches(_ db: Database, _ content: String, _ query: String) throws -> Bool {
  try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: [content])
  defer { try? db.execute(sql: "DELETE FROM documents") }
  return try fts3MatchCount(db, "documents", query) > 0
}

/// What each tokenizer makes of case, stemming and diacritics, after GRDB's tests.
private struct TokenizerBehaviour: Sendable, CustomTestStringConvertible {
  let tokenizer: FTS3TokenizerDescriptor
  let name: String
  let stems: Bool
  let foldsDiacritics: Bool
  let foldsUnicodeCase: Bool
  var testDescription: String { name }
}

@Suite("Full-text search: FTS3 tokenizers")
struct FTS3TokenizerTests {
  fileprivate static let behaviours: [TokenizerBehaviour] = [
    .init(tokenizer: .simple, name: "simple", stems: false, foldsDiacritics: false, foldsUnicodeCase: false),
    .init(tokenizer: .porter, name: "porter", stems: true, foldsDiacritics: false, foldsUnicodeCase: false),
    .init(
      tokenizer: .unicode61(), name: "unicode61", stems: false, foldsDiacritics: true, foldsUnicodeCase: true),
    .init(
      tokenizer: .unicode61(diacritics: .keep), name: "unicode61 keeping diacritics", stems: false,
      foldsDiacritics: false, foldsUnicodeCase: true),
  ]

  @Test("Each tokenizer matches case, stems and diacritics as SQLite documents", arguments: behaviours)
  fileprivate func behaviour(_ behaviour: TokenizerBehaviour) throws {
    for module in ["fts3", "fts4"] {
      let dbQueue = try DatabaseQueue()
      try dbQueue.inDatabase { db in
        if module == "fts3" {
          try db.create(virtualTable: "documents", using: FTS3()) { t in t.tokenizer = behaviour.tokenizer }
        } else {
          try db.create(virtualTable: "documents", using: FTS4()) { t in t.tokenizer = behaviour.tokenizer }
        }
        #expect(try matches(db, "abcDÉF", "abcDÉF"), "\(module)")
        #expect(try matches(db, "database", "databases") == behaviour.stems, "\(module)")
        #expect(try matches(db, "eéÉ", "Èèe") == behaviour.foldsDiacritics, "\(module)")
        #expect(try matches(db, "jérôme", "JÉRÔME") == behaviour.foldsUnicodeCase, "\(module)")
      }
    }
  }

  @Test("unicode61 removing all diacritics folds them; on SQLite before 3.27 it throws SQLiteFeatureError")
  func unicode61RemoveDiacritics() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      let create = {
        try db.create(virtualTable: "documents", using: FTS3()) { t in
          t.tokenizer = .unicode61(diacritics: .remove)
        }
      }
      guard db.features.supports(.unicode61RemoveDiacritics) else {
        #expect(TestEnvironment.leg != "primary")
        let error = try #require(throws: SQLiteFeatureError.self, performing: create)
        #expect(error.capability == .unicode61RemoveDiacritics)
        #expect(error.description.contains("3.27.0"))
        #expect(!(try db.tableExists("documents")))
        #expect(throws: SQLiteFeatureError.self) {
          try FTS3.tokenize("écarlates", withTokenizer: .unicode61(diacritics: .remove))
        }
        return
      }
      let sql = try capturedSQL(db, create)
      #expect(
        sql.contains(
          "CREATE VIRTUAL TABLE \"documents\" USING fts3(tokenize=unicode61 \"remove_diacritics=2\")"))
      #expect(try matches(db, "abcDÉF", "abcDÉF"))
      #expect(!(try matches(db, "database", "databases")))
      #expect(try matches(db, "eéÉ", "Èèe"))
      #expect(try matches(db, "jérôme", "JÉRÔME"))
      #expect(try FTS3.tokenize("écarlates", withTokenizer: .unicode61(diacritics: .remove)) == ["ecarlates"])
    }
  }

  @Test("unicode61 separators split tokens, token characters join them")
  func unicode61SeparatorsAndTokenCharacters() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.inDatabase { db in
      try db.create(virtualTable: "documents", using: FTS3()) { t in
        t.tokenizer = .unicode61(separators: ["X"])
      }
      #expect(try matches(db, "abcXdef", "abcXdef"))
      #expect(try matches(db, "abcXdef", "defXabc"))
      #expect(try matches(db, "abcXdef", "abc"))
      #expect(try matches(db, "abcXdef", "def"))
      try db.drop(table: "documents")
      try db.create(virtualTable: "documents", using: FTS3()) { t in
        t.tokenizer = .unicode61(tokenCharacters: Set(".-"))
      }
      #expect(try matches(db, "2016-10-04.txt", "2016-10-04.txt"))
      #expect(!(try matches(db, "2016-10-04.txt", "2016")))
      #expect(!(try matches(db, "2016-10-04.txt", "txt")))
    }
  }

  @Test("FTS3.tokenize returns the tokens each tokenizer makes, in order")
  func tokenize() throws {
    for string in ["", "?!"] {
      #expect(try FTS3.tokenize(string) == [])
      #expect(try FTS3.tokenize(string, withTokenizer: .porter) == [])
      #expect(try FTS3.tokenize(string, withTokenizer: .unicode61()) == [])
    }
    #expect(try FTS3.tokenize("Moby") == ["moby"])
    #expect(try FTS3.tokenize("Moby", withTokenizer: .simple) == ["moby"])
    #expect(try FTS3.tokenize("Moby", withTokenizer: .porter) == ["mobi"])
    #expect(try FTS3.tokenize("écarlates") == ["écarlates"])
    #expect(try FTS3.tokenize("écarlates", withTokenizer: .unicode61()) == ["ecarlates"])
    #expect(try FTS3.tokenize("écarlates", withTokenizer: .unicode61(diacritics: .keep)) == ["écarlates"])
    #expect(try FTS3.tokenize("SQLite database") == ["sqlite", "database"])
    #expect(try FTS3.tokenize("SQLite database", withTokenizer: .porter) == ["sqlite", "databas"])
    // simple folds ASCII case only.
    #expect(try FTS3.tokenize("Édouard Manet") == ["Édouard", "manet"])
    #expect(
      try FTS3.tokenize("Édouard Manet", withTokenizer: .unicode61(diacritics: .keep)) == [
        "édouard", "manet",
      ])
    #expect(try FTS3.tokenize("a-b.c", withTokenizer: .unicode61(tokenCharacters: ["-"])) == ["a-b", "c"])
    #expect(try FTS3.tokenize("aXb", withTokenizer: .unicode61(separators: ["X"])) == ["a", "b"])
  }
}
