import Foundation
import Sealite
import Testing

/// Runs `sql` on an encrypted database holding `stored` in `t.v`, and calls
/// `read` with the statement while the cursor stands on its first row, with
/// the index of the column: how code that uses `init(sqliteStatement:index:)`
/// reads a live row.
private func readLiveColumn<T>(
  _ stored: DatabaseValue, _ read: (SQLiteStatement, CInt) -> T
) throws -> T {
  let directory = TemporaryDirectory()
  let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
  return try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (id INTEGER, v)")
    try db.execute(sql: "INSERT INTO t (id, v) VALUES (1, ?)", arguments: [stored])
    let statement = try db.makeStatement(sql: "SELECT id, v FROM t")
    let cursor = try Row.fetchCursor(statement)
    _ = try #require(try cursor.next())
    return read(statement.sqliteStatement, 1)
  }
}

@Suite("init(sqliteStatement:index:) reads a column of a live row")
struct StatementColumnInitTests {
  @Test("integers read SQLite's integer of the column, and nil when it does not fit the type")
  func integers() throws {
    #expect(try readLiveColumn(42) { Int(sqliteStatement: $0, index: $1) } == 42)
    #expect(try readLiveColumn(-8) { Int8(sqliteStatement: $0, index: $1) } == -8)
    #expect(try readLiveColumn(300) { Int8(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(300) { Int16(sqliteStatement: $0, index: $1) } == 300)
    #expect(try readLiveColumn(70_000) { Int16(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(70_000) { Int32(sqliteStatement: $0, index: $1) } == 70_000)
    #expect(try readLiveColumn(-1) { UInt(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(7) { UInt(sqliteStatement: $0, index: $1) } == 7)
    #expect(try readLiveColumn(255) { UInt8(sqliteStatement: $0, index: $1) } == 255)
    #expect(try readLiveColumn(256) { UInt8(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(65_535) { UInt16(sqliteStatement: $0, index: $1) } == 65_535)
    #expect(try readLiveColumn(-1) { UInt32(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(4_000_000_000) { UInt32(sqliteStatement: $0, index: $1) } == 4_000_000_000)
    #expect(try readLiveColumn(-1) { UInt64(sqliteStatement: $0, index: $1) } == nil)
    #expect(
      try readLiveColumn(DatabaseValue(storage: .int64(.max))) { UInt64(sqliteStatement: $0, index: $1) }
        == UInt64(Int64.max))
    // SQLite's conversions: a REAL is truncated, a text reads its leading number.
    #expect(try readLiveColumn(2.9) { Int(sqliteStatement: $0, index: $1) } == 2)
    #expect(try readLiveColumn("12 apples") { Int64(sqliteStatement: $0, index: $1) } == 12)
  }

  @Test("Bool, Double, Float, String and Data read SQLite's conversion of the column")
  func otherStandardTypes() throws {
    #expect(try readLiveColumn(2) { Bool(sqliteStatement: $0, index: $1) } == true)
    #expect(try readLiveColumn(0) { Bool(sqliteStatement: $0, index: $1) } == false)
    #expect(try readLiveColumn(3) { Double(sqliteStatement: $0, index: $1) } == 3.0)
    #expect(try readLiveColumn(0.5) { Float(sqliteStatement: $0, index: $1) } == 0.5)
    #expect(try readLiveColumn(1.5) { String(sqliteStatement: $0, index: $1) } == "1.5")
    #expect(try readLiveColumn("é") { Data(sqliteStatement: $0, index: $1) } == Data("é".utf8))
  }

  @Test("DatabaseValue reads the column as it is stored, NULL included")
  func databaseValue() throws {
    let values: [DatabaseValue] = [.null, 1, 1.5, "text", Data([1, 2]).databaseValue]
    for value in values {
      let read = try readLiveColumn(value) { DatabaseValue(sqliteStatement: $0, index: $1) }
      #expect(read.storage == value.storage)
    }
  }

  @Test("Date reads dates in text and Unix timestamps; UUID reads 16-byte blobs and UUID texts")
  func dateAndUUID() throws {
    let date = Date(timeIntervalSince1970: 1_000_000_000.25)
    #expect(try readLiveColumn(date.databaseValue) { Date(sqliteStatement: $0, index: $1) } == date)
    #expect(
      try readLiveColumn(1_000_000_000) { Date(sqliteStatement: $0, index: $1) }?.timeIntervalSince1970 == 1e9
    )
    #expect(try readLiveColumn("not a date") { Date(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(Data([1]).databaseValue) { Date(sqliteStatement: $0, index: $1) } == nil)

    let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(try readLiveColumn(uuid.databaseValue) { UUID(sqliteStatement: $0, index: $1) } == uuid)
    #expect(
      try readLiveColumn(uuid.uuidString.databaseValue) { UUID(sqliteStatement: $0, index: $1) } == uuid)
    #expect(
      try readLiveColumn(Data([1, 2, 3]).databaseValue) { UUID(sqliteStatement: $0, index: $1) } == nil)
    #expect(try readLiveColumn(42) { UUID(sqliteStatement: $0, index: $1) } == nil)
  }

  @Test("the fetch of values still reads through the fast path, with the same results")
  func fetchesAgree() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.read { db in
      #expect(try Int8.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT 2 ORDER BY 1") == [1, 2])
      #expect(try UInt16.fetchOne(db, sql: "SELECT 65535") == 65_535)
      #expect(try Int8?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 5 ORDER BY 1") == [nil, 5])
      let date = try #require(try Date.fetchOne(db, sql: "SELECT '2020-01-02 03:04:05.678'"))
      #expect(abs(date.timeIntervalSince1970 - 1_577_934_245.678) < 0.000_5)
    }
  }
}
