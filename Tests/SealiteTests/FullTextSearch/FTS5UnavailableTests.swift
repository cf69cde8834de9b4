import Foundation
import Sealite
import Testing

/// Checks that `body` throws the SQLiteFeatureError that names FTS5.
private func expectFTS5Missing<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) {
  let error = #expect(throws: SQLiteFeatureError.self, sourceLocation: sourceLocation) { _ = try body() }
  #expect(error?.capability == .fts5, sourceLocation: sourceLocation)
  #expect(error?.description.contains("FTS5") == true, sourceLocation: sourceLocation)
}

private final class PlainTokenizer: FTS5WrapperTokenizer {
  static let name = "plain"
  let wrappedTokenizer: any FTS5Tokenizer
  init(db: Database, arguments: [String]) throws { wrappedTokenizer = try db.makeTokenizer(.ascii()) }
  func accept(
    token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws {
    try tokenCallback(token, flags)
  }
}

@Suite(
  "Without FTS5 (the legacy leg), every FTS5 entry point throws the error that names it",
  .enabled(if: !fts5Available))
struct FTS5UnavailableTests {
  @Test("tables, tokenizers and patterns throw SQLiteFeatureError, and nothing is created")
  func entryPoints() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.inDatabase { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE documents(id INTEGER PRIMARY KEY, content TEXT)")
      expectFTS5Missing { try db.create(virtualTable: "ft", using: FTS5()) { t in t.column("content") } }
      expectFTS5Missing {
        try db.create(virtualTable: "ft", using: FTS5()) { t in
          t.synchronize(withTable: "documents")
          t.column("content")
        }
      }
      #expect(try !db.tableExists("ft"))
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
      expectFTS5Missing { try db.makeTokenizer(.unicode61()) }
      expectFTS5Missing { try db.makeTokenizer(.trigram()) }
      expectFTS5Missing { try db.makeFTS5Pattern(rawPattern: "foo", forTable: "documents") }
      // Registering a tokenizer does nothing (it does not throw in GRDB); its
      // tables throw.
      db.add(tokenizer: PlainTokenizer.self)
      expectFTS5Missing {
        try db.create(virtualTable: "ft", using: FTS5()) { t in
          t.tokenizer = PlainTokenizer.tokenizerDescriptor()
          t.column("content")
        }
      }
      expectFTS5Missing { try db.makeTokenizer(PlainTokenizer.tokenizerDescriptor()) }
      // Dropping triggers that were never made is harmless.
      try db.dropFTS5SynchronizationTriggers(forTable: "ft")
    }
    expectFTS5Missing { try FTS5Pattern(rawPattern: "foo") }
    #expect(FTS5Pattern(matchingAnyTokenIn: "foo bar") == nil)
    #expect(FTS5Pattern(matchingAllTokensIn: "foo bar") == nil)
    #expect(FTS5Pattern(matchingAllPrefixesIn: "foo bar") == nil)
    #expect(FTS5Pattern(matchingPhrase: "foo bar") == nil)
    #expect(FTS5Pattern(matchingPrefixPhrase: "foo bar") == nil)
    #expect(FTS5Pattern.fromDatabaseValue("foo".databaseValue) == nil)
    #expect(!SQLiteFeatures.linked.supports(.fts5Trigram))
  }
}
