import CSQLCipher
import Foundation

/// A raw SQLite prepared statement handle (`sqlite3_stmt *`).
public typealias SQLiteStatement = OpaquePointer

/// A raw SQLite connection handle (`sqlite3 *`).
public typealias SQLiteConnection = OpaquePointer

/// A type that converts to and from ``DatabaseValue``, so that it can be bound
/// to statement arguments and read from rows.
///
/// Conforming a `RawRepresentable` type whose raw value is convertible takes no
/// code: `enum Color: String, DatabaseValueConvertible { … }`.
public protocol DatabaseValueConvertible: SQLExpressible {
  /// The value stored in the database.
  var databaseValue: DatabaseValue { get }

  /// Returns a value initialized from a database value, or nil if the database
  /// value can not be converted (wrong storage class, out of range, malformed).
  static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?
}

/// A type that reads itself straight from a statement column, without building
/// an intermediate ``DatabaseValue``: the fast path for fetching.
public protocol StatementColumnConvertible {
  /// Reads the value at `index` of the current row of `sqliteStatement`, which
  /// is known not to be NULL. Returns nil when the column can not be converted.
  init?(sqliteStatement: SQLiteStatement, index: CInt)

  /// Reads the value at `index` of the current row of `sqliteStatement`, which
  /// may be NULL; nil for NULL or a column that can not be converted.
  ///
  /// The default implementation checks for NULL, then calls
  /// ``init(sqliteStatement:index:)``. The standard types, whose initializers
  /// already check the column type, read with a single type check.
  static func _fromLiveColumn(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> Self?
}

extension StatementColumnConvertible {
  @inlinable
  public static func _fromLiveColumn(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> Self? {
    guard sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL else { return nil }
    return Self(sqliteStatement: sqliteStatement, index: index)
  }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { rawValue.databaseValue }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
  }
}

extension Optional: SQLExpressible where Wrapped: DatabaseValueConvertible {}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
    if dbValue.isNull { return .some(nil) }
    return Wrapped.fromDatabaseValue(dbValue).map { .some($0) }
  }
}

/// Values whose database representation can be out of SQLite's range; statement
/// arguments ask this before binding so that an out-of-range value is an error,
/// never a silent wrap.
protocol CheckedDatabaseValueConvertible {
  func checkedDatabaseValue() throws -> DatabaseValue
}

extension Optional: CheckedDatabaseValueConvertible where Wrapped: CheckedDatabaseValueConvertible {
  func checkedDatabaseValue() throws -> DatabaseValue {
    try self?.checkedDatabaseValue() ?? .null
  }
}

// Columns are read through `sqlite3_column_value`: one lookup of the column,
// then the value's type and payload, where `sqlite3_column_type` followed by
// `sqlite3_column_int64` looks the column up twice. The value is "unprotected"
// in SQLite's terms, which makes no difference on Sealite's connections: they
// are opened with SQLITE_OPEN_NOMUTEX (no connection mutex to hold) and used by
// one thread at a time.

/// Reads a column of the current row as a ``DatabaseValue``.
@inline(__always)
func readDatabaseValue(_ statement: SQLiteStatement, _ index: CInt) -> DatabaseValue {
  let column = sqlite3_column_value(statement, index)
  switch sqlite3_value_type(column) {
  case SQLITE_NULL: return .null
  case SQLITE_INTEGER: return DatabaseValue(storage: .int64(sqlite3_value_int64(column)))
  case SQLITE_FLOAT: return DatabaseValue(storage: .double(sqlite3_value_double(column)))
  case SQLITE_TEXT: return DatabaseValue(storage: .string(readText(column)))
  default: return DatabaseValue(storage: .blob(readBlob(column)))
  }
}

/// The text of a column value (from `sqlite3_column_value`).
@inlinable
@inline(__always)
func readText(_ column: OpaquePointer?) -> String {
  guard let text = sqlite3_value_text(column) else { return "" }
  let count = Int(sqlite3_value_bytes(column))
  return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
}

/// The bytes of a column value (from `sqlite3_column_value`).
@inline(__always)
func readBlob(_ column: OpaquePointer?) -> Data {
  guard let bytes = sqlite3_value_blob(column) else { return Data() }
  let count = Int(sqlite3_value_bytes(column))
  return count > 0 ? Data(bytes: bytes, count: count) : Data()
}
