import Foundation
import Sealite
import Testing

/// An in-memory queue with an empty table `t(a, b)`.
private func makeQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a, b)") }
  return dbQueue
}

private func rowCount(_ dbQueue: DatabaseQueue) throws -> Int {
  try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
}

/// Runs `body` outside of any transaction and returns the DatabaseError it must throw.
private func misuse(
  _ dbQueue: DatabaseQueue, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (Database) throws -> Void
) -> DatabaseError? {
  let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) {
    try dbQueue.writeWithoutTransaction { db in try body(db) }
  }
  #expect(error?.resultCode == .SQLITE_MISUSE, sourceLocation: sourceLocation)
  return error
}

@Suite("Statement arguments")
struct StatementArgumentsTests {
  /// The ways to run one statement with arguments.
  enum RunStyle: String, CaseIterable, Sendable {
    case execute, makeStatement, cachedStatement

    func run(_ db: Database, sql: String, arguments: StatementArguments) throws {
      switch self {
      case .execute: try db.execute(sql: sql, arguments: arguments)
      case .makeStatement: try db.makeStatement(sql: sql).execute(arguments: arguments)
      case .cachedStatement: try db.cachedStatement(sql: sql).execute(arguments: arguments)
      }
    }
  }

  @Test("Positional arguments bind ? parameters in order")
  func positional() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO t (a, b) VALUES (?, ?)", arguments: [1, "a"])
    }
    let row = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT a, b FROM t").first }
    #expect(row == ["a": 1, "b": "a"])
  }

  @Test("Numbered ?NNN parameters bind positionally")
  func numbered() throws {
    let value = try DatabaseQueue().read { db in
      try String.fetchOne(db, sql: "SELECT ?2 || ?1", arguments: ["x", "y"])
    }
    #expect(value == "yx")
  }

  @Test("Named arguments bind :name, $name and @name parameters", arguments: [":", "$", "@"])
  func named(prefix: String) throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: "INSERT INTO t (a, b) VALUES (\(prefix)first, \(prefix)second)",
        arguments: ["second": "two", "first": 1])
    }
    let row = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT a, b FROM t").first }
    #expect(row == ["a": 1, "b": "two"])
  }

  @Test("A named argument can fill several parameters with the same name")
  func namedRepeated() throws {
    let value = try DatabaseQueue().read { db in
      try Int.fetchOne(db, sql: "SELECT :x + :x * 10", arguments: ["x": 2])
    }
    #expect(value == 22)
  }

  @Test("Positional arguments also fill named parameters in order")
  func positionalForNamed() throws {
    let value = try DatabaseQueue().read { db in
      try String.fetchOne(db, sql: "SELECT :a || :b", arguments: ["x", "y"])
    }
    #expect(value == "xy")
  }

  @Test("nil binds NULL, positional and named")
  func nilBindsNull() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO t (a, b) VALUES (?, 'x')", arguments: [nil])
      try db.execute(sql: "INSERT INTO t (a, b) VALUES (:a, 'y')", arguments: ["a": nil])
    }
    let types = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT typeof(a) FROM t ORDER BY b") }
    #expect(types == ["null", "null"])
  }

  @Test(
    "Too few positional arguments is a misuse error thrown before the statement runs",
    arguments: RunStyle.allCases)
  func tooFew(style: RunStyle) throws {
    let dbQueue = try makeQueue()
    let error = misuse(dbQueue) { db in
      try style.run(db, sql: "INSERT INTO t (a, b) VALUES (?, ?)", arguments: [1])
    }
    #expect(error?.message?.contains("wrong number of statement arguments") == true)
    #expect(error?.sql == "INSERT INTO t (a, b) VALUES (?, ?)")
    _ = misuse(dbQueue) { db in try style.run(db, sql: "INSERT INTO t (a, b) VALUES (?, ?)", arguments: []) }
    #expect(try rowCount(dbQueue) == 0)
  }

  @Test(
    "Too many positional arguments is a misuse error thrown before the statement runs",
    arguments: RunStyle.allCases)
  func tooMany(style: RunStyle) throws {
    let dbQueue = try makeQueue()
    let error = misuse(dbQueue) { db in
      try style.run(db, sql: "INSERT INTO t (a, b) VALUES (?, ?)", arguments: [1, 2, 3])
    }
    #expect(error?.message?.contains("wrong number of statement arguments") == true)
    #expect(try rowCount(dbQueue) == 0, "the row was inserted before the arguments were rejected")
  }

  @Test(
    "Arguments given to a statement without parameters are a misuse error thrown before it runs",
    arguments: RunStyle.allCases)
  func argumentsWithoutParameters(style: RunStyle) throws {
    let dbQueue = try makeQueue()
    _ = misuse(dbQueue) { db in try style.run(db, sql: "INSERT INTO t (a) VALUES (1)", arguments: [1]) }
    #expect(try rowCount(dbQueue) == 0, "the row was inserted before the arguments were rejected")
  }

  @Test("Too many arguments inside a write leaves the database as it was")
  func tooManyInTransaction() throws {
    let dbQueue = try makeQueue()
    #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        try db.execute(
          sql: "INSERT INTO t (a) VALUES (?); INSERT INTO t (a) VALUES (?)", arguments: [1, 2, 3])
      }
    }
    #expect(try rowCount(dbQueue) == 0)
  }

  @Test(
    "A missing named argument is a misuse error that names it, thrown before the statement runs",
    arguments: RunStyle.allCases)
  func missingName(style: RunStyle) throws {
    let dbQueue = try makeQueue()
    let error = misuse(dbQueue) { db in
      try style.run(db, sql: "INSERT INTO t (a, b) VALUES (:a, :bee)", arguments: ["a": 1])
    }
    #expect(error?.message?.contains("missing") == true)
    #expect(error?.message?.contains("bee") == true)
    #expect(try rowCount(dbQueue) == 0)
  }

  @Test(
    "A named value that no parameter uses is ignored, as in GRDB",
    arguments: RunStyle.allCases)
  func unknownName(style: RunStyle) throws {
    let dbQueue = try makeQueue()
    try dbQueue.writeWithoutTransaction { db in
      try style.run(
        db, sql: "INSERT INTO t (a, b) VALUES (:a, :b)", arguments: ["a": 1, "b": 2, "typo": 3])
    }
    #expect(try rowCount(dbQueue) == 1)
  }

  @Test("Fetching with wrong arguments is a misuse error too")
  func fetchWithWrongArguments() throws {
    let dbQueue = try makeQueue()
    try dbQueue.read { db in
      #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT ?, ?", arguments: [1]) }
      #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT ?", arguments: [1, 2]) }
      #expect(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: "SELECT :x", arguments: ["y": 1]) }
    }
  }

  @Test("validateArguments checks without running")
  func validate() throws {
    let dbQueue = try makeQueue()
    try dbQueue.writeWithoutTransaction { db in
      let statement = try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (:a, ?)")
      try statement.validateArguments([2] + ["a": 1])
      #expect(throws: DatabaseError.self) { try statement.validateArguments(["a": 1]) }
      #expect(throws: DatabaseError.self) { try statement.validateArguments([1, 2, 3]) }
    }
    #expect(try rowCount(dbQueue) == 0)
  }

  @Test("+ concatenates positional values and merges names")
  func plus() throws {
    let positional: StatementArguments = [1] + ["a", nil]
    #expect(positional.values == [1, "a", .null])
    let named: StatementArguments = ["a": 1] + ["b": 2]
    #expect(named.namedValues == ["a": 1, "b": 2])
    var appended: StatementArguments = [1]
    appended += [2]
    #expect(appended.values == [1, 2])
    let value = try DatabaseQueue().read { db in
      try Int.fetchOne(db, sql: "SELECT :a * 100 + :b", arguments: named)
    }
    #expect(value == 102)
  }

  @Test("+ with a name on both sides is an error when bound; &+ lets the right side win")
  func plusConflict() throws {
    let conflicting: StatementArguments = ["a": 1] + ["a": 2]
    let error = #expect(throws: DatabaseError.self) {
      try DatabaseQueue().read { db in try Int.fetchOne(db, sql: "SELECT :a", arguments: conflicting) }
    }
    #expect(error?.message?.contains("a") == true)
    let overridden: StatementArguments = ["a": 1, "b": 3] &+ ["a": 2]
    #expect(overridden.namedValues == ["a": 2, "b": 3])
    let positional: StatementArguments = [1] &+ [2]
    #expect(positional.values == [1, 2])
    let value = try DatabaseQueue().read { db in
      try Int.fetchOne(db, sql: "SELECT :a", arguments: ["a": 1] &+ ["a": 2])
    }
    #expect(value == 2)
  }

  @Test("append(contentsOf:) adds positional values and names")
  func appendContentsOf() throws {
    var arguments: StatementArguments = ["x"]
    arguments.append(contentsOf: ["y", 3])
    #expect(arguments.values == ["x", "y", 3])
    var named: StatementArguments = ["a": 1]
    named.append(contentsOf: ["b": "two"])
    #expect(named.namedValues == ["a": 1, "b": "two"])
    let value = try DatabaseQueue().read { db in
      try String.fetchOne(db, sql: "SELECT ? || ? || ?", arguments: arguments)
    }
    #expect(value == "xy3")
  }

  @Test("Arguments build from arrays, dictionaries and sequences")
  func initializers() throws {
    let ints = StatementArguments([1, 2, 3])
    #expect(ints.values == [1, 2, 3])
    let optionals = StatementArguments([1, nil] as [Int?])
    #expect(optionals.values == [1, .null])
    let dictionary = StatementArguments(["a": 1, "b": nil] as [String: (any DatabaseValueConvertible)?])
    #expect(dictionary.namedValues == ["a": 1, "b": .null])
    #expect(StatementArguments().isEmpty)
    #expect(!ints.isEmpty)
  }

  @Test("The description shows the values as SQL would")
  func description() throws {
    let positional: StatementArguments = [1, "a", nil, 1.5]
    #expect(positional.description == #"[1, "a", NULL, 1.5]"#)
    let named: StatementArguments = ["b": 2, "a": "x"]
    let text = named.description
    #expect(text.contains("a") && text.contains(#""x""#) && text.contains("b") && text.contains("2"))
    // The order of a dictionary does not change the description.
    #expect(text == StatementArguments(["a": "x", "b": 2]).description)
  }

  @Test("Unsigned values above Int64.max are rejected when bound, not wrapped")
  func unsignedOutOfRange() throws {
    let dbQueue = try makeQueue()
    let error = misuse(dbQueue) { db in
      try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: [UInt64.max])
    }
    #expect(error?.message?.contains(String(UInt64.max)) == true)
    // Appending out-of-range arguments carries the failure along.
    _ = misuse(dbQueue) { db in
      try db.execute(sql: "INSERT INTO t (a, b) VALUES (?, ?)", arguments: [1] + [UInt.max])
    }
    #expect(try rowCount(dbQueue) == 0)
  }
}
