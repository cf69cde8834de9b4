import Foundation
import Sealite
import Testing

/// A record type for the query interface calls.
private struct FunctionPlayer: TableRecord {
  static let databaseTableName = "player"
}

/// An error that is not a DatabaseError, with a description of its own.
private struct Refusal: Error, CustomStringConvertible {
  var description: String { "refused by the function" }
}

private enum Mood: String, DatabaseValueConvertible {
  case happy, sad
}

@Suite("Custom SQL functions")
struct DatabaseFunctionTests {
  @Test("A function of a fixed number of arguments; another number is SQLite's error")
  func fixedArity() throws {
    let succ = DatabaseFunction("succ", argumentCount: 1) { values in
      Int.fromDatabaseValue(values[0]).map { $0 + 1 }
    }
    let none = DatabaseFunction("none", argumentCount: 0) { values in values.count }
    try DatabaseQueue().write { db throws in
      db.add(function: succ)
      db.add(function: none)
      #expect(succ.name == "succ")
      #expect(try Int.fetchOne(db, sql: "SELECT succ(41)") == 42)
      #expect(try Int.fetchOne(db, sql: "SELECT none()") == 0)
      for sql in ["SELECT succ()", "SELECT succ(1, 2)"] {
        let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: sql) }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "wrong number of arguments to function succ()")
        #expect(error?.sql == sql)
      }
      let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT none(1)") }
      #expect(
        error?.description
          == "SQLite error 1: wrong number of arguments to function none() - while executing `SELECT none(1)`"
      )
    }
  }

  @Test("A variadic function takes any number of arguments, in order")
  func variadic() throws {
    let describe = DatabaseFunction("describe") { values in
      values.map(\.description).joined(separator: ",")
    }
    try DatabaseQueue().write { db throws in
      db.add(function: describe)
      #expect(try String.fetchOne(db, sql: "SELECT describe()") == "")
      #expect(try String.fetchOne(db, sql: "SELECT describe(1)") == "1")
      #expect(try String.fetchOne(db, sql: "SELECT describe(1, 'a', NULL, 2.5)") == #"1,"a",NULL,2.5"#)
    }
  }

  @Test("Functions of one name and different arities coexist; adding one of the same id replaces it")
  func identities() throws {
    let one = DatabaseFunction("f", argumentCount: 1) { _ in "one" }
    let two = DatabaseFunction("f", argumentCount: 2) { _ in "two" }
    let replacement = DatabaseFunction("f", argumentCount: 1) { _ in "replaced" }
    let any = DatabaseFunction("f") { _ in "any" }
    #expect(one.id != two.id)
    #expect(one.id == replacement.id)
    #expect(one.id != any.id)
    try DatabaseQueue().write { db throws in
      db.add(function: one)
      db.add(function: two)
      #expect(try String.fetchOne(db, sql: "SELECT f(1)") == "one")
      #expect(try String.fetchOne(db, sql: "SELECT f(1, 2)") == "two")
      db.add(function: replacement)
      #expect(try String.fetchOne(db, sql: "SELECT f(1)") == "replaced")
      // SQLite prefers the function of the exact arity; the variadic one takes the rest.
      db.add(function: any)
      #expect(try String.fetchOne(db, sql: "SELECT f(1)") == "replaced")
      #expect(try String.fetchOne(db, sql: "SELECT f(1, 2, 3)") == "any")
    }
  }

  @Test("Arguments arrive as DatabaseValue of each storage class")
  func argumentValues() throws {
    let storage = DatabaseFunction("storage", argumentCount: 1) { values in
      switch values[0].storage {
      case .null: "null"
      case .int64(let int): "int64 \(int)"
      case .double(let double): "double \(double)"
      case .string(let string): "string \(string)"
      case .blob(let data): "blob \(Array(data))"
      }
    }
    try DatabaseQueue().write { db throws in
      db.add(function: storage)
      func call(_ value: (any DatabaseValueConvertible)?) throws -> String? {
        try String.fetchOne(db, sql: "SELECT storage(?)", arguments: [value])
      }
      #expect(try call(nil) == "null")
      #expect(try call(42) == "int64 42")
      #expect(try call(Int64.min) == "int64 \(Int64.min)")
      #expect(try call(1.5) == "double 1.5")
      #expect(try call("Zoé") == "string Zoé")
      #expect(try call("") == "string ")
      #expect(try call(Data([0, 1, 255])) == "blob [0, 1, 255]")
      #expect(try call(Mood.sad) == "string sad")
      #expect(try String.fetchOne(db, sql: "SELECT storage(x'00ff')") == "blob [0, 255]")
    }
  }

  @Test("Results of every storage class, and of custom types, reach SQLite")
  func resultValues() throws {
    let pick = DatabaseFunction("pick", argumentCount: 1) { arguments -> (any DatabaseValueConvertible)? in
      switch Int.fromDatabaseValue(arguments[0]) {
      case 1: 42
      case 2: 1.5
      case 3: "Zoé"
      case 4: Data([1, 2])
      case 5: Mood.happy
      default: nil
      }
    }
    let empty = DatabaseFunction("empty", argumentCount: 1) { arguments in
      arguments[0] == "text" ? "" : Data()
    }
    try DatabaseQueue().write { db throws in
      db.add(function: pick)
      db.add(function: empty)
      func result(_ index: Int) throws -> (DatabaseValue, String?) {
        let row = try Row.fetchOne(
          db, sql: "SELECT pick(?) AS v, typeof(pick(?)) AS t", arguments: [index, index])!
        return (row["v"], row["t"])
      }
      #expect(try result(0).0 == .null)
      #expect(try result(0).1 == "null")
      #expect(try result(1).0.storage == .int64(42))
      #expect(try result(1).1 == "integer")
      #expect(try result(2).0.storage == .double(1.5))
      #expect(try result(3).0.storage == .string("Zoé"))
      #expect(try result(4).0.storage == .blob(Data([1, 2])))
      #expect(try result(5).0.storage == .string("happy"))
      #expect(try Mood.fetchOne(db, sql: "SELECT pick(5)") == .happy)
      // Empty texts and blobs stay texts and blobs, not NULL.
      #expect(try String.fetchOne(db, sql: "SELECT typeof(empty('text'))") == "text")
      #expect(try String.fetchOne(db, sql: "SELECT typeof(empty('blob'))") == "blob")
      #expect(try Data.fetchOne(db, sql: "SELECT empty('blob')") == Data())
    }
  }

  @Test("An integer result beyond SQLite's range is an error, as it is for an argument")
  func outOfRangeResult() throws {
    let huge = DatabaseFunction("huge", argumentCount: 0) { _ in UInt64.max }
    try DatabaseQueue().write { db throws in
      db.add(function: huge)
      let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT huge()") }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message?.contains("\(UInt64.max)") == true)
    }
  }

  @Test("Only a pure function may appear in an index expression")
  func pure() throws {
    let pureDouble = DatabaseFunction("pureDouble", argumentCount: 1, pure: true) { values in
      Int.fromDatabaseValue(values[0]).map { $0 * 2 }
    }
    let impureDouble = DatabaseFunction("impureDouble", argumentCount: 1) { values in
      Int.fromDatabaseValue(values[0]).map { $0 * 2 }
    }
    try DatabaseQueue().write { db throws in
      db.add(function: pureDouble)
      db.add(function: impureDouble)
      try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
      let error = #expect(throws: DatabaseError.self) {
        try db.execute(sql: "CREATE INDEX impure ON t(impureDouble(a))")
      }
      #expect(error?.message?.contains("non-deterministic functions prohibited") == true)
      if SQLiteFeatures.linked.supports(.deterministicFunctions) {
        try db.execute(sql: "CREATE INDEX doubled ON t(pureDouble(a))")
        #expect(try Int.fetchAll(db, sql: "SELECT a FROM t WHERE pureDouble(a) = 4") == [2])
      }
    }
  }

  @Test("A DatabaseError thrown by a function keeps its result code and message")
  func thrownDatabaseErrors() throws {
    let withMessage = DatabaseFunction("withMessage", argumentCount: 0) { _ in
      throw DatabaseError(message: "custom message")
    }
    let withCode = DatabaseFunction("withCode", argumentCount: 0) { _ in
      throw DatabaseError(resultCode: ResultCode(rawValue: 123))
    }
    let withBoth = DatabaseFunction("withBoth", argumentCount: 0) { _ in
      throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "custom message")
    }
    try DatabaseQueue().write { db throws in
      for function in [withMessage, withCode, withBoth] { db.add(function: function) }
      var error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT withMessage()") }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message == "custom message")
      #expect(error?.sql == "SELECT withMessage()")
      error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT withCode()") }
      #expect(error?.resultCode.rawValue == 123)
      #expect(error?.message == "unknown error")
      error = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT withBoth()") }
      #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
      #expect(error?.resultCode == .SQLITE_CONSTRAINT)
      #expect(error?.message == "custom message")
    }
  }

  @Test("Another error thrown by a function is SQLITE_ERROR with its description")
  func thrownOtherErrors() throws {
    let refusing = DatabaseFunction("refusing") { _ in throw Refusal() }
    let foundation = DatabaseFunction("foundation") { _ in
      throw NSError(domain: "CustomDomain", code: 7, userInfo: [NSLocalizedDescriptionKey: "custom message"])
    }
    try DatabaseQueue().write { db throws in
      db.add(function: refusing)
      db.add(function: foundation)
      try db.execute(sql: "CREATE TABLE t(a)")
      var error = #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO t VALUES (refusing(1))")
      }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message == "refused by the function")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
      error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT foundation()") }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message?.contains("CustomDomain") == true)
      #expect(error?.message?.contains("7") == true)
      // The connection goes on.
      #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
    }
  }

  @Test("A removed function is no longer known; the one of another arity stays")
  func removal() throws {
    let one = DatabaseFunction("f", argumentCount: 1) { _ in 1 }
    let two = DatabaseFunction("f", argumentCount: 2) { _ in 2 }
    try DatabaseQueue().write { db throws in
      db.add(function: one)
      db.add(function: two)
      db.remove(function: one)
      let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT f(1)") }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message == "wrong number of arguments to function f()")
      #expect(try Int.fetchOne(db, sql: "SELECT f(1, 2)") == 2)
      db.remove(function: two)
      let missing = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT f(1, 2)") }
      #expect(missing?.message == "no such function: f")
    }
  }

  @Test("What a function captures is released when the function is removed or the connection closes")
  func release() throws {
    final class Token: Sendable {}
    weak var removedToken: Token?
    weak var closedToken: Token?
    try {
      let token = Token()
      removedToken = token
      let function = DatabaseFunction("f", argumentCount: 0) { _ in token === token ? 1 : 0 }
      try DatabaseQueue().write { db throws in
        db.add(function: function)
        #expect(try Int.fetchOne(db, sql: "SELECT f()") == 1)
        db.remove(function: function)
      }
    }()
    #expect(removedToken == nil)
    try {
      let token = Token()
      closedToken = token
      let queue = try DatabaseQueue()
      try queue.write { db throws in
        db.add(function: DatabaseFunction("f", argumentCount: 0) { _ in token === token })
      }
    }()
    #expect(closedToken == nil)
  }

  @Test("A function is called in the query interface")
  func queryInterface() throws {
    let succ = DatabaseFunction("succ", argumentCount: 1) { values in
      Int.fromDatabaseValue(values[0]).map { $0 + 1 }
    }
    let joined = DatabaseFunction("joined") { values in
      values.compactMap { String.fromDatabaseValue($0) }.joined(separator: " ")
    }
    try DatabaseQueue().write { db throws in
      db.add(function: succ)
      db.add(function: joined)
      try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
      try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 20)")
      let score = Column("score")
      let request = FunctionPlayer.select(succ(score), as: Int.self).order(Column("id"))
      #expect(try request.fetchAll(db) == [11, 21])
      #expect(
        try FunctionPlayer.filter(succ(score) == 21).select(Column("name"), as: String.self).fetchAll(db) == [
          "Barbara"
        ])
      #expect(
        try FunctionPlayer.filter(Column("id") == 1).select(joined(Column("name"), "the", 1), as: String.self)
          .fetchOne(db) == "Arthur the")
      #expect(try FunctionPlayer.select(succ(41), as: Int.self).fetchOne(db) == 42)
    }
  }

  @Test("GRDB's built-in functions are on every connection, under GRDB's names")
  func builtInFunctions() throws {
    try DatabaseQueue().write { db throws in
      try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY); INSERT INTO player DEFAULT VALUES")
      func call(_ function: DatabaseFunction, _ value: (any DatabaseValueConvertible)?) throws -> String? {
        try String.fetchOne(db, sql: "SELECT \(function.name)(?)", arguments: [value])
      }
      #expect(DatabaseFunction.capitalize.name == "swiftCapitalizedString")
      #expect(DatabaseFunction.lowercase.name == "swiftLowercaseString")
      #expect(DatabaseFunction.uppercase.name == "swiftUppercaseString")
      #expect(DatabaseFunction.localizedCapitalize.name == "swiftLocalizedCapitalizedString")
      #expect(DatabaseFunction.localizedLowercase.name == "swiftLocalizedLowercaseString")
      #expect(DatabaseFunction.localizedUppercase.name == "swiftLocalizedUppercaseString")
      #expect(try call(.capitalize, "hello wORLD") == "Hello World")
      #expect(try call(.lowercase, "ÉCOLE") == "école")
      #expect(try call(.uppercase, "école") == "ÉCOLE")
      #expect(try call(.localizedCapitalize, "hello world") == "Hello World")
      #expect(try call(.localizedLowercase, "ÉCOLE") == "école")
      #expect(try call(.localizedUppercase, "école") == "ÉCOLE")
      // Not a text: NULL.
      #expect(try call(.uppercase, 1) == nil)
      #expect(try call(.capitalize, nil) == nil)
      // The query interface's string functions are these.
      let name = SQLExpression(sql: "'émile zola'")
      #expect(try FunctionPlayer.select(name.uppercased, as: String.self).fetchOne(db) == "ÉMILE ZOLA")
      #expect(try FunctionPlayer.select(name.capitalized, as: String.self).fetchOne(db) == "Émile Zola")
      #expect(
        try FunctionPlayer.select(name.localizedUppercased, as: String.self).fetchOne(db) == "ÉMILE ZOLA")
    }
  }
}

