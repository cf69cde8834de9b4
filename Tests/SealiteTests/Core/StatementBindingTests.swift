import Foundation
import Sealite
import Testing

/// An encrypted database file with a table `t (v)`, the directory that holds it kept alive.
private func makeEncryptedQueue(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
  try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (v)") }
  return dbQueue
}

/// Binds `value` with `bind(to:at:)` to an INSERT, runs it, and reads back the
/// storage class and the stored value: the result code of the bind too.
private func insertBound(_ value: some StatementBinding, in dbQueue: DatabaseQueue) throws -> (
  code: ResultCode, storageClass: String?, stored: DatabaseValue
) {
  try dbQueue.write { db in
    try db.execute(sql: "DELETE FROM t")
    let statement = try db.makeStatement(sql: "INSERT INTO t (v) VALUES (?)")
    // Arguments given once, as GRDB requires before a run without arguments,
    // then bound over through the C API: the statement runs with what was bound.
    try statement.setArguments([nil])
    let code = ResultCode(rawValue: value.bind(to: statement.sqliteStatement, at: 1))
    try statement.execute()
    let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(v) AS type, v FROM t"))
    return (code, row["type"], row["v"])
  }
}

enum UnsignedByte: UInt8, DatabaseValueConvertible {
  case low = 1
  case high = 200
}

/// A convertible type with no binding of its own: it binds its database value.
struct Celsius: DatabaseValueConvertible {
  var degrees: Double
  var databaseValue: DatabaseValue { "\(degrees)°C".databaseValue }
  static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Celsius? { nil }
}

@Suite("StatementBinding: values bind themselves to a prepared statement")
struct StatementBindingTests {
  @Test(
    "every standard type binds with the storage class its database value has, and reads back",
    arguments: [
      (true as any StatementBinding & Sendable, "integer", 1 as DatabaseValue),
      (false, "integer", 0),
      (Int(-7), "integer", -7),
      (Int8(-8), "integer", -8),
      (Int16(300), "integer", 300),
      (Int32(70_000), "integer", 70_000),
      (Int64.min, "integer", DatabaseValue(storage: .int64(.min))),
      (UInt(7), "integer", 7),
      (UInt8(255), "integer", 255),
      (UInt16(65_535), "integer", 65_535),
      (UInt32.max, "integer", DatabaseValue(storage: .int64(Int64(UInt32.max)))),
      (UInt64(Int64.max), "integer", DatabaseValue(storage: .int64(.max))),
      (1.5, "real", 1.5),
      (Float(0.25), "real", 0.25),
      ("Élodie", "text", "Élodie"),
      (Data([0, 1, 2]), "blob", Data([0, 1, 2]).databaseValue),
      (DatabaseValue.null, "null", .null),
      ("x" as DatabaseValue, "text", "x"),
      (Int?.none, "null", .null),
      (Int?.some(3), "integer", 3),
      (UnsignedByte.high, "integer", 200),
    ] as [(any StatementBinding & Sendable, String, DatabaseValue)])
  func standardTypes(_ value: any StatementBinding & Sendable, storageClass: String, stored: DatabaseValue)
    throws
  {
    let directory = TemporaryDirectory()
    let dbQueue = try makeEncryptedQueue(directory)
    let result = try insertBound(value, in: dbQueue)
    #expect(result.code == .SQLITE_OK)
    #expect(result.storageClass == storageClass)
    #expect(result.stored == stored)
    #expect(result.stored.storage == stored.storage)
  }

  @Test("an empty Data binds an empty blob, not NULL")
  func emptyData() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeEncryptedQueue(directory)
    let result = try insertBound(Data(), in: dbQueue)
    #expect(result.storageClass == "blob")
    #expect(result.stored == Data().databaseValue)
  }

  @Test("an empty Data is traced as x'', as GRDB traces it")
  func emptyDataTrace() throws {
    var configuration = Configuration()
    configuration.publicStatementArguments = true
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.inDatabase { db in
      let traced = Locked<[String]>([])
      db.trace { event in
        if case .statement(let statement) = event { traced.withLock { $0.append(statement.expandedSQL) } }
      }
      _ = try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()])
      _ = try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data([0x66, 0x6f])])
      #expect(traced.withLock { $0 } == ["SELECT x''", "SELECT x'666f'"])
      #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()]) == Data())
      #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Data()]) == "blob")
    }
  }

  @Test("a string with a NUL character binds all its bytes")
  func stringWithNul() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeEncryptedQueue(directory)
    let result = try insertBound("a\u{0}b", in: dbQueue)
    #expect(result.stored == "a\u{0}b")
  }

  @Test("a UInt64 above Int64.max is not bound, and says so with SQLITE_MISMATCH")
  func unsignedOutOfRange() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeEncryptedQueue(directory)
    let result = try insertBound(UInt64.max, in: dbQueue)
    #expect(result.code == .SQLITE_MISMATCH)
    #expect(result.storageClass == "null")
    let wide = try insertBound(UInt(Int64.max) + 1, in: dbQueue)
    #expect(wide.code == .SQLITE_MISMATCH)
  }

  @Test("a convertible type without a binding of its own binds its database value")
  func defaultBinding() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeEncryptedQueue(directory)
    let result = try insertBound(Celsius(degrees: 21.5), in: dbQueue)
    #expect(result.code == .SQLITE_OK)
    #expect(result.stored == "21.5°C")
  }

  @Test("binding to a parameter that does not exist returns SQLite's SQLITE_RANGE")
  func parameterOutOfRange() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.read { db in
      let statement = try db.makeStatement(sql: "SELECT ?")
      #expect(ResultCode(rawValue: 1.bind(to: statement.sqliteStatement, at: 2)) == .SQLITE_RANGE)
      #expect(ResultCode(rawValue: "x".bind(to: statement.sqliteStatement, at: 0)) == .SQLITE_RANGE)
    }
  }

  @Test("a value bound by hand, once arguments were given, is the argument of a fetch that gives none")
  func boundValueIsFetched() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.read { db in
      let statement = try db.makeStatement(sql: "SELECT ? || '!'")
      try statement.setArguments(["Barbara"])
      #expect(ResultCode(rawValue: "Arthur".bind(to: statement.sqliteStatement, at: 1)) == .SQLITE_OK)
      #expect(try String.fetchOne(statement) == "Arthur!")
    }
  }

  @Test("statement arguments bind each storage class as bind(to:at:) does")
  func argumentsBindTheSame() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeEncryptedQueue(directory)
    let values: [DatabaseValue] = [.null, 1, 1.5, "é", Data([9]).databaseValue, Data().databaseValue]
    for value in values {
      let bound = try insertBound(value, in: dbQueue)
      let viaArguments = try dbQueue.write { db in
        try db.execute(sql: "DELETE FROM t")
        try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value])
        return try #require(try Row.fetchOne(db, sql: "SELECT typeof(v) AS type, v FROM t"))
      }
      #expect(viaArguments["type"] == bound.storageClass)
      #expect((viaArguments["v"] as DatabaseValue).storage == bound.stored.storage)
    }
  }
}
