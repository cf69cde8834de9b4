import Foundation
import Sealite
import Testing

/// A tokenizer written against the C callback: it forwards the tokens of
/// unicode61 to SQLite, except "bar".
private final class StopWordsTokenizer: FTS5CustomTokenizer {
  static let name = "stop_words"
  let wrapped: any FTS5Tokenizer

  init(db: Database, arguments: [String]) throws {
    wrapped = try db.makeTokenizer(
      arguments.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: arguments))
  }

  private struct Forwarding {
    let context: UnsafeMutableRawPointer?
    let callback: FTS5TokenCallback
  }

  func tokenize(
    context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
    nText: CInt, tokenCallback: @escaping FTS5TokenCallback
  ) -> CInt {
    var forwarding = Forwarding(context: context, callback: tokenCallback)
    return withUnsafeMutablePointer(to: &forwarding) { pointer in
      wrapped.tokenize(context: pointer, tokenization: tokenization, pText: pText, nText: nText) {
        pointer, flags, pToken, nToken, iStart, iEnd in
        let forwarding = pointer!.assumingMemoryBound(to: Forwarding.self).pointee
        let token = String(decoding: UnsafeRawBufferPointer(start: pToken, count: Int(nToken)), as: UTF8.self)
        if token == "bar" { return 0 }  // SQLITE_OK
        return forwarding.callback(forwarding.context, flags, pToken, nToken, iStart, iEnd)
      }
    }
  }
}

/// A wrapper that drops "bar".
private final class StopWordsWrapper: FTS5WrapperTokenizer {
  static let name = "stop_words_wrapper"
  let wrappedTokenizer: any FTS5Tokenizer

  init(db: Database, arguments: [String]) throws {
    wrappedTokenizer = try db.makeTokenizer(
      arguments.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: arguments))
  }

  func accept(
    token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws {
    if token != "bar" { try tokenCallback(token, flags) }
  }
}

/// A wrapper that indexes "first" and "1st" as synonyms of each other.
private final class SynonymsTokenizer: FTS5WrapperTokenizer {
  static let name = "synonyms"
  let wrappedTokenizer: any FTS5Tokenizer
  let synonyms: [Set<String>] = [["first", "1st"]]

  init(db: Database, arguments: [String]) throws {
    wrappedTokenizer = try db.makeTokenizer(.unicode61())
  }

  func accept(
    token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws {
    // Synonyms go into the index only: queries look for the token itself.
    guard !tokenization.contains(.query), let group = synonyms.first(where: { $0.contains(token) }) else {
      return try tokenCallback(token, flags)
    }
    for (index, synonym) in group.sorted().enumerated() {
      try tokenCallback(synonym, index == 0 ? flags : flags.union(.colocated))
    }
  }
}

/// A wrapper that folds case, compatibility forms (ligatures) and diacritics
/// with Foundation, over a unicode61 that keeps them.
private final class FoldingTokenizer: FTS5WrapperTokenizer {
  static let name = "folding"
  let wrappedTokenizer: any FTS5Tokenizer

  init(db: Database, arguments: [String]) throws {
    wrappedTokenizer = try db.makeTokenizer(.unicode61(diacritics: .keep))
  }

  func accept(
    token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws {
    let folded = token.precomposedStringWithCompatibilityMapping
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    try tokenCallback(folded, flags)
  }
}

/// A wrapper that fails on "boom", to check that errors reach the statement.
private final class FailingTokenizer: FTS5WrapperTokenizer {
  static let name = "failing"
  struct Boom: Error {}
  let wrappedTokenizer: any FTS5Tokenizer

  init(db: Database, arguments: [String]) throws {
    if arguments == ["refuse"] { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "refused") }
    wrappedTokenizer = try db.makeTokenizer(.ascii())
  }

  func accept(
    token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws {
    if token == "boom" { throw Boom() }
    try tokenCallback(token, flags)
  }
}

/// A tokenizer that counts its live instances, to check that SQLite's xDelete
/// releases each one. Only `releasedWithTheirConnection` uses it.
private final class CountedTokenizer: FTS5WrapperTokenizer {
  static let name = "counted"
  static let live = Locked(0)
  let wrappedTokenizer: any FTS5Tokenizer

