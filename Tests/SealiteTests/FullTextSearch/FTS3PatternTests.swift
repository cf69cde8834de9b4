import Foundation
import Sealite
import Testing

/// Four books in an FTS3 table `books`, after GRDB's pattern tests.
private func makeBooks() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.create(virtualTable: "books", using: FTS3()) { t in
      t.column("title")
      t.column("author")
      t.column("body")
    }
    let books = [
      ["Moby Dick", "Herman Melville", "Call me Ishmael. Some years ago--never mind how long precisely."],
      [
        "Red Mars", "Kim Stanley Robinson",
        "History is not evolution! Evolution is a matter of environment and chance, acting over millions of "
          + "years. But history is a matter of choice, within lifetimes, and sometimes within years, or months, "
          + "or days!",
      ],
      ["Querelle de Brest", "Jean Genet", "L’idée de mer évoque souvent l’idée de mer, de marins."],
      ["Éden, Éden, Éden", "Pierre Guyotat", "les soldats foulent, muscles retenus, les châles écarlates"],
    ]
    for book in books {
      try db.execute(
        sql: "INSERT INTO books (title, author, body) VALUES (?, ?, ?)", arguments: StatementArguments(book))
    }
  }
  return dbQueue
}

/// The number of books a pattern matches, the pattern bound as a value.
private func count(_ db: Database, _ pattern: FTS3Pattern) throws -> Int {
  try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM books WHERE books MATCH ?", arguments: [pattern])!
}

/// Inputs without any token: each convenience initializer returns nil.
private let tokenlessInputs = ["", "*", "^", " ", "(", "()", "\"", "?!"]

@Suite("Full-text search: FTS3 patterns")
struct FTS3PatternTests {
  @Test("Valid raw patterns are accepted and match as SQLite's query syntax says")
  func validRawPatterns() throws {
    let cases: [(String, Int)] = [
      ("", 0), ("?!", 0), ("Moby", 1), ("écarlates", 1), ("*", 0), ("Robin*", 1),
      ("\"foulent muscles\"", 1), ("\"Kim Stan* Robin*\"", 1), ("history NEAR evolution", 1),
      ("years NOT months", 1), ("years AND months", 1), ("years OR months", 2), ("title:brest", 1),
    ]
    let dbQueue = try makeBooks()
    try dbQueue.read { db in
      for (rawPattern, expected) in cases {
        let pattern = try FTS3Pattern(rawPattern: rawPattern)
        #expect(pattern.rawPattern == rawPattern)
        #expect(try count(db, pattern) == expected, "\(rawPattern)")
      }
    }
  }

