import Foundation
import Sealite
import Testing

// GRDB's two conversion paths (GRDB's DatabaseValueConversionTests): the fast
// path (`T.fetchOne`, `T.fetchAll`, `T.fetchCursor`, and the subscripts of a row
// a cursor is reading) converts with SQLite's own functions; the database
// value path (`T.fromDatabaseValue`, and copied rows) converts only what
// `fromDatabaseValue` accepts.

/// What `sql` (one column, one row) reads as through both paths; nil for NULL
/// and for a value that does not convert (which throws).
private struct Reading<T> {
  /// `T.fetchOne`.
  var fetchOne: T?
  /// `decode(T?.self, atIndex: 0)`, and `row[0] as T?`, on a row a cursor is reading.
  var liveRow: T?
  /// `T.fromDatabaseValue` of the value.
  var fromDatabaseValue: T?
  /// `decode(T?.self, atIndex: 0)` on a copied row.
  var copiedRow: T?
}

private func read<T: DatabaseValueConvertible & StatementColumnConvertible & Equatable>(
  _ type: T.Type, _ sql: String, arguments: StatementArguments = []
) throws -> Reading<T> {
  let dbQueue = try DatabaseQueue()
  return try dbQueue.read { (db: Database) throws in
    let fetchOne = (try? T.fetchOne(db, sql: sql, arguments: arguments)) ?? nil
    let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
    let live = try #require(try cursor.next())
    let liveRow = (try? live.decode(T?.self, atIndex: 0)) ?? nil
    if liveRow != nil {
      // The subscript stops the program on a failed conversion: only asked
      // when the conversion succeeds.
      #expect((live[0] as T?) == liveRow)
    }
    let dbValue = try #require(try DatabaseValue.fetchOne(db, sql: sql, arguments: arguments))
    let copied = try #require(try Row.fetchOne(db, sql: sql, arguments: arguments))
    return Reading(
      fetchOne: fetchOne, liveRow: liveRow, fromDatabaseValue: T.fromDatabaseValue(dbValue),
      copiedRow: (try? copied.decode(T?.self, atIndex: 0)) ?? nil)
  }
}

/// Checks both paths: `fast` on the fast path, `slow` on the database value path.
private func expect<T: DatabaseValueConvertible & StatementColumnConvertible & Equatable>(
  _ sql: String, as type: T.Type, fast: T?, slow: T?, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let reading = try read(T.self, sql)
  #expect(reading.fetchOne == fast, "fetchOne of \(sql)", sourceLocation: sourceLocation)
  #expect(reading.liveRow == fast, "live row of \(sql)", sourceLocation: sourceLocation)
  #expect(reading.fromDatabaseValue == slow, "fromDatabaseValue of \(sql)", sourceLocation: sourceLocation)
  #expect(reading.copiedRow == slow, "copied row of \(sql)", sourceLocation: sourceLocation)
}

private enum Grade: Int, DatabaseValueConvertible, StatementColumnConvertible {
  case a = 1
  case b = 2
}