@Suite("Custom functions on every connection of a queue or pool")
struct DatabasePoolFunctionTests {
  /// A writer whose connections all get `function` through prepareDatabase.
  private func makeWriter(
    _ backend: ObservationBackend, _ directory: TemporaryDirectory, adding function: DatabaseFunction
  ) throws -> any DatabaseWriter {
    var configuration = backend == .encryptedPool ? rawKeyConfiguration() : Configuration()
    configuration.prepareDatabase { db in db.add(function: function) }
    switch backend {
    case .queue: return try DatabaseQueue(path: directory.path(), configuration: configuration)
    case .pool, .encryptedPool: return try DatabasePool(path: directory.path(), configuration: configuration)
    }
  }

  @Test(
    "Functions added in prepareDatabase are on the writer and on every reader",
    arguments: ObservationBackend.allCases)
  func prepareDatabase(_ backend: ObservationBackend) async throws {
    let directory = TemporaryDirectory()
    let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { values in
      Int.fromDatabaseValue(values[0]).map { $0 + 1 }
    }
    let writer = try makeWriter(backend, directory, adding: succ)
    try await writer.write { db throws in
      try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (succ(1))")
    }
    // Several reads at once, so that a pool opens several readers.
    try await withThrowingTaskGroup(of: Int?.self) { group in
      for _ in 0..<4 {
        group.addTask { try await writer.read { db in try Int.fetchOne(db, sql: "SELECT succ(a) FROM t") } }
      }
      for try await value in group { #expect(value == 3) }
    }
    let nested = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT succ(succ(1))") }
    #expect(nested == 3)
  }

  @Test("A function added in one access of a pool's writer is not on its readers")
  func perConnection() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path())
    let only = DatabaseFunction("onlyOnWriter", argumentCount: 0) { _ in 1 }
    try pool.write { db in db.add(function: only) }
    #expect(try pool.write { db in try Int.fetchOne(db, sql: "SELECT onlyOnWriter()") } == 1)
    let error = #expect(throws: DatabaseError.self) {
      try pool.read { db in try Int.fetchOne(db, sql: "SELECT onlyOnWriter()") }
    }
    #expect(error?.message == "no such function: onlyOnWriter")
  }
}
