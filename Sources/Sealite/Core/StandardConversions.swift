import CSQLCipher
import Foundation

/// The standard types read a column with one lookup (`sqlite3_column_value`),
/// where the default ``StatementColumnConvertible/fromStatement(_:atUncheckedIndex:)``
/// asks for the column's type, then for its value: the same conversion, with
/// one call less per value read.
///
/// Each type declares its `init(sqliteStatement:index:)` itself, so that it is
/// part of the type's public API (GRDB declares it on every standard type).
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
}

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
  /// Reads SQLite's integer of the column: any value but 0 is true.
  @inlinable
  @inline(__always)
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = sqlite3_column_int64(sqliteStatement, index) != 0
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Bool? {
    sqlite3_value_int64(column) != 0
  }
  /// Binds 1 for true, 0 for false.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
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
  /// Reads SQLite's real number of the column.
  @inlinable
  @inline(__always)
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = sqlite3_column_double(sqliteStatement, index)
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Double? {
    sqlite3_value_double(column)
  }
  /// Binds a REAL (SQLite stores NaN as NULL).
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    sqlite3_bind_double(sqliteStatement, index, self)
  }
}

extension Float: DatabaseValueConvertible, SingleLookupColumnConvertible {
  public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
    Double.fromDatabaseValue(dbValue).map { Float($0) }
  }
  /// Reads SQLite's real number of the column, rounded to a `Float`.
  @inlinable
  @inline(__always)
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = Float(sqlite3_column_double(sqliteStatement, index))
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Float? {
    Float(sqlite3_value_double(column))
  }
  /// Binds a REAL.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    sqlite3_bind_double(sqliteStatement, index, Double(self))
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
  /// Reads SQLite's text of the column: `1` as "1", `1.5` as "1.5".
  @inlinable
  @inline(__always)
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = readText(sqlite3_column_value(sqliteStatement, index))
  }
  /// Any value reads as SQLite's text of it: `1` as "1", `1.5` as "1.5".
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> String? {
    readText(column)
  }
  /// Binds a TEXT (SQLite copies the bytes).
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    // Native strings hand their UTF-8 bytes over without a copy; bridged ones
    // go through a C string.
    utf8.withContiguousStorageIfAvailable { buffer in
      sqlite3_bind_text(
        sqliteStatement, index, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
        CInt(buffer.count), sqliteTransient)
    } ?? bindCString(to: sqliteStatement, at: index)
  }
  /// Binds a string whose bytes are not contiguous, through a C string. Not
  /// inlined where texts are bound: native strings, the ones bound in loops,
  /// never come here.
  @inline(never)
  private func bindCString(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    sqlite3_bind_text(sqliteStatement, index, self, -1, sqliteTransient)
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
  /// Copies SQLite's bytes of the column: a number reads as the bytes of its text.
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = readBlob(sqlite3_column_value(sqliteStatement, index))
  }
  /// Any value reads as SQLite's bytes of it: a number as the bytes of its text.
  @usableFromInline
  static func _fromColumnValue(_ column: OpaquePointer) -> Data? {
    readBlob(column)
  }
  /// Binds a BLOB (SQLite copies the bytes); an empty `Data` is an empty
  /// blob, never NULL.
  ///
  /// Not inlined: reaching the bytes of a `Data` is long code, which would
  /// sit in every loop that binds values, blobs or not.
  @inline(never)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    // An empty Data may have no address, which sqlite3_bind_blob binds as
    // NULL: the empty blob is bound from a byte of the stack, so that traces
    // show it as `x''`, as GRDB's do (a zeroblob shows as `zeroblob(0)`).
    if isEmpty {
      var byte: UInt8 = 0
      return withUnsafePointer(to: &byte) {
        sqlite3_bind_blob(sqliteStatement, index, $0, 0, sqliteTransient)
      }
    }
    return withUnsafeBytes { buffer in
      sqlite3_bind_blob(sqliteStatement, index, buffer.baseAddress, CInt(buffer.count), sqliteTransient)
    }
  }
}
