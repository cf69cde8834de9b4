import Foundation
import Sealite
import Testing

/// Stores `value` in a fresh in-memory database and returns the SQLite storage
/// class SQLite reports for it, and the value read back twice: through
/// `fetchOne` and through a row's throwing `decode`.
private func storeAndRead<T: DatabaseValueConvertible>(_ value: T) throws -> (
  storageClass: String, fetched: T?, decoded: T
) {
  let dbQueue = try DatabaseQueue()
  return try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (v)")
    try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value])
    let storageClass = try String.fetchOne(db, sql: "SELECT typeof(v) FROM t")!
    let fetched = try T.fetchOne(db, sql: "SELECT v FROM t")
    let row = try #require(try Row.fetchAll(db, sql: "SELECT v FROM t").first)
    let decoded = try row.decode(T.self, forColumn: "v")
    return (storageClass, fetched, decoded)
  }
}

/// Reads the result of an SQL expression as `T`, throwing when it can not be converted.
private func read<T: DatabaseValueConvertible>(_ type: T.Type, sqlExpression: String) throws -> T {
  let dbQueue = try DatabaseQueue()
  return try dbQueue.read { db in
    try #require(try Row.fetchAll(db, sql: "SELECT \(sqlExpression) AS v").first).decode(
      T.self, forColumn: "v")
  }
}

/// Reads the result of an SQL expression as `T` through `fetchAll`, which must throw.
private func fetchAllError<T: DatabaseValueConvertible>(_ type: T.Type, sqlExpression: String) throws
  -> RowDecodingError?
{
  let dbQueue = try DatabaseQueue()
  return try dbQueue.read { db in
    do {
      let values = try T.fetchAll(db, sql: "SELECT \(sqlExpression)")
      Issue.record("expected an error, got \(values)")
      return nil
    } catch let error as RowDecodingError {
      return error
    }
  }
}

private enum Color: String, DatabaseValueConvertible {
  case red, green
}

private enum Level: Int, DatabaseValueConvertible {
  case low = 1
  case high = 10
}

@Suite("Value conversions")
struct ValueConversionTests {
  // MARK: Bool and integers

  @Test("Bool is stored as INTEGER 0/1 and reads back")
  func bool() throws {
    for value in [true, false] {
      let result = try storeAndRead(value)
      #expect(result.storageClass == "integer")
      #expect(result.fetched == value)
      #expect(result.decoded == value)
    }
    let stored = try DatabaseQueue().read { db in try Int.fetchOne(db, sql: "SELECT ?", arguments: [true]) }
    #expect(stored == 1)
    #expect(try read(Bool.self, sqlExpression: "2") == true)
    #expect(try read(Bool.self, sqlExpression: "0") == false)
  }

  @Test("Every integer width round-trips its extremes as INTEGER")
  func integerExtremes() throws {
    func check<T: DatabaseValueConvertible & FixedWidthInteger>(_ values: [T]) throws {
      for value in values {
        let result = try storeAndRead(value)
        #expect(result.storageClass == "integer", "\(T.self) \(value)")
        #expect(result.fetched == value, "\(T.self) \(value)")
        #expect(result.decoded == value, "\(T.self) \(value)")
      }
    }
    try check([Int.min, -1, 0, Int.max])
    try check([Int8.min, -1, 0, Int8.max])
    try check([Int16.min, 0, Int16.max])
    try check([Int32.min, 0, Int32.max])
    try check([Int64.min, 0, Int64.max])
    try check([UInt.min, 1, UInt(Int64.max)])
    try check([UInt8.min, UInt8.max])
    try check([UInt16.min, UInt16.max])
    try check([UInt32.min, UInt32.max])
    try check([UInt64.min, UInt64(Int64.max)])
  }