  init(db: Database, arguments: [String]) throws {
    wrappedTokenizer = try db.makeTokenizer(.ascii())
    Self.live.withLock { $0 += 1 }
  }

  deinit { Self.live.withLock { $0 -= 1 } }

  func accept(
    token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws {
    try tokenCallback(token, flags)
  }
}

@Suite("FTS5 custom tokenizers written in Swift", .enabled(if: fts5Available))
struct FTS5CustomTokenizerTests {
  /// Creates `documents` with `tokenizer` and inserts `contents`.
  private func makeDocuments(_ db: Database, _ tokenizer: FTS5TokenizerDescriptor, _ contents: [String])
    throws
  {
    try db.create(virtualTable: "documents", using: FTS5()) { t in
      t.tokenizer = tokenizer
      t.column("content")
    }
    for content in contents {
      try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: [content])
    }
  }

  @Test("a tokenizer on the C callback, and a wrapper, drop stop words in documents and queries")
  func stopWords() throws {
    let descriptors = [
      StopWordsTokenizer.tokenizerDescriptor(), StopWordsWrapper.tokenizerDescriptor(),
      StopWordsWrapper.tokenizerDescriptor(arguments: ["porter", "unicode61"]),
    ]
    for descriptor in descriptors {
      try DatabaseQueue().inDatabase { (db: Database) throws in
        db.add(tokenizer: StopWordsTokenizer.self)
        db.add(tokenizer: StopWordsWrapper.self)
        try makeDocuments(db, descriptor, ["foo bar", "foo baz"])
        #expect(try fts5Count(db, "documents", "foo") == 2)
        #expect(try fts5Count(db, "documents", "bar") == 0)
        // "bar" is dropped from the phrase too: it matches "foo baz".
        #expect(try fts5Count(db, "documents", "\"foo bar baz\"") == 1)
        let tokenizer = try db.makeTokenizer(descriptor)
        #expect(try tokenizer.tokenize(query: "foo bar baz").map(\.token) == ["foo", "baz"])
      }
    }
    #expect(
      StopWordsWrapper.tokenizerDescriptor(arguments: ["porter"]).components == [
        "stop_words_wrapper", "porter",
      ])
  }

  @Test("synonyms are indexed at the same position", arguments: RequestProtocolStore.allCases)
  func synonyms(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    var config = store == .queue ? Configuration() : rawKeyConfiguration()
    config.prepareDatabase { (db: Database) throws in db.add(tokenizer: SynonymsTokenizer.self) }
    let writer: any DatabaseWriter =
      store == .queue
      ? try DatabaseQueue(path: directory.path(), configuration: config)
      : try DatabasePool(path: directory.path(), configuration: config)
    try writer.write { (db: Database) throws in
      try makeDocuments(db, SynonymsTokenizer.tokenizerDescriptor(), ["first foo", "1st bar"])
    }
    try writer.read { (db: Database) throws in
      for (query, count) in [
        ("first", 2), ("1st", 2), ("\"first foo\"", 1), ("\"1st foo\"", 1), ("\"first bar\"", 1), ("fi*", 2),
        ("1s*", 2),
      ] {
        #expect(try fts5Count(db, "documents", query) == count, "\(query)")
      }
      let tokens = try db.makeTokenizer(SynonymsTokenizer.tokenizerDescriptor()).tokenize(document: "first")
      #expect(tokens.map(\.token) == ["1st", "first"])
      #expect(tokens.map(\.flags) == [[], .colocated])
    }
  }

