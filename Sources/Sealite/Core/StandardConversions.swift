import CSQLCipher
import Foundation

// Integers: stored as SQLite INTEGER. Reading a value that does not fit the
// requested width (or a REAL with a fractional part) fails instead of wrapping.

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
    switch dbValue.storage {
    case .int64(let value): return value
    case .double(let value): return Int64(exactly: value)
    default: return nil
    }
  }
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    switch sqlite3_column_type(sqliteStatement, index) {
    case SQLITE_INTEGER: self = sqlite3_column_int64(sqliteStatement, index)
    case SQLITE_FLOAT:
      guard let value = Int64(exactly: sqlite3_column_double(sqliteStatement, index)) else { return nil }
      self = value
    default: return nil
    }
  }
}

/// Shared implementation for every fixed-width integer other than Int64.
protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, StatementColumnConvertible,
  CheckedDatabaseValueConvertible
{}

extension DatabaseInteger {
  public var databaseValue: DatabaseValue {
    if let value = Int64(exactly: self) { return DatabaseValue(storage: .int64(value)) }
    // Only UInt64/UInt above Int64.max land here. Statement arguments reject them
    // (see checkedDatabaseValue); this plain conversion keeps the magnitude.
    return DatabaseValue(storage: .double(Double(self)))
  }
  func checkedDatabaseValue() throws -> DatabaseValue {
    guard let value = Int64(exactly: self) else {
      throw DatabaseError(
        resultCode: .SQLITE_MISUSE,
        message: "\(Self.self) value \(self) is out of the range of SQLite integers (Int64)")
    }
    return DatabaseValue(storage: .int64(value))
  }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    Int64.fromDatabaseValue(dbValue).flatMap { Self(exactly: $0) }
  }
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let wide = Int64(sqliteStatement: sqliteStatement, index: index), let value = Self(exactly: wide)
    else { return nil }
    self = value
  }
}

extension Int: DatabaseInteger {}
extension Int8: DatabaseInteger {}
extension Int16: DatabaseInteger {}
extension Int32: DatabaseInteger {}
extension UInt: DatabaseInteger {}
extension UInt8: DatabaseInteger {}
extension UInt16: DatabaseInteger {}
extension UInt32: DatabaseInteger {}
extension UInt64: DatabaseInteger {}

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
    switch dbValue.storage {
    case .int64(let value): return value != 0
    case .double(let value): return value != 0
    default: return nil
    }
  }
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    switch sqlite3_column_type(sqliteStatement, index) {
    case SQLITE_INTEGER: self = sqlite3_column_int64(sqliteStatement, index) != 0
    case SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index) != 0
    default: return nil
    }
  }
}

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
    switch dbValue.storage {
    case .int64(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    switch sqlite3_column_type(sqliteStatement, index) {
    case SQLITE_INTEGER, SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index)
    default: return nil
    }
  }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
    Double.fromDatabaseValue(dbValue).map { Float($0) }
  }
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let value = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
    self = Float(value)
  }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
    if case .string(let value) = dbValue.storage { return value }
    return nil
  }
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT else { return nil }
    self = readText(sqliteStatement, index)
  }
}

extension Data: DatabaseValueConvertible, StatementColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }
  /// Blobs read as they are; texts read as their UTF-8 bytes.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
    switch dbValue.storage {
    case .blob(let data): return data
    case .string(let string): return Data(string.utf8)
    default: return nil
    }
  }
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    switch sqlite3_column_type(sqliteStatement, index) {
    case SQLITE_BLOB, SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(sqliteStatement, index))
      if count > 0, let bytes = sqlite3_column_blob(sqliteStatement, index) {
        self = Data(bytes: bytes, count: count)
      } else {
        self = Data()
      }
    default: return nil
    }
  }
}

extension UUID: DatabaseValueConvertible {
  /// UUIDs are stored as 16-byte blobs, as GRDB stores them.
  public var databaseValue: DatabaseValue {
    withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
  }
  /// Reads 16-byte blobs and texts in the canonical UUID format.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
    switch dbValue.storage {
    case .blob(let data) where data.count == 16:
      var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: data) }
      return UUID(uuid: value)
    case .string(let string):
      return UUID(uuidString: string)
    default:
      return nil
    }
  }
}

extension URL: DatabaseValueConvertible {
  /// URLs are stored as their absolute string.
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
    String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
  }
}