@Suite("Conversion rules (GRDB's fast path and database value path)")
struct ConversionRulesTests {
  @Test("String.fetchOne of EXPLAIN QUERY PLAN reads its INTEGER first column as text, as in the GRDB guide")
  func explainQueryPlan() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
      let sql = "EXPLAIN QUERY PLAN SELECT * FROM player WHERE name = 'x'"
      let integer = try #require(try Int.fetchOne(db, sql: sql))
      #expect(try String.fetchOne(db, sql: sql) == String(integer))
      #expect(try String.fetchAll(db, sql: sql).first == String(integer))
      #expect(try String.fetchCursor(db, sql: sql).next() == String(integer))
      #expect(try String.fetchSet(db, sql: sql).contains(String(integer)))
      #expect(try String.fetchOne(db, SQLRequest<String>(sql: sql)) == String(integer))
      #expect(try SQLRequest<String>(sql: sql).fetchOne(db) == String(integer))
      #expect(try SQLRequest<String>(sql: sql).fetchSet(db) == [String(integer)])
      #expect(try String.fetchSet(db, SQLRequest<String>(sql: sql)) == [String(integer)])
    }
  }

  @Test(
    "Texts read numbers and blobs on the fast path; their database value only reads texts and UTF-8 blobs")
  func strings() throws {
    try expect("SELECT 42", as: String.self, fast: "42", slow: nil)
    try expect("SELECT 1.5", as: String.self, fast: "1.5", slow: nil)
    try expect("SELECT 1e20", as: String.self, fast: "1.0e+20", slow: nil)
    try expect("SELECT 'foo'", as: String.self, fast: "foo", slow: "foo")
    try expect("SELECT x'666f6f'", as: String.self, fast: "foo", slow: "foo")
    try expect("SELECT x'80'", as: String.self, fast: "\u{FFFD}", slow: nil)
    try expect("SELECT NULL", as: String.self, fast: nil, slow: nil)
  }

  @Test(
    "Integers read texts by SQLite's rules and truncate reals; a database value reads INTEGER and REAL only")
  func integers() throws {
    try expect("SELECT '12abc'", as: Int.self, fast: 12, slow: nil)
    try expect("SELECT 'foo'", as: Int.self, fast: 0, slow: nil)
    try expect("SELECT '3.0e+5'", as: Int64.self, fast: 3, slow: nil)
    try expect("SELECT 1.9", as: Int.self, fast: 1, slow: 1)
    try expect("SELECT -0.25", as: Int64.self, fast: 0, slow: 0)
    try expect("SELECT x'31'", as: Int32.self, fast: 1, slow: nil)
    try expect("SELECT 300000.0", as: Int32.self, fast: 300_000, slow: 300_000)
    let big = try read(Int64.self, "SELECT 1e20")
    #expect(big.fromDatabaseValue == nil)
    #expect(big.copiedRow == nil)
    #expect(big.fetchOne == Int64.max)
  }

  @Test("An integer that does not fit the requested width is an error on both paths")
  func integerOverflow() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      #expect(throws: RowDecodingError.self) { try Int8.fetchAll(db, sql: "SELECT 300") }
      #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT 300") }
      #expect(throws: RowDecodingError.self) { try UInt.fetchOne(db, sql: "SELECT -1") }
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 300"))
      #expect(throws: RowDecodingError.self) { try row.decode(Int8.self, atIndex: 0) }
    }
  }

  @Test("Doubles and Bools read texts by SQLite's rules on the fast path only")
  func doublesAndBools() throws {
    try expect("SELECT '3.0e+5'", as: Double.self, fast: 300_000, slow: nil)
    try expect("SELECT 2", as: Double.self, fast: 2, slow: 2)
    try expect("SELECT 'abc'", as: Double.self, fast: 0, slow: nil)
    try expect("SELECT '1'", as: Bool.self, fast: true, slow: nil)
    try expect("SELECT '0'", as: Bool.self, fast: false, slow: nil)
    try expect("SELECT 0.5", as: Bool.self, fast: false, slow: true)
    try expect("SELECT 2", as: Bool.self, fast: true, slow: true)
    try expect("SELECT '1.5'", as: Float.self, fast: 1.5, slow: nil)
  }

  @Test("Data reads the bytes of a number's text on the fast path; a database value reads blobs and texts")
  func data() throws {
    try expect("SELECT 42", as: Data.self, fast: Data("42".utf8), slow: nil)
    try expect("SELECT 'foo'", as: Data.self, fast: Data("foo".utf8), slow: Data("foo".utf8))
    try expect("SELECT x''", as: Data.self, fast: Data(), slow: Data())
    try expect("SELECT ''", as: Data.self, fast: Data(), slow: Data())
  }

  @Test("Dates read numbers as timestamps and texts as dates; a blob's text only through its database value")
  func dates() throws {
    let timestamp = Date(timeIntervalSince1970: 1_437_526_923.5)
    try expect("SELECT 1437526923.5", as: Date.self, fast: timestamp, slow: timestamp)
    try expect("SELECT 1437526923", as: Date.self, fast: timestamp - 0.5, slow: timestamp - 0.5)
    // Milliseconds: the fourth digit and beyond are ignored.
    let date = Date(timeIntervalSince1970: 1_437_526_923 + 0.456)
    try expect("SELECT '2015-07-22 01:02:03.456'", as: Date.self, fast: date, slow: date)
    try expect("SELECT '2015-07-22T01:02:03.456789'", as: Date.self, fast: date, slow: date)
    try expect("SELECT '2015-07-22 03:02:03.456+02:00'", as: Date.self, fast: date, slow: date)
    try expect("SELECT CAST('2015-07-22 01:02:03.456' AS BLOB)", as: Date.self, fast: nil, slow: date)
    try expect("SELECT '01:02'", as: Date.self, fast: nil, slow: nil)
  }

  @Test("UUIDs read 16-byte blobs and canonical texts on the fast path")
  func uuids() throws {
    let uuid = UUID()
    let blob = try read(UUID.self, "SELECT ?", arguments: [uuid])
    #expect(blob.fetchOne == uuid)
    #expect(blob.liveRow == uuid)
    try expect("SELECT '\(uuid.uuidString)'", as: UUID.self, fast: uuid, slow: uuid)
    try expect("SELECT x'0102'", as: UUID.self, fast: nil, slow: nil)
  }

  @Test("An enum with a raw value reads its raw value on the fast path")
  func rawRepresentable() throws {
    try expect("SELECT '2'", as: Grade.self, fast: .b, slow: nil)
    try expect("SELECT 1", as: Grade.self, fast: .a, slow: .a)
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      _ = #expect(throws: RowDecodingError.self) { try Grade.fetchAll(db, sql: "SELECT 3") }
    }
  }

  @Test("DatabaseValue.fetchOne of NULL is .null, not nil: Optional asks the wrapped type first")
  func databaseValueNull() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .some(.null))
      #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
      #expect(try DatabaseValue.fetchAll(db, sql: "SELECT NULL") == [.null])
      #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
    }
    #expect(DatabaseValue?.fromDatabaseValue(.null) == .some(.some(.null)))
    #expect(Int?.fromDatabaseValue(.null) == .some(nil))
    #expect(Int?.fromDatabaseValue("foo") == nil)
  }

  @Test("A missing column reads as nil for an optional, and is an error for a non-optional")
  func missingColumn() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a"))
      #expect((row["missing"] as Int?) == nil)
      #expect((row["missing"] as String?) == nil)
      #expect(try row.decode(Int?.self, forColumn: "missing") == nil)
      #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
      let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS a")
      let live = try #require(try cursor.next())
      #expect((live["missing"] as Int?) == nil)
      #expect((live["a"] as String?) == "1")
    }
  }

  @Test("A decoding error follows GRDB's format: value, column, index, row and SQL")
  func errorDescription() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      do {
        _ = try Int8.fetchAll(db, sql: "SELECT 300 AS score")
        Issue.record("expected an error")
      } catch let error as RowDecodingError {
        #expect(
          error.description
            == "could not decode Int8 from database value 300 - column: \"score\", column index: 0, "
            + "row: [score:300], sql: `SELECT 300 AS score`")
      }
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a"))
      do {
        _ = try row.decode(Int.self, forColumn: "b")
        Issue.record("expected an error")
      } catch let error as RowDecodingError {
        // A copied row no longer knows its statement.
        #expect(error.description == "column not found: \"b\" - row: [a:1]")
      }
    }
  }
}