  @Test("a wrapper folds case, ligatures and diacritics with Foundation")
  func folding() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      db.add(tokenizer: FoldingTokenizer.self)
      // unicode61 that keeps diacritics does not fold them.
      try makeDocuments(db, .unicode61(diacritics: .keep), ["aimé \u{FB01}délité Jérôme"])
      #expect(try fts5Count(db, "documents", "aimé \u{FB01}délité Jérôme") == 1)
      #expect(try fts5Count(db, "documents", "aime fidelite jerome") == 0)
      try db.drop(table: "documents")
      try makeDocuments(db, FoldingTokenizer.tokenizerDescriptor(), ["aimé \u{FB01}délité Jérôme"])
      #expect(try fts5Count(db, "documents", "aimé \u{FB01}délité Jérôme") == 1)
      #expect(try fts5Count(db, "documents", "aime fidelite jerome") == 1)
      #expect(try fts5Count(db, "documents", "AIME FIDELITE JEROME") == 1)
      // Decomposed input: the combining accents separate tokens in unicode61.
      #expect(try fts5Count(db, "documents", "aime\u{0301} fide\u{0301}lite\u{0301}") == 1)
      let tokens = try db.makeTokenizer(FoldingTokenizer.tokenizerDescriptor()).tokenize(query: "Ｅｃｏｌｅ")
      #expect(tokens.map(\.token) == ["ecole"])
    }
  }

  @Test("an error thrown by a tokenizer fails the statement; a refused construction fails the table")
  func errors() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      db.add(tokenizer: FailingTokenizer.self)
      try makeDocuments(db, FailingTokenizer.tokenizerDescriptor(), ["calm words"])
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["a boom here"])
      }
      #expect(try fts5Count(db, "documents", "calm") == 1)
      #expect(throws: DatabaseError.self) {
        try db.create(virtualTable: "refused", using: FTS5()) { t in
          t.tokenizer = FailingTokenizer.tokenizerDescriptor(arguments: ["refuse"])
          t.column("content")
        }
      }
      #expect(throws: DatabaseError.self) {
        try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor(arguments: ["refuse"]))
      }
    }
  }

  @Test("a tokenizer added by prepareDatabase works on the writer and on every reader of a pool")
  func poolConnections() async throws {
    let directory = TemporaryDirectory()
    var config = rawKeyConfiguration()
    config.maximumReaderCount = 4
    config.prepareDatabase { (db: Database) throws in db.add(tokenizer: StopWordsWrapper.self) }
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try await pool.write { (db: Database) throws in
      try makeDocuments(db, StopWordsWrapper.tokenizerDescriptor(), ["foo bar", "foo baz"])
    }
    // Concurrent reads open several readers; each must know the tokenizer.
    let counts = try await withThrowingTaskGroup(of: [Int].self) { group in
      for _ in 0..<8 {
        group.addTask {
          try await pool.read { (db: Database) throws in
            [try fts5Count(db, "documents", "foo"), try fts5Count(db, "documents", "bar")]
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts.count == 8)
    #expect(counts.allSatisfy { $0 == [2, 0] })
    #expect(
      try await pool.read { (db: Database) throws in try fts5Count(db, "documents", "\"foo bar baz\"") } == 1)
    try await pool.write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO documents VALUES ('bar qux')")
    }
    #expect(try await pool.read { (db: Database) throws in try fts5Count(db, "documents", "qux") } == 1)
    // Without the registration, the table can not be read.
    let bare = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    #expect(throws: DatabaseError.self) {
      try bare.read { (db: Database) throws in try fts5Count(db, "documents", "foo") }
    }
  }

  @Test("tokenizer instances are released by SQLite, and the connection is not kept alive by them")
  func releasedWithTheirConnection() throws {
    weak var weakDatabase: Database?
    do {
      let dbQueue = try DatabaseQueue()
      try dbQueue.inDatabase { (db: Database) throws in
        weakDatabase = db
        db.add(tokenizer: CountedTokenizer.self)
        try makeDocuments(db, CountedTokenizer.tokenizerDescriptor(), ["foo"])
        #expect(try fts5Count(db, "documents", "foo") == 1)
        do {
          let tokenizer = try db.makeTokenizer(CountedTokenizer.tokenizerDescriptor())
          #expect(try tokenizer.tokenize(query: "foo").map(\.token) == ["foo"])
          #expect(CountedTokenizer.live.value >= 2)
        }
        // The one made by makeTokenizer(_:) is gone with its last reference.
        #expect(CountedTokenizer.live.value >= 1)
        try db.drop(table: "documents")
        try makeDocuments(db, CountedTokenizer.tokenizerDescriptor(), ["foo"])
      }
      try dbQueue.close()
    }
    #expect(CountedTokenizer.live.value == 0)
    #expect(weakDatabase == nil)
  }
}
