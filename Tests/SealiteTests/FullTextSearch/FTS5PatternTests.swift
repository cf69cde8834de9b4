import Foundation
import Sealite
import Testing

@Suite(
  "FTS5 patterns: raw patterns checked by SQLite, and patterns built from user input",
  .enabled(if: fts5Available))
struct FTS5PatternTests {
  private func makeBooks() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.create(virtualTable: "books", using: FTS5()) { t in
        t.column("title")
        t.column("author")
        t.column("body")
      }
      let books = [
        ["Moby-Dick", "Herman Melville", "Call me Ishmael. Some years ago--never mind how long precisely"],
        [
          "Red Mars", "Kim Stanley Robinson",
          "History is not evolution! It is a false analogy! Evolution is a matter of environment and chance, acting over millions of years. But history is a matter of environment and choice, acting within lifetimes, and sometimes within years, or months, or days!",
        ],
        ["Querelle de Brest", "Jean Genet", "L’idée de mer évoque souvent l’idée de mer, de marins."],
        [
          "Éden, Éden, Éden", "Pierre Guyotat",
          "/ Les soldats, casqués, jambes ouvertes, foulent, muscles retenus, les châles écarlates",
        ],
      ]
      for book in books {
        try db.execute(
          sql: "INSERT INTO books (title, author, body) VALUES (?, ?, ?)", arguments: StatementArguments(book)
        )
      }
    }
    return dbQueue
  }

  @Test("valid raw patterns match what SQLite says they match")
  func validRawPatterns() throws {
    let dbQueue = try makeBooks()
    let cases: [(String, Int)] = [
      ("Moby", 1), ("écarlates", 1), ("fooéı👨👨🏿🇫🇷🇨🇮", 0), ("Robin*", 1), ("\"foulent muscles\"", 1),
      ("\"Kim Stan* Robin*\"", 0), ("NEAR(\"history\" \"evolution\")", 1), ("years NOT months", 1),
      ("years AND months", 1), ("years OR months", 2), ("title:brest", 1),
    ]
    try dbQueue.read { (db: Database) throws in
      for (rawPattern, expected) in cases {
        let pattern = try FTS5Pattern(rawPattern: rawPattern, allowedColumns: ["title"])
        #expect(pattern.rawPattern == rawPattern)
        #expect(try fts5Count(db, "books", pattern) == expected, "\(rawPattern)")
        let tablePattern = try db.makeFTS5Pattern(rawPattern: rawPattern, forTable: "books")
        #expect(try fts5Count(db, "books", tablePattern) == expected, "\(rawPattern)")
      }
    }
  }

  @Test("invalid raw patterns throw a DatabaseError that holds no SQL")
  func invalidRawPatterns() throws {
    let dbQueue = try makeBooks()
    try dbQueue.read { (db: Database) throws in
      for rawPattern in ["", "?!", "^", "NOT", "(", "AND", "OR", "\"", "missing:foo"] {
        let error = #expect(throws: DatabaseError.self, "\(rawPattern)") {
          try FTS5Pattern(rawPattern: rawPattern, allowedColumns: ["title"])
        }
        #expect(error?.sql == nil)
        #expect(throws: DatabaseError.self, "\(rawPattern)") {
          try db.makeFTS5Pattern(rawPattern: rawPattern, forTable: "books")
        }
      }
    }
    // A column the table lacks, and a table that does not exist.
    #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "title:brest") }
    try dbQueue.read { (db: Database) throws -> Void in
      #expect(throws: DatabaseError.self) { try db.makeFTS5Pattern(rawPattern: "foo", forTable: "missing") }
    }
  }

  @Test("patterns from user input keep its tokens and drop the query syntax")
  func userInput() throws {
    typealias Make = (String) -> FTS5Pattern?
    let makers: [(String, Make)] = [
      ("any", FTS5Pattern.init(matchingAnyTokenIn:)), ("all", FTS5Pattern.init(matchingAllTokensIn:)),
      ("prefixes", FTS5Pattern.init(matchingAllPrefixesIn:)), ("phrase", FTS5Pattern.init(matchingPhrase:)),
      ("prefix phrase", FTS5Pattern.init(matchingPrefixPhrase:)),
    ]
    for (name, make) in makers {
      for input in ["", "*", "^", " ", "(", "()", "\"", "?!"] {
        #expect(make(input) == nil, "\(name): \(input)")
      }
    }
    // (maker, input, raw pattern, matching books)
    let cases: [(Int, String, String, Int)] = [
      (0, "écarlates", "écarlates", 1), (0, "^Moby*", "moby", 1),
      (0, " \t\nyears \t\nmonths \t\n", "years OR months", 2),
      (0, "\"years months days\"", "years OR months OR days", 2),
      (0, "FOOÉı👨👨🏿🇫🇷🇨🇮", "fooÉı👨👨🏿🇫🇷🇨🇮", 0),
      (1, " \t\nyears \t\nmonths \t\n", "years months", 1),
      (1, "\"years months days\"", "years months days", 1),
      (2, "écarlate", "écarlate*", 1), (2, "^Mob*", "mob*", 1),
      (2, " \t\nyear \t\nmonth \t\n", "year* month*", 1),
      (3, "écarlates", "\"écarlates\"", 1), (3, " \t\nyears \t\nmonths \t\n", "\"years months\"", 0),
      (4, "écarlates", "^\"écarlates\"", 0), (4, "^Moby-dick*", "^\"moby dick\"", 1),
      (4, "not evolution", "^\"not evolution\"", 0), (4, "HISTORY IS", "^\"history is\"", 1),
    ]
    let dbQueue = try makeBooks()
    try dbQueue.read { (db: Database) throws in
      for (maker, input, rawPattern, expected) in cases {
        let pattern = try #require(makers[maker].1(input), "\(makers[maker].0): \(input)")
        #expect(pattern.rawPattern == rawPattern)
        #expect(String.fromDatabaseValue(pattern.databaseValue) == rawPattern)
        #expect(try fts5Count(db, "books", pattern) == expected, "\(rawPattern)")
      }
    }
  }

  @Test("a pattern reads back from the database only when SQLite accepts it")
  func databaseValueConversion() throws {
    #expect(FTS5Pattern.fromDatabaseValue("foo OR bar".databaseValue)?.rawPattern == "foo OR bar")
    #expect(FTS5Pattern.fromDatabaseValue("AND".databaseValue) == nil)
    #expect(FTS5Pattern.fromDatabaseValue(DatabaseValue.null) == nil)
    #expect(FTS5Pattern.fromDatabaseValue(1.databaseValue) == nil)
  }
}
