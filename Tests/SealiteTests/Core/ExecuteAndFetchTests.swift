import Foundation
import Sealite
import Testing

/// An in-memory queue with a table `player(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score INTEGER)`.
private func playerQueue(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue(configuration: configuration)
  try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE, score INTEGER)")
  }
  return dbQueue
}

@Suite("Executing and fetching")
struct ExecuteAndFetchTests {
  // MARK: execute(sql:arguments:)

  @Test("execute runs several statements in one string")
  func severalStatements() throws {
    let dbQueue = try DatabaseQueue()
    let names = try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE t (name TEXT);
          INSERT INTO t VALUES ('a');
          INSERT INTO t VALUES ('b')
          """)
      return try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name")
    }
    #expect(names == ["a", "b"])
  }

  @Test("Positional arguments are consumed in order across statements")
  func positionalAcrossStatements() throws {
    let dbQueue = try DatabaseQueue()
    let rows = try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE t (a, b);
          INSERT INTO t (a) VALUES (?);
          INSERT INTO t (a, b) VALUES (?, ?);
          """,
        arguments: [1, 2, "two"])
      return try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY a")
    }
    #expect(rows == [["a": 1, "b": nil], ["a": 2, "b": "two"]])
  }

  @Test("Named arguments are shared by the statements")
  func namedAcrossStatements() throws {
    let dbQueue = try DatabaseQueue()
    let values = try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE t (a);
          INSERT INTO t (a) VALUES (:x);
          INSERT INTO t (a) VALUES (:x * 10);
          INSERT INTO t (a) VALUES ($y)
          """,
        arguments: ["x": 3, "y": 7])
      return try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a")
    }
    #expect(values == [3, 7, 30])
  }

  @Test("Empty statements and comments between statements are skipped, not the end")
  func emptyStatementsAndComments() throws {
    let dbQueue = try DatabaseQueue()
    let values = try dbQueue.write { db in
      try db.execute(
        sql: """
          -- leading comment
          CREATE TABLE t (a);;
          INSERT INTO t VALUES (1); ;
          /* block */ INSERT INTO t VALUES (2); -- trailing
          INSERT INTO t VALUES (3);
          """)
      return try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a")
    }
    #expect(values == [1, 2, 3])
  }

  @Test("Malformed SQL is a DatabaseError with SQLITE_ERROR, SQLite's message and the SQL")
  func malformedSQL() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      let executeError = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELEC 1") }
      #expect(executeError?.resultCode == .SQLITE_ERROR)
      #expect(executeError?.message?.contains("syntax error") == true)
      #expect(executeError?.sql == "SELEC 1")
      #expect(executeError?.description.contains("SELEC 1") == true)

      let statementError = #expect(throws: DatabaseError.self) {
        try db.makeStatement(sql: "SELECT * FROM nowhere")
      }
      #expect(statementError?.resultCode == .SQLITE_ERROR)
      #expect(statementError?.message?.contains("no such table: nowhere") == true)
      #expect(statementError?.sql == "SELECT * FROM nowhere")

      let fetchError = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT nope()") }
      #expect(fetchError?.resultCode == .SQLITE_ERROR)
      #expect(fetchError?.message?.contains("nope") == true)
    }
  }

  @Test("A failing statement among several names that statement, and earlier ones roll back in a write")
  func failingStatementAmongSeveral() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    let error = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO nowhere VALUES (2)")
      }
    }
    #expect(error?.sql?.contains("nowhere") == true)
    #expect(error?.sql?.contains("INSERT INTO t") == false)
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
  }

  @Test("Constraint violations carry primary and extended result codes; arguments stay hidden")
  func constraintError() throws {
    let dbQueue = try playerQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["s3cret-name"])
    }
    let error = #expect(throws: DatabaseError.self) {
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["s3cret-name"])
      }
    }
    #expect(error?.resultCode == .SQLITE_CONSTRAINT)
    #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
    #expect(error?.arguments == ["s3cret-name"])
    #expect(error?.description.contains("s3cret-name") == false)
    #expect(error?.description.contains("INSERT INTO player") == true)

    var configuration = Configuration()
    configuration.publicStatementArguments = true
    let publicQueue = try playerQueue(configuration)
    try publicQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
    let publicError = #expect(throws: DatabaseError.self) {
      try publicQueue.write { db in
        try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["x"])
      }
    }
    #expect(publicError?.description.contains(#""x""#) == true)
  }

  // MARK: Statements

  @Test("makeStatement compiles one statement, reusable with new arguments")
  func makeStatement() throws {
    let dbQueue = try playerQueue()
    let names = try dbQueue.write { db in
      let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
      try statement.execute(arguments: ["Arthur", 10])
      try statement.execute(arguments: ["Barbara", 20])
      let named = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
      try named.execute(arguments: ["name": "Craig", "score": 30])
      // Executed again without arguments, it reuses the last ones... on a table
      // whose name is unique, that is an error which proves they were kept.
      #expect(throws: DatabaseError.self) { try named.execute() }
      return try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY score")
    }
    #expect(names == ["Arthur", "Barbara", "Craig"])
  }

  @Test("makeStatement rejects several statements with a clear error, but allows a trailing semicolon")
  func makeStatementRejectsSeveral() throws {
    try DatabaseQueue().writeWithoutTransaction { db in
      let error = #expect(throws: DatabaseError.self) {
        try db.makeStatement(sql: "CREATE TABLE a (x); CREATE TABLE b (x)")
      }
      #expect(error?.resultCode == .SQLITE_MISUSE)
      #expect(error?.message?.contains("multiple statements") == true)
      #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: "SELECT 1; SELECT 2") }
      // Nothing ran.
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0)

      let statement = try db.makeStatement(sql: "SELECT 1;  -- done\n")
      #expect(try Int.fetchOne(statement) == 1)
      #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "") }
    }
  }

  @Test("cachedStatement returns the same statement for the same SQL; makeStatement a new one")
  func cachedStatement() throws {
    try DatabaseQueue().read { db in
      let a = try db.cachedStatement(sql: "SELECT ?")
      let b = try db.cachedStatement(sql: "SELECT ?")
      let c = try db.cachedStatement(sql: "SELECT ? + 0")
      #expect(a === b)
      #expect(a !== c)
      #expect(try db.makeStatement(sql: "SELECT ?") !== a)
      #expect(try Int.fetchOne(a, arguments: [4]) == 4)
      #expect(try Int.fetchOne(b, arguments: [5]) == 5)
    }
  }

  @Test("A statement reports its column names and count")
  func statementColumns() throws {
    let dbQueue = try playerQueue()
    try dbQueue.read { db in
      let select = try db.makeStatement(sql: "SELECT id, name AS Nom, score + 1 FROM player")
      #expect(select.columnCount == 3)
      #expect(select.columnNames == ["id", "Nom", "score + 1"])
      #expect(select.index(ofColumn: "nom") == 1)
      let star = try db.makeStatement(sql: "SELECT * FROM player")
      #expect(star.columnNames == ["id", "name", "score"])
      let insert = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
      #expect(insert.columnCount == 0)
      #expect(insert.columnNames == [])
      #expect(select.isReadonly)
      #expect(!insert.isReadonly)
    }
  }

  // MARK: Connection state

  @Test("lastInsertedRowID, changesCount and totalChangesCount follow the writes")
  func connectionCounters() throws {
    let dbQueue = try playerQueue()
    try dbQueue.write { db in
      let totalBefore = db.totalChangesCount
      try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (41, 'a', 1)")
      #expect(db.lastInsertedRowID == 41)
      #expect(db.changesCount == 1)
      try db.execute(sql: "INSERT INTO player (name, score) VALUES ('b', 1), ('c', 2)")
      #expect(db.lastInsertedRowID == 43)
      #expect(db.changesCount == 2)
      try db.execute(sql: "UPDATE player SET score = 5 WHERE score = 1")
      #expect(db.changesCount == 2)
      try db.execute(sql: "DELETE FROM player")
      #expect(db.changesCount == 3)
      #expect(db.totalChangesCount - totalBefore == 1 + 2 + 2 + 3)
      // A read does not reset the counters.
      _ = try Row.fetchAll(db, sql: "SELECT * FROM player")
      #expect(db.changesCount == 3)
      #expect(db.lastInsertedRowID == 43)
    }
  }

  @Test("isInsideTransaction tells whether a transaction is open, by Sealite or by SQL")
  func insideTransaction() throws {
    let dbQueue = try playerQueue()
    #expect(try dbQueue.write { db in db.isInsideTransaction })
    #expect(try dbQueue.read { db in db.isInsideTransaction })
    try dbQueue.writeWithoutTransaction { db in
      #expect(!db.isInsideTransaction)
      try db.execute(sql: "BEGIN")
      #expect(db.isInsideTransaction)
      try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
      try db.execute(sql: "COMMIT")
      #expect(!db.isInsideTransaction)
      try db.inTransaction {
        #expect(db.isInsideTransaction)
        return .commit
      }
      #expect(!db.isInsideTransaction)
    }
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
  }

  // MARK: Fetching rows

  @Test("Rows fetch as an array, a single row, a set or a cursor, from SQL or a statement")
  func fetchRows() throws {
    let dbQueue = try playerQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO player (name, score) VALUES ('a', 1), ('b', 2), ('c', 2)")
    }
    try dbQueue.read { db in
      let sql = "SELECT name, score FROM player WHERE score >= ? ORDER BY name"
      let all = try Row.fetchAll(db, sql: sql, arguments: [2])
      #expect(all == [["name": "b", "score": 2], ["name": "c", "score": 2]])
      #expect(try Row.fetchOne(db, sql: sql, arguments: [1]) == ["name": "a", "score": 1])
      #expect(try Row.fetchOne(db, sql: sql, arguments: [99]) == nil)
      #expect(try Row.fetchAll(db, sql: sql, arguments: [99]) == [])
      #expect(try Row.fetchSet(db, sql: "SELECT score FROM player") == [["score": 1], ["score": 2]])
      let cursor = try Row.fetchCursor(db, sql: sql, arguments: [1])
      var names: [String] = []
      while let row = try cursor.next() { names.append(row["name"]) }
      #expect(names == ["a", "b", "c"])

      let statement = try db.makeStatement(sql: sql)
      #expect(try Row.fetchAll(statement, arguments: [2]).count == 2)
      #expect(try Row.fetchOne(statement, arguments: [2]) == ["name": "b", "score": 2])
      #expect(try Row.fetchSet(statement, arguments: [1]).count == 3)
      #expect(try Array(Row.fetchCursor(statement, arguments: [2]).map { $0.copy() }) == all)
      // Without new arguments, a statement keeps its last ones.
      #expect(try Row.fetchAll(statement) == all)
    }
  }

  @Test("Row.fetchOne returns the values of the first row, from SQL and from a statement")
  func fetchOneRowValues() throws {
    try DatabaseQueue().read { db in
      let sql = "SELECT 1 AS i, 'a' AS s, 2.5 AS r, x'01' AS b, NULL AS n UNION ALL SELECT 2, 'b', 0, x'', 1"
      let expected: Row = ["i": 1, "s": "a", "r": 2.5, "b": Data([1]), "n": nil]
      let fromSQL = try #require(try Row.fetchOne(db, sql: sql))
      #expect(fromSQL == expected)
      #expect(fromSQL.description == #"[i:1 s:"a" r:2.5 b:Data(1 bytes) n:NULL]"#)
      let statement = try db.makeStatement(sql: "SELECT ? AS x, :y AS y")
      #expect(try Row.fetchOne(statement, arguments: [7, "z"]) == ["x": 7, "y": "z"])
      // The row outlives the cursor that produced it.
      let rows = try (1...3).map { i in try Row.fetchOne(db, sql: "SELECT ? AS v", arguments: [i]) }
      #expect(rows == [["v": 1], ["v": 2], ["v": 3]])
    }
  }

  @Test("Values fetch as an array, a single value, a set or a cursor, from SQL or a statement")
  func fetchValues() throws {
    let dbQueue = try playerQueue()
    try dbQueue.write { db in
      try db.execute(sql: "INSERT INTO player (name, score) VALUES ('a', 1), ('b', 2), ('c', 2)")
    }
    try dbQueue.read { db in
      let sql = "SELECT score FROM player ORDER BY name"
      #expect(try Int.fetchAll(db, sql: sql) == [1, 2, 2])
      #expect(try Int.fetchOne(db, sql: sql) == 1)
      #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE 0") == nil)
      #expect(try Int.fetchSet(db, sql: sql) == [1, 2])
      #expect(try Array(Int.fetchCursor(db, sql: sql)) == [1, 2, 2])
      #expect(
        try String.fetchAll(db, sql: "SELECT name FROM player WHERE score = ?", arguments: [2]) == ["b", "c"])
      #expect(try String.fetchSet(db, sql: "SELECT name FROM player") == ["a", "b", "c"])
      #expect(try Date.fetchOne(db, sql: "SELECT '2024-01-01'") == Date(timeIntervalSince1970: 1_704_067_200))

      let statement = try db.makeStatement(sql: "SELECT name FROM player WHERE score = :s ORDER BY name")
      #expect(try String.fetchAll(statement, arguments: ["s": 2]) == ["b", "c"])
      #expect(try String.fetchOne(statement, arguments: ["s": 1]) == "a")
      #expect(try String.fetchSet(statement, arguments: ["s": 2]) == ["b", "c"])
      #expect(try Array(String.fetchCursor(statement, arguments: ["s": 9])) == [])
      // Only the first column is read.
      #expect(try Int.fetchAll(db, sql: "SELECT score, name FROM player ORDER BY name") == [1, 2, 2])
    }
  }

  @Test("NULL in a non-optional fetchAll is an error; Optional fetchAll gives nil; fetchOne gives nil")
  func fetchNulls() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let sql = "SELECT 1 UNION ALL SELECT NULL UNION ALL SELECT 3"
      let error = #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: sql) }
      #expect(error?.description.contains("NULL") == true)
      #expect(error?.description.contains("Int") == true)
      #expect(throws: RowDecodingError.self) { try String.fetchAll(db, sql: "SELECT NULL") }
      #expect(throws: RowDecodingError.self) { try Date.fetchAll(db, sql: "SELECT NULL") }
      #expect(throws: RowDecodingError.self) { try UUID.fetchAll(db, sql: "SELECT NULL") }
      #expect(throws: RowDecodingError.self) { try Int.fetchSet(db, sql: "SELECT NULL") }
      #expect(try Int?.fetchAll(db, sql: sql) == [1, nil, 3])
      #expect(try Date?.fetchAll(db, sql: "SELECT NULL") == [nil])
      #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
      #expect(try UUID.fetchOne(db, sql: "SELECT NULL") == nil)
      // fetchOne of a value that does not convert is still an error.
      #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT 300") }
      #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT 'x'") }
    }
  }

  @Test("Fetching the same SQL inside a cursor loop works (nested use of a cached query)")
  func nestedSameSQL() throws {
    let dbQueue = try DatabaseQueue()
    let pairs = try dbQueue.read { db -> [[Int]] in
      let sql = "SELECT 1 UNION ALL SELECT 2"
      var result: [[Int]] = []
      let outer = try Int.fetchCursor(db, sql: sql)
      while let x = try outer.next() {
        result.append([x] + (try Int.fetchAll(db, sql: sql)))
      }
      return result
    }
    #expect(pairs == [[1, 1, 2], [2, 1, 2]])
  }

  // MARK: A database that escapes its closure

  @Test("A Database that escapes its closure refuses to run statements with a misuse error")
  func escapedDatabase() throws {
    let dbQueue = try playerQueue()
    let escaped = try dbQueue.write { db in db }
    let attempts: [(String, () throws -> Void)] = [
      ("execute", { try escaped.execute(sql: "INSERT INTO player (name) VALUES ('x')") }),
      ("makeStatement", { _ = try escaped.makeStatement(sql: "SELECT 1") }),
      ("cachedStatement", { _ = try escaped.cachedStatement(sql: "SELECT 2") }),
      ("Row.fetchAll", { _ = try Row.fetchAll(escaped, sql: "SELECT * FROM player") }),
      ("Int.fetchOne", { _ = try Int.fetchOne(escaped, sql: "SELECT COUNT(*) FROM player") }),
      ("fetchCursor", { _ = try String.fetchCursor(escaped, sql: "SELECT name FROM player") }),
    ]
    for (name, attempt) in attempts {
      let error = #expect(throws: DatabaseError.self, "\(name)") { try attempt() }
      #expect(error?.resultCode == .SQLITE_MISUSE, "\(name)")
    }
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
  }

  @Test("A statement that escapes its closure refuses to run with a misuse error")
  func escapedStatement() throws {
    let dbQueue = try playerQueue()
    let statement = try dbQueue.write { db in
      try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    }
    let error = #expect(throws: DatabaseError.self) { try statement.execute(arguments: ["x"]) }
    #expect(error?.resultCode == .SQLITE_MISUSE)
    #expect(throws: DatabaseError.self) { try Row.fetchAll(statement) }
    #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
  }

  @Test("A Database that escapes a closed queue refuses to run statements, without crashing")
  func escapedDatabaseOfClosedQueue() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path())
    let escaped = try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
      return db
    }
    try dbQueue.close()
    #expect(throws: DatabaseError.self) { try escaped.execute(sql: "INSERT INTO t VALUES (1)") }
    #expect(throws: DatabaseError.self) { try Int.fetchAll(escaped, sql: "SELECT a FROM t") }
    #expect(throws: DatabaseError.self) { try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT 1") } }
  }

  @Test("A Database that escapes a pool closure refuses to run statements")
  func escapedPoolDatabase() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path())
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    let reader = try dbPool.read { db in db }
    let writer = try dbPool.write { db in db }
    let readError = #expect(throws: DatabaseError.self) { try Int.fetchAll(reader, sql: "SELECT a FROM t") }
    #expect(readError?.resultCode == .SQLITE_MISUSE)
    let writeError = #expect(throws: DatabaseError.self) {
      try writer.execute(sql: "INSERT INTO t VALUES (1)")
    }
    #expect(writeError?.resultCode == .SQLITE_MISUSE)
    #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
  }
}
