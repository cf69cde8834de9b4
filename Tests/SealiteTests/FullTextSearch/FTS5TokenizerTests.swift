import Foundation
import Sealite
import Testing

@Suite("FTS5 built-in tokenizers: what they match, and their tokens", .enabled(if: fts5Available))
struct FTS5TokenizerTests {
  /// Runs `body` on a fresh queue with a one-column table `documents` of `tokenizer`.
  private func withDocuments(_ tokenizer: FTS5TokenizerDescriptor?, _ body: (Database) throws -> Void) throws
  {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      try db.create(virtualTable: "documents", using: FTS5()) { t in
        t.tokenizer = tokenizer
        t.column("content")
      }
      try body(db)
    }
  }

  @Test("stemming, diacritics and case, as each tokenizer treats them")
  func matching() throws {
    // (tokenizer, stems "databases", folds "Èèe" to "eéÉ", folds "JÉRÔME" to "jérôme")
    let cases: [(FTS5TokenizerDescriptor?, Bool, Bool, Bool)] = [
      (nil, false, true, true),
      (.ascii(), false, false, false),
      (.porter(), true, true, true),
      (.porter(wrapping: .ascii()), true, false, false),
      (.porter(wrapping: .unicode61()), true, true, true),
      (.unicode61(), false, true, true),
      (.unicode61(diacritics: .keep), false, false, true),
      (.unicode61(diacritics: .remove), false, true, true),
    ]
    for (tokenizer, stems, foldsDiacritics, foldsCase) in cases {
      try withDocuments(tokenizer) { (db: Database) throws in
        let name = tokenizer?.components.joined(separator: " ") ?? "default"
        #expect(try fts5Matches(db, "abcDÉF", "abcDÉF"), "\(name)")
        #expect(try fts5Matches(db, "database", "databases") == stems, "\(name)")
        #expect(try fts5Matches(db, "eéÉ", "Èèe") == foldsDiacritics, "\(name)")
        #expect(try fts5Matches(db, "jérôme", "JÉRÔME") == foldsCase, "\(name)")
      }
    }
  }

  @Test("separators and token characters")
  func characters() throws {
    for tokenizer in [FTS5TokenizerDescriptor.ascii(separators: ["X"]), .unicode61(separators: ["X"])] {
      try withDocuments(tokenizer) { (db: Database) throws in
        #expect(try fts5Matches(db, "abcXdef", "abcXdef"))
        #expect(try fts5Matches(db, "abcXdef", "abc"))
        #expect(try fts5Matches(db, "abcXdef", "def"))
      }
    }
    for tokenizer in [
      FTS5TokenizerDescriptor.ascii(tokenCharacters: Set(".-")), .unicode61(tokenCharacters: Set(".-")),
    ] {
      try withDocuments(tokenizer) { (db: Database) throws in
        #expect(try fts5Matches(db, "2016-10-04.txt", "\"2016-10-04.txt\""))
        #expect(try !fts5Matches(db, "2016-10-04.txt", "2016"))
        #expect(try !fts5Matches(db, "2016-10-04.txt", "txt"))
      }
    }
  }

  @Test("unicode61 categories")
  func categories() throws {
    try withDocuments(.unicode61(categories: "L* N* Co S*")) { (db: Database) throws in
      #expect(try fts5Matches(db, "ABC", "abc"))
      #expect(try fts5Matches(db, "👍", "👍"))
    }
    try withDocuments(.unicode61(categories: "Ll")) { (db: Database) throws in
      #expect(try fts5Matches(db, "ABCdef g H", "def"))
      #expect(try !fts5Matches(db, "ABCdef g H", "h"))
    }
  }

  @Test("makeTokenizer(_:) tokenizes queries and documents as the table would")
  func tokenize() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      let ascii = try db.makeTokenizer(.ascii())
      let porter = try db.makeTokenizer(.porter())
      let unicode61 = try db.makeTokenizer(.unicode61())
      let keep = try db.makeTokenizer(.unicode61(diacritics: .keep))
      func tokens(_ tokenizer: any FTS5Tokenizer, _ text: String) throws -> [String] {
        try tokenizer.tokenize(query: text).map(\.token)
      }
      for tokenizer in [ascii, porter, unicode61, keep] {
        #expect(try tokens(tokenizer, "").isEmpty)
        #expect(try tokens(tokenizer, "?!").isEmpty)
        #expect(try tokens(tokenizer, "*").isEmpty)
      }
      #expect(try tokens(ascii, "Moby") == ["moby"])
      #expect(try tokens(porter, "Moby") == ["mobi"])
      #expect(try tokens(ascii, "écarlates") == ["écarlates"])
      #expect(try tokens(porter, "écarlates") == ["ecarl"])
      #expect(try tokens(unicode61, "écarlates") == ["ecarlates"])
      #expect(try tokens(keep, "écarlates") == ["écarlates"])
      #expect(try tokens(ascii, "fooéı👨👨🏿🇫🇷🇨🇮") == ["fooéı👨👨🏿🇫🇷🇨🇮"])
      #expect(try tokens(unicode61, "fooéı👨👨🏿🇫🇷🇨🇮") == ["fooeı", "🏿"])
      #expect(try tokens(keep, "fooéı👨👨🏿🇫🇷🇨🇮") == ["fooéı", "🏿"])
      #expect(try tokens(ascii, "Édouard Manet") == ["Édouard", "manet"])
      #expect(try tokens(unicode61, "Édouard Manet") == ["edouard", "manet"])
      #expect(try tokens(porter, "\"Kim Stan* Robin*\"") == ["kim", "stan", "robin"])
      #expect(try tokens(porter, "years AND months") == ["year", "and", "month"])
      #expect(try tokens(porter, "title:brest") == ["titl", "brest"])
      #expect(try porter.tokenize(document: "Databases").map(\.token) == ["databas"])
      #expect(try porter.tokenize(document: "Databases").allSatisfy { $0.flags.isEmpty })
      let lowercase = try db.makeTokenizer(.unicode61(categories: "Ll"))
      #expect(try tokens(lowercase, "SQLite database") == ["ite", "database"])
    }
  }

  @Test("FTS5.api(_:) gives the connection's fts5_api, which finds the built-in tokenizers")
  func api() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      let api = FTS5.api(db)
      #expect(api.pointee.iVersion >= 2)
      #expect(api == FTS5.api(db))
      #expect(api.pointee.xCreateTokenizer != nil)
      #expect(api.pointee.xFindTokenizer != nil)
    }
  }

  @Test("an unknown tokenizer, or arguments a tokenizer refuses, throw DatabaseError")
  func unknownTokenizer() throws {
    try DatabaseQueue().inDatabase { (db: Database) throws in
      #expect(throws: DatabaseError.self) {
        try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"]))
      }
      #expect(throws: DatabaseError.self) {
        try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "9"]))
      }
      #expect(throws: DatabaseError.self) {
        try db.create(virtualTable: "documents", using: FTS5()) { t in
          t.tokenizer = FTS5TokenizerDescriptor(components: ["nope"])
          t.column("content")
        }
      }
      #expect(try !db.tableExists("documents"))
    }
  }

  @Test("the trigram tokenizer matches inside words, gated on SQLite 3.34 and 3.45 for remove_diacritics")
  func trigram() throws {
    #expect(FTS5TokenizerDescriptor.trigram().components == ["trigram"])
    #expect(
      FTS5TokenizerDescriptor.trigram(caseSensitive: true).components == ["trigram", "case_sensitive", "1"])
    #expect(
      FTS5TokenizerDescriptor.trigram(removeDiacritics: true).components == [
        "trigram", "remove_diacritics", "1",
      ])
    let features = SQLiteFeatures.linked
    guard features.supports(.fts5Trigram) else {
      let error = #expect(throws: SQLiteFeatureError.self) { try withDocuments(.trigram()) { _ in } }
      #expect(error?.capability == .fts5Trigram)
      return
    }
    try withDocuments(.trigram()) { (db: Database) throws in
      #expect(try fts5Matches(db, "Encyclopedia", "CYCLO"))
      #expect(try !fts5Matches(db, "Encyclopedia", "cycla"))
      #expect(try !fts5Matches(db, "café", "cafe"))
    }
    try withDocuments(.trigram(caseSensitive: true)) { (db: Database) throws in
      #expect(try fts5Matches(db, "Encyclopedia", "cyclo"))
      #expect(try !fts5Matches(db, "Encyclopedia", "CYCLO"))
    }
    guard features.supports(.fts5TrigramRemoveDiacritics) else {
      let error = #expect(throws: SQLiteFeatureError.self) {
        try withDocuments(.trigram(removeDiacritics: true)) { _ in }
      }
      #expect(error?.capability == .fts5TrigramRemoveDiacritics)
      return
    }
    try withDocuments(.trigram(removeDiacritics: true)) { (db: Database) throws in
      #expect(try fts5Matches(db, "Crème brûlée", "creme brulee"))
      #expect(try fts5Matches(db, "Creme", "CRÈM"))
    }
    try DatabaseQueue().inDatabase { (db: Database) throws in
      let tokenizer = try db.makeTokenizer(.trigram())
      #expect(try tokenizer.tokenize(document: "abcd").map(\.token) == ["abc", "bcd"])
    }
  }
}