  @Test("Reading an integer that does not fit the requested width is an error, never a wrap")
  func integerOutOfRangeOnRead() throws {
    #expect(throws: RowDecodingError.self) { try read(Int8.self, sqlExpression: "300") }
    #expect(throws: RowDecodingError.self) { try read(Int8.self, sqlExpression: "-129") }
    #expect(throws: RowDecodingError.self) { try read(UInt8.self, sqlExpression: "-1") }
    #expect(throws: RowDecodingError.self) { try read(UInt8.self, sqlExpression: "256") }
    #expect(throws: RowDecodingError.self) { try read(Int16.self, sqlExpression: "40000") }
    #expect(throws: RowDecodingError.self) { try read(Int32.self, sqlExpression: "2147483648") }
    #expect(throws: RowDecodingError.self) { try read(UInt32.self, sqlExpression: "-5") }
    #expect(throws: RowDecodingError.self) { try read(UInt64.self, sqlExpression: "-1") }
    #expect(throws: RowDecodingError.self) { try read(UInt.self, sqlExpression: "-1") }

    // fetchAll and fetchOne (the fast column path) refuse them too.
    let error = try #require(try fetchAllError(Int8.self, sqlExpression: "300"))
    #expect(error.description.contains("300"))
    #expect(error.description.contains("Int8"))
    #expect(try fetchAllError(UInt8.self, sqlExpression: "-1") != nil)
    #expect(throws: RowDecodingError.self) {
      try DatabaseQueue().read { db in try Int8.fetchOne(db, sql: "SELECT 300") }
    }
  }

  @Test("A REAL reads as an integer truncated toward zero, as in GRDB; a whole REAL exactly")
  func realToInteger() throws {
    #expect(try read(Int.self, sqlExpression: "1.5") == 1)
    #expect(try read(Int.self, sqlExpression: "-1.5") == -1)
    let dbQueue = try DatabaseQueue()
    #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT 1.5") } == [1])
    #expect(try dbQueue.read { db in try Int64.fetchAll(db, sql: "SELECT -0.25") } == [0])
    #expect(try read(Int.self, sqlExpression: "2.0") == 2)
    #expect(try read(Int64.self, sqlExpression: "-7.0") == -7)
    // Too large for Int64 even though whole.
    #expect(throws: RowDecodingError.self) { try read(Int64.self, sqlExpression: "1e30") }
  }

  @Test("Binding UInt64.max is an error thrown at execution that names the value, and writes nothing")
  func bindingUInt64MaxFails() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (v)") }
    let error = #expect(throws: DatabaseError.self) {
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [UInt64.max])
      }
    }
    #expect(error?.resultCode == .SQLITE_MISUSE)
    #expect(error?.message?.contains("18446744073709551615") == true)
    // Just above Int64.max, as a named argument and through a prepared statement.
    let justAbove = UInt64(Int64.max) + 1
    #expect(throws: DatabaseError.self) {
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "INSERT INTO t (v) VALUES (:v)", arguments: ["v": justAbove])
      }
    }
    let statementError = #expect(throws: DatabaseError.self) {
      try dbQueue.writeWithoutTransaction { db in
        try db.makeStatement(sql: "INSERT INTO t (v) VALUES (?)").execute(arguments: [UInt.max])
      }
    }
    #expect(statementError?.message?.contains(String(UInt.max)) == true)
    let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
    #expect(count == 0)
  }

  // MARK: Floating point

  @Test("Double and Float round-trip as REAL; integers read as Double")
  func floatingPoint() throws {
    for value in [0.0, -1.25, 3.141592653589793, 1e300, -Double.leastNonzeroMagnitude, .infinity] {
      let result = try storeAndRead(value)
      #expect(result.storageClass == "real")
      #expect(result.fetched == value)
      #expect(result.decoded == value)
    }
    let float = try storeAndRead(Float(1.5))
    #expect(float.storageClass == "real")
    #expect(float.fetched == 1.5)
    #expect(float.decoded == 1.5)
    #expect(try read(Double.self, sqlExpression: "42") == 42)
    #expect(try read(Float.self, sqlExpression: "0.25") == 0.25)
    #expect(throws: RowDecodingError.self) { try read(Double.self, sqlExpression: "'1.5'") }
  }

  // MARK: Text and blobs

  @Test("String round-trips as TEXT, including empty, non-ASCII and embedded NUL")
  func strings() throws {
    for value in ["", "hello", "héllo wörld 🌍", "line\nbreak", "a\u{0}b"] {
      let result = try storeAndRead(value)
      #expect(result.storageClass == "text")
      #expect(result.fetched == value)
      #expect(result.decoded == value)
    }
    #expect(throws: RowDecodingError.self) { try read(String.self, sqlExpression: "12") }
  }

  @Test("Data round-trips as BLOB; empty Data stays an empty BLOB, not NULL")
  func data() throws {
    let bytes = Data([0, 1, 2, 0xFF, 0, 42])
    let result = try storeAndRead(bytes)
    #expect(result.storageClass == "blob")
    #expect(result.fetched == bytes)
    #expect(result.decoded == bytes)

    let empty = try storeAndRead(Data())
    #expect(empty.storageClass == "blob")
    #expect(empty.fetched == Data())
    #expect(empty.decoded == Data())
    #expect(throws: RowDecodingError.self) { try read(Data.self, sqlExpression: "1") }
  }

  // MARK: Dates

  @Test("Date is stored as UTC text yyyy-MM-dd HH:mm:ss.SSS and reads back")
  func dateStoredFormat() throws {
    // 2023-11-14 22:13:20.123 UTC
    let date = Date(timeIntervalSince1970: 1_700_000_000.123)
    let dbQueue = try DatabaseQueue()
    let (stored, storageClass, back) = try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (d)")
      try db.execute(sql: "INSERT INTO t (d) VALUES (?)", arguments: [date])
      return (
        try String.fetchOne(db, sql: "SELECT d FROM t"),
        try String.fetchOne(db, sql: "SELECT typeof(d) FROM t"),
        try Date.fetchOne(db, sql: "SELECT d FROM t")
      )
    }
    #expect(storageClass == "text")
    #expect(stored == "2023-11-14 22:13:20.123")
    let readBack = try #require(back)
    #expect(abs(readBack.timeIntervalSince(date)) < 0.0005)

    // Before 1970 too.
    let old = Date(timeIntervalSince1970: -1.5)
    let oldStored = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT ?", arguments: [old]) }
    #expect(oldStored == "1969-12-31 23:59:58.500")
  }

  @Test("Dates with whole milliseconds read back to the same millisecond")
  func dateMillisecondPrecision() throws {
    let dbQueue = try DatabaseQueue()
    let base = 1_700_000_000.0
    let dates = (0..<1000).map { Date(timeIntervalSince1970: base + Double($0) / 1000) }
    let back = try dbQueue.read { db in
      try dates.map { date in try Date.fetchOne(db, sql: "SELECT ?", arguments: [date])! }
    }
    let wrong = zip(dates, back).filter { abs($0.timeIntervalSince($1)) >= 0.0005 }
    #expect(
      wrong.isEmpty,
      "\(wrong.count) dates lost a millisecond, e.g. \(wrong.first.map { "\($0.0.timeIntervalSince1970)" } ?? "")"
    )
  }

  @Test("Stored dates sort chronologically and work with SQLite date functions")
  func dateSortingAndSQLFunctions() throws {
    let dbQueue = try DatabaseQueue()
    let dates = [
      Date(timeIntervalSince1970: 1_700_000_000),
      Date(timeIntervalSince1970: 86_400 * 3),
      Date(timeIntervalSince1970: 1_600_000_000.5),
    ]
    let (sorted, day) = try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (d)")
      for date in dates { try db.execute(sql: "INSERT INTO t (d) VALUES (?)", arguments: [date]) }
      return (
        try Date.fetchAll(db, sql: "SELECT d FROM t ORDER BY d"),
        try String.fetchOne(db, sql: "SELECT date(d) FROM t ORDER BY d LIMIT 1")
      )
    }
    #expect(sorted.map(\.timeIntervalSince1970) == dates.map(\.timeIntervalSince1970).sorted())
    #expect(day == "1970-01-04")
  }

  @Test(
    "Dates read from SQLite's text formats, with or without T, seconds, fraction, Z or an offset",
    arguments: [
      ("2024-03-05", 1_709_596_800.0),
      ("2024-03-05 10:20", 1_709_634_000.0),
      ("2024-03-05 10:20:30", 1_709_634_030.0),
      ("2024-03-05T10:20:30", 1_709_634_030.0),
      ("2024-03-05 10:20:30.5", 1_709_634_030.5),
      ("2024-03-05T10:20:30.250", 1_709_634_030.25),
      ("2024-03-05T10:20:30Z", 1_709_634_030.0),
      ("2024-03-05 10:20:30.125Z", 1_709_634_030.125),
      ("2024-03-05T10:20:30+02:00", 1_709_626_830.0),
      ("2024-03-05T10:20:30-05:30", 1_709_653_830.0),
    ])
  func dateTextFormats(text: String, expected: Double) throws {
    let date = try DatabaseQueue().read { db in
      try Date.fetchOne(db, sql: "SELECT ?", arguments: [text])
    }
    let value = try #require(date, "\(text) did not read as a date")
    #expect(abs(value.timeIntervalSince1970 - expected) < 0.0005, "\(text)")
  }

  @Test("Numeric unix timestamps read as dates, INTEGER and REAL")
  func dateFromTimestamps() throws {
    #expect(try read(Date.self, sqlExpression: "1700000000") == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(
      try read(Date.self, sqlExpression: "1700000000.5") == Date(timeIntervalSince1970: 1_700_000_000.5))
    #expect(try read(Date.self, sqlExpression: "0") == Date(timeIntervalSince1970: 0))
  }

  @Test("Malformed date texts and blobs are decoding errors")
  func malformedDates() throws {
    for text in ["not a date", "2024-13-01", "2024-03-05 25:00", "2024-03-05T10:20:30 junk", "2024/03/05"] {
      #expect(throws: RowDecodingError.self, "\(text)") {
        try read(Date.self, sqlExpression: "'\(text)'")
      }
    }
    #expect(throws: RowDecodingError.self) { try read(Date.self, sqlExpression: "x'00'") }
  }

  // MARK: UUID and URL

  @Test("UUID is stored as a 16-byte BLOB of its bytes and reads back")
  func uuidBlob() throws {
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    let result = try storeAndRead(uuid)
    #expect(result.storageClass == "blob")
    #expect(result.fetched == uuid)
    #expect(result.decoded == uuid)
    let hex = try DatabaseQueue().read { db in
      try String.fetchOne(db, sql: "SELECT hex(?)", arguments: [uuid])
    }
    #expect(hex == "E621E1F8C36C495A93FC0C247A3E6E5F")
  }

  @Test("UUID reads canonical text, upper or lower case; other texts and blob sizes are errors")
  func uuidFromText() throws {
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(try read(UUID.self, sqlExpression: "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'") == uuid)
    #expect(try read(UUID.self, sqlExpression: "'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
    #expect(throws: RowDecodingError.self) { try read(UUID.self, sqlExpression: "'not-a-uuid'") }
    #expect(throws: RowDecodingError.self) { try read(UUID.self, sqlExpression: "x'0102'") }
    #expect(throws: RowDecodingError.self) { try read(UUID.self, sqlExpression: "42") }
  }

  @Test("URL is stored as its absolute string and reads back")
  func url() throws {
    let url = URL(string: "https://example.com/a%20b/c?q=1&r=%C3%A9#frag")!
    let result = try storeAndRead(url)
    #expect(result.storageClass == "text")
    #expect(result.fetched == url)
    #expect(result.decoded == url)
    let stored = try DatabaseQueue().read { db in try String.fetchOne(db, sql: "SELECT ?", arguments: [url]) }
    #expect(stored == url.absoluteString)
    let file = URL(fileURLWithPath: "/tmp/some file.txt")
    #expect(try storeAndRead(file).decoded == file)
  }

  // MARK: Optional

  @Test("nil is stored as NULL and NULL reads as nil")
  func optional() throws {
    let none: Int? = nil
    let result = try storeAndRead(none)
    #expect(result.storageClass == "null")
    #expect(result.decoded == nil)
    let some: String? = "x"
    let someResult = try storeAndRead(some)
    #expect(someResult.storageClass == "text")
    #expect(someResult.decoded == "x")
    #expect(try read(Int?.self, sqlExpression: "NULL") == nil)
    #expect(try read(Int?.self, sqlExpression: "3") == 3)
    // A non-optional type refuses NULL.
    let error = #expect(throws: RowDecodingError.self) { try read(Int.self, sqlExpression: "NULL") }
    #expect(error?.description.contains("NULL") == true)
    // An optional still refuses a value of the wrong kind.
    #expect(throws: RowDecodingError.self) { try read(Int?.self, sqlExpression: "'text'") }
  }

  // MARK: RawRepresentable

  @Test("String and Int enums are stored as their raw values and read back")
  func rawRepresentable() throws {
    let color = try storeAndRead(Color.green)
    #expect(color.storageClass == "text")
    #expect(color.fetched == .green)
    #expect(color.decoded == .green)
    let level = try storeAndRead(Level.high)
    #expect(level.storageClass == "integer")
    #expect(level.fetched == .high)
    #expect(level.decoded == .high)
    let raw = try DatabaseQueue().read { db in
      try #require(
        try Row.fetchAll(db, sql: "SELECT ? AS c, ? AS l", arguments: [Color.red, Level.low]).first)
    }
    #expect(raw["c"] as? String == "red")
    #expect(raw["l"] as? Int64 == 1)
  }

  @Test("An unknown raw value is an error that names the type")
  func unknownRawValue() throws {
    let error = #expect(throws: RowDecodingError.self) { try read(Color.self, sqlExpression: "'purple'") }
    #expect(error?.description.contains("Color") == true)
    #expect(error?.description.contains("purple") == true)
    #expect(throws: RowDecodingError.self) { try read(Level.self, sqlExpression: "5") }
    #expect(try fetchAllError(Level.self, sqlExpression: "2") != nil)
    let colors = try DatabaseQueue().read { db in
      try Color?.fetchAll(db, sql: "SELECT 'red' UNION ALL SELECT NULL")
    }
    #expect(colors == [.red, nil])
  }

  // MARK: DatabaseValue

  @Test("DatabaseValue reports the storage class SQLite returned")
  func databaseValueStorage() throws {
    let row = try DatabaseQueue().read { db in
      try #require(try Row.fetchAll(db, sql: "SELECT NULL, 1, 1.5, 'a', x'00ff'").first)
    }
    #expect(
      row.databaseValues.map(\.storage) == [
        .null, .int64(1), .double(1.5), .string("a"), .blob(Data([0, 0xFF])),
      ])
    #expect(DatabaseValue.null.isNull)
    #expect(!DatabaseValue(value: 0).isNull)
    #expect(DatabaseValue(value: nil as Int?) == .null)
  }
}
