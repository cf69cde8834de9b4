import Foundation
import Sealite
import Testing

// GRDB's binding rules (StatementArgumentsTests, SelectStatementTests,
// UpdateStatementTests): a named parameter takes its named value, or else the
// next positional one; `?NNN` is named "NNN"; named values no parameter uses
// are ignored; positional values left over are an error.

@Suite("Statement arguments bind as GRDB binds them")
struct StatementArgumentsBindingTests {
  @Test("Mixed ?NNN, :name and positional values: a name missing from the dictionary takes the next value")
  func mixedParameters() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let sql = "SELECT ?2 AS two, :foo AS foo, ?1 AS one, :foo AS foo2, :bar AS bar"
      let row = try #require(try Row.fetchOne(db, sql: sql, arguments: [1, 2, "bar"] + ["foo": "foo"]))
      #expect(row == ["two": 2, "foo": "foo", "one": 1, "foo2": "foo", "bar": "bar"])
    }
  }

  @Test("Positional values and named values mix in the order of the parameters")
  func positionalAndNamed() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let row = try #require(
        try Row.fetchOne(
          db, sql: "SELECT ?, :foo, :bar, ?, :tata",
          arguments: [1, 2] + ["foo": "qux", "bar": "baz", "tata": "tutu"]))
      #expect(row == ["?": 1, ":foo": "qux", ":bar": "baz", "?": 2, ":tata": "tutu"])
      // A named parameter with no named value at all reads positional values.
      #expect(try String.fetchAll(db, sql: "SELECT :a || :b", arguments: ["x", "y"]) == ["xy"])
    }
  }

  @Test("?NNN parameters take named values keyed by their number")
  func numberedParametersByName() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      #expect(try Int.fetchOne(db, sql: "SELECT ?1 + ?2", arguments: ["1": 10, "2": 5]) == 15)
      #expect(try Int.fetchOne(db, sql: "SELECT ?2 - ?1", arguments: [10, 5]) == -5)
    }
  }

  @Test("Named values that no parameter uses are ignored, by execute and by prepared statements")
  func unusedNamedValues() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE t (a, b)")
      try db.execute(sql: "INSERT INTO t (a, b) VALUES (:a, :b)", arguments: ["a": 1, "b": 2, "c": 3])
      let statement = try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (:a, :b)")
      try statement.validateArguments(["a": 1, "b": 2, "unused": 3])
      try statement.execute(arguments: ["a": 3, "b": 4, "unused": 5])
      try db.execute(
        sql: "INSERT INTO t (a) VALUES (:a); INSERT INTO t (b) VALUES (:b)",
        arguments: ["a": 5, "b": 6, "z": 0])
      #expect(try Int?.fetchAll(db, sql: "SELECT a FROM t ORDER BY rowid") == [1, 3, 5, nil])
      #expect(try Int?.fetchAll(db, sql: "SELECT b FROM t ORDER BY rowid") == [2, 4, nil, 6])
    }
  }

  @Test("A missing value, or a positional value left over, is a misuse error")
  func validation() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE t (a, b)")
      let positional = try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)")
      try positional.validateArguments(["foo", 1])
      for arguments: StatementArguments in [[], ["foo"], ["foo", 1, "bar"], [:], ["a": "foo", "b": 1]] {
        let error = #expect(throws: DatabaseError.self) { try positional.validateArguments(arguments) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
      }
      let named = try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (:a, :b)")
      try named.validateArguments(["foo", 1])
      try named.validateArguments(["a": "foo", "b": 1])
      for arguments: StatementArguments in [[], ["foo"], ["foo", 1, "baz"], [:], ["a": "foo"]] {
        let error = #expect(throws: DatabaseError.self) { try named.validateArguments(arguments) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
      }
      let missing = #expect(throws: DatabaseError.self) { try named.validateArguments(["a": "foo"]) }
      #expect(missing?.message == "missing statement argument: b")
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
    }
  }

  @Test("Statement.arguments is settable: setting binds the arguments the next run uses")
  func settableArguments() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE t (a, b)")
      let insert = try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (:a, ?)")
      insert.arguments = ["a": "x", "unused": 0] + [1]
      #expect(insert.arguments == ["a": "x", "unused": 0] + [1])
      try insert.execute()
      let select = try db.makeStatement(sql: "SELECT b FROM t WHERE a = ?")
      select.arguments = ["x"]
      #expect(try Int.fetchOne(select) == 1)
      // Unchecked arguments leave the parameters without a value NULL.
      select.setUncheckedArguments([])
      #expect(try Int.fetchOne(select) == nil)
    }
  }

  @Test("A statement with parameters run without ever being given arguments throws, as in GRDB")
  func argumentsNeverGiven() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a, b)")
      let insert = try db.makeStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)")
      let executed = #expect(throws: DatabaseError.self) { try insert.execute() }
      #expect(executed?.resultCode == .SQLITE_MISUSE)
      #expect(executed?.message == "wrong number of statement arguments: 0")
      let select = try db.makeStatement(sql: "SELECT a FROM t WHERE b = :b")
      let fetched = #expect(throws: DatabaseError.self) { try Row.fetchAll(select) }
      #expect(fetched?.message == "missing statement argument: b")
      #expect(throws: DatabaseError.self) { try Int.fetchOne(select) }
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
      // Once given, the arguments stay: a run without arguments reuses them,
      // with what the C API bound over them since.
      try insert.execute(arguments: [1, 2])
      #expect(ResultCode(rawValue: 2.bind(to: insert.sqliteStatement, at: 1)) == .SQLITE_OK)
      try insert.execute()
      #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY rowid") == [1, 2])
      // A statement without parameters needs none.
      try db.makeStatement(sql: "DELETE FROM t").execute()
    }
  }

  @Test("append(contentsOf:) returns the named values it replaced; &+ lets the right side win")
  func appending() throws {
    var arguments: StatementArguments = ["foo": "foo", "bar": "bar", "toto": "titi"]
    let replaced = arguments.append(contentsOf: ["foo": "qux", "bar": "baz", "tata": "tutu"])
    #expect(replaced == ["foo": "foo".databaseValue, "bar": "bar".databaseValue])
    #expect(arguments == ["foo": "qux", "bar": "baz", "toto": "titi", "tata": "tutu"])
    let merged: StatementArguments = ["foo": "foo"] &+ ["foo": "qux"]
    #expect(merged == ["foo": "qux"])
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      #expect(try String.fetchOne(db, sql: "SELECT :foo", arguments: arguments) == "qux")
    }
  }

  @Test("Arguments print named values first, then positional ones")
  func description() {
    let arguments: StatementArguments = [1, "two"] + ["name": "x"]
    #expect(arguments.description == "[\"name\": \"x\", 1, \"two\"]")
  }
}
