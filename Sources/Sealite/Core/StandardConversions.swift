import CSQLCipher
import Foundation

/// The standard types: their `init?(sqliteStatement:index:)` checks the column
/// type itself, NULL included, so a live row reads them with a single type check.
@usableFromInline
protocol SelfCheckingColumnConvertible: StatementColumnConvertible {}

extension SelfCheckingColumnConvertible {
  @inlinable
  public static func _fromLiveColumn(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> Self? {
    Self(sqliteStatement: sqliteStatement, index: index)
  }
}

// Integers: stored as SQLite INTEGER. Reading a value that does not fit the
// requested width (or a REAL with a fractional part) fails instead of wrapping.

extension Int64: DatabaseValueConvertible, SelfCheckingColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
    switch dbValue.storage {
    case .int64(let value): return value
    case .double(let value): return Int64(exactly: value)
    default: return nil
    }
  }
  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    let column = sqlite3_column_value(sqliteStatement, index)
    switch sqlite3_value_type(column) {
    case SQLITE_INTEGER: self = sqlite3_value_int64(column)
    case SQLITE_FLOAT:
      guard let value = Int64(exactly: sqlite3_value_double(column)) else { return nil }
      self = value
    default: return nil
    }
  }
}

/// Shared implementation for every fixed-width integer other than Int64.
@usableFromInline
protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, SelfCheckingColumnConvertible {}

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
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    Int64.fromDatabaseValue(dbValue).flatMap { Self(exactly: $0) }
  }
  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let wide = Int64(sqliteStatement: sqliteStatement, index: index), let value = Self(exactly: wide)
    else { return nil }
    self = value
  }
}

extension Int: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension Int8: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension Int16: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension Int32: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension UInt: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension UInt8: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension UInt16: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension UInt32: DatabaseInteger, CheckedDatabaseValueConvertible {}
extension UInt64: DatabaseInteger, CheckedDatabaseValueConvertible {}

extension Bool: DatabaseValueConvertible, SelfCheckingColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
    switch dbValue.storage {
    case .int64(let value): return value != 0
    case .double(let value): return value != 0
    default: return nil
    }
  }
  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    let column = sqlite3_column_value(sqliteStatement, index)
    switch sqlite3_value_type(column) {
    case SQLITE_INTEGER: self = sqlite3_value_int64(column) != 0
    case SQLITE_FLOAT: self = sqlite3_value_double(column) != 0
    default: return nil
    }
  }
}

extension Double: DatabaseValueConvertible, SelfCheckingColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
    switch dbValue.storage {
    case .int64(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }
  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    let column = sqlite3_column_value(sqliteStatement, index)
    switch sqlite3_value_type(column) {
    case SQLITE_INTEGER, SQLITE_FLOAT: self = sqlite3_value_double(column)
    default: return nil
    }
  }
}

extension Float: DatabaseValueConvertible, SelfCheckingColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
    Double.fromDatabaseValue(dbValue).map { Float($0) }
  }
  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let value = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
    self = Float(value)
  }
}

extension String: DatabaseValueConvertible, SelfCheckingColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
    if case .string(let value) = dbValue.storage { return value }
    return nil
  }
  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    let column = sqlite3_column_value(sqliteStatement, index)
    guard sqlite3_value_type(column) == SQLITE_TEXT else { return nil }
    self = readText(column)
  }
}

extension Data: DatabaseValueConvertible, SelfCheckingColumnConvertible {
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
    let column = sqlite3_column_value(sqliteStatement, index)
    switch sqlite3_value_type(column) {
    case SQLITE_BLOB, SQLITE_TEXT: self = readBlob(column)
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