  @Test("Invalid raw patterns throw SQLite's DatabaseError, without the validating statement")
  func invalidRawPatterns() throws {
    // Invalid in both of SQLite's query syntaxes.
    var invalid = ["OR", "\"", "a OR", "NEAR"]
    // The enhanced syntax (GRDB's test list on Apple's SQLite) also refuses
    // lone operators and parentheses; the standard one takes them for tokens.
    let enhancedSyntax = SQLiteFeatures.linked.compileOptions.contains("ENABLE_FTS3_PARENTHESIS")
    if enhancedSyntax { invalid += ["NOT", "(", "AND"] }
    for rawPattern in invalid {
      let error = try #require(throws: DatabaseError.self, "\(rawPattern)") {
        try FTS3Pattern(rawPattern: rawPattern)
      }
      #expect(error.resultCode == .SQLITE_ERROR)
      #expect(error.message?.contains("malformed MATCH expression") == true, "\(error)")
      #expect(error.sql == nil)
      #expect(error.arguments == nil)
    }
    if !enhancedSyntax {
      for rawPattern in ["NOT", "(", "AND"] {
        #expect(throws: Never.self) { try FTS3Pattern(rawPattern: rawPattern) }
      }
    }
  }

  @Test("matchingAnyTokenIn: ORs the tokens, ignoring query syntax")
  func anyToken() throws {
    for input in tokenlessInputs { #expect(FTS3Pattern(matchingAnyTokenIn: input) == nil, "\(input)") }
    let cases = [
      ("écarlates", "écarlates", 1), ("^Moby*", "moby", 1),
      (" \t\nyears \t\nmonths \t\n", "years OR months", 2),
      ("\"years months days\"", "years OR months OR days", 2),
    ]
    let dbQueue = try makeBooks()
    try dbQueue.read { db in
      for (input, raw, expected) in cases {
        let pattern = try #require(FTS3Pattern(matchingAnyTokenIn: input))
        #expect(pattern.rawPattern == raw)
        #expect(try count(db, pattern) == expected, "\(raw)")
      }
    }
  }

  @Test("matchingAllTokensIn: requires every token, in any order")
  func allTokens() throws {
    for input in tokenlessInputs { #expect(FTS3Pattern(matchingAllTokensIn: input) == nil, "\(input)") }
    let cases = [
      ("écarlates", "écarlates", 1), ("^Moby*", "moby", 1), (" \t\nyears \t\nmonths \t\n", "years months", 1),
      ("\"years months days\"", "years months days", 1), ("months years", "months years", 1),
    ]
    let dbQueue = try makeBooks()
    try dbQueue.read { db in
      for (input, raw, expected) in cases {
        let pattern = try #require(FTS3Pattern(matchingAllTokensIn: input))
        #expect(pattern.rawPattern == raw)
        #expect(try count(db, pattern) == expected, "\(raw)")
      }
    }
  }

  @Test("matchingAllPrefixesIn: requires a token beginning with each input token")
  func allPrefixes() throws {
    for input in tokenlessInputs { #expect(FTS3Pattern(matchingAllPrefixesIn: input) == nil, "\(input)") }
    let cases = [
      ("écarlate", "écarlate*", 1), ("^Mob*", "mob*", 1), (" \t\nyear \t\nmonth \t\n", "year* month*", 1),
      ("\"year month day\"", "year* month* day*", 1),
    ]
    let dbQueue = try makeBooks()
    try dbQueue.read { db in
      for (input, raw, expected) in cases {
        let pattern = try #require(FTS3Pattern(matchingAllPrefixesIn: input))
        #expect(pattern.rawPattern == raw)
        #expect(try count(db, pattern) == expected, "\(raw)")
      }
    }
  }

  @Test("matchingPhrase: requires the tokens in a row")
  func phrase() throws {
    for input in tokenlessInputs { #expect(FTS3Pattern(matchingPhrase: input) == nil, "\(input)") }
    let cases = [
      ("écarlates", "\"écarlates\"", 1), ("^Moby*", "\"moby\"", 1),
      (" \t\nyears \t\nmonths \t\n", "\"years months\"", 0),
      ("foulent, muscles", "\"foulent muscles\"", 1),
    ]
    let dbQueue = try makeBooks()
    try dbQueue.read { db in
      for (input, raw, expected) in cases {
        let pattern = try #require(FTS3Pattern(matchingPhrase: input))
        #expect(pattern.rawPattern == raw)
        #expect(try count(db, pattern) == expected, "\(raw)")
      }
    }
  }

  @Test("A pattern is stored as its raw text, and read back only if SQLite accepts it")
  func databaseValueConvertible() throws {
    let pattern = try FTS3Pattern(rawPattern: "years OR months")
    #expect(pattern.databaseValue == "years OR months".databaseValue)
    #expect(FTS3Pattern.fromDatabaseValue("moby dick".databaseValue)?.rawPattern == "moby dick")
    #expect(FTS3Pattern.fromDatabaseValue("OR".databaseValue) == nil)
    #expect(FTS3Pattern.fromDatabaseValue(DatabaseValue.null) == nil)
    let dbQueue = try DatabaseQueue()
    let fetched = try dbQueue.read { db in try FTS3Pattern.fetchOne(db, sql: "SELECT 'title:brest'") }
    #expect(fetched?.rawPattern == "title:brest")
  }
}
