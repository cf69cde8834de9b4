import CSQLCipher
import Foundation

/// The standard types read a column with one lookup (`sqlite3_column_value`),
/// where the default ``StatementColumnConvertible/fromStatement(_:atUncheckedIndex:)``
/// asks for the column's type, then for its value: the same conversion, with
/// one call less per value read.
@usableFromInline
protocol SingleLookupColumnConvertible: StatementColumnConvertible {
  /// Converts a column value known not to be NULL, with SQLite's conversions.
  static func _fromColumnValue(_ column: OpaquePointer) -> Self?
}

extension SingleLookupColumnConvertible {
  @inlinable
  @inline(__always)
  public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
  {
    guard let column = sqlite3_column_value(sqliteStatement, index),
      sqlite3_value_type(column) != SQLITE_NULL
    else { return nil }
    return _fromColumnValue(column)
  }

  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let column = sqlite3_column_value(sqliteStatement, index), let value = Self._fromColumnValue(column)
    else { return nil }
    self = value
  }
}

// Integers: stored as SQLite INTEGER. The fast path takes SQLite's integer
// conversion (a REAL is truncated, a text reads its leading number, a blob is
// 0); a database value converts from INTEGER, and from a REAL in Int64's range
// (truncated). Either fails when the value does not fit the requested width.

extension Int64: DatabaseValueConvertible, SingleLookupColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
    switch dbValue.storage {
    case .int64(let value): return value
    case .double(let value):
      // NaN fails both comparisons.
      guard value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else { return nil }
      return Int64(value)
    default: return nil
    }
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Int64? {
    sqlite3_value_int64(column)
  }
}

/// Shared implementation for every fixed-width integer other than Int64.
@usableFromInline
protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, SingleLookupColumnConvertible {}

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
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Self? {
    Self(exactly: sqlite3_value_int64(column))
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

extension Bool: DatabaseValueConvertible, SingleLookupColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
  /// Booleans read from INTEGER and REAL only (0 is false): SQLite's own
  /// reading of texts as booleans ('1english' is true) is not followed.
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
    switch dbValue.storage {
    case .int64(let value): return value != 0
    case .double(let value): return value != 0
    default: return nil
    }
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Bool? {
    sqlite3_value_int64(column) != 0
  }
}

extension Double: DatabaseValueConvertible, SingleLookupColumnConvertible {
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
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Double? {
    sqlite3_value_double(column)
  }
}

extension Float: DatabaseValueConvertible, SingleLookupColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
    Double.fromDatabaseValue(dbValue).map { Float($0) }
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Float? {
    Float(sqlite3_value_double(column))
  }
}

extension String: DatabaseValueConvertible, SingleLookupColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
  /// Texts read as they are, and blobs that are valid UTF-8 as their text, as
  /// SQLite converts them.
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
    switch dbValue.storage {
    case .string(let value): return value
    case .blob(let data): return String(data: data, encoding: .utf8)
    default: return nil
    }
  }
  /// Any value reads as SQLite's text of it: `1` as "1", `1.5` as "1.5".
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> String? {
    readText(column)
  }
}

extension Data: DatabaseValueConvertible, SingleLookupColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }
  /// Blobs read as they are; texts read as their UTF-8 bytes.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
    switch dbValue.storage {
    case .blob(let data): return data
    case .string(let string): return Data(string.utf8)
    default: return nil
    }
  }
  /// Any value reads as SQLite's bytes of it: a number as the bytes of its text.
  @usableFromInline
  static func _fromColumnValue(_ column: OpaquePointer) -> Data? {
    readBlob(column)
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

extension UUID: SingleLookupColumnConvertible {
  /// Reads texts in the canonical UUID format and 16-byte blobs.
  @usableFromInline
  static func _fromColumnValue(_ column: OpaquePointer) -> UUID? {
    switch sqlite3_value_type(column) {
    case SQLITE_TEXT:
      return UUID(uuidString: readText(column))
    case SQLITE_BLOB:
      guard sqlite3_value_bytes(column) == 16, let bytes = sqlite3_value_blob(column) else { return nil }
      var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &value) {
        $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16))
      }
      return UUID(uuid: value)
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
