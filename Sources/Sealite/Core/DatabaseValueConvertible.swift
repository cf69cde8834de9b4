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

/// Reads a column of the current row as a ``DatabaseValue``.
@inline(__always)
func readDatabaseValue(_ statement: SQLiteStatement, _ index: CInt) -> DatabaseValue {
  switch sqlite3_column_type(statement, index) {
  case SQLITE_NULL:
    return .null
  case SQLITE_INTEGER:
    return DatabaseValue(storage: .int64(sqlite3_column_int64(statement, index)))
  case SQLITE_FLOAT:
    return DatabaseValue(storage: .double(sqlite3_column_double(statement, index)))
  case SQLITE_TEXT:
    return DatabaseValue(storage: .string(readText(statement, index)))
  default:
    let count = Int(sqlite3_column_bytes(statement, index))
    guard count > 0, let bytes = sqlite3_column_blob(statement, index) else {
      return DatabaseValue(storage: .blob(Data()))
    }
    return DatabaseValue(storage: .blob(Data(bytes: bytes, count: count)))
  }
}

@inline(__always)
func readText(_ statement: SQLiteStatement, _ index: CInt) -> String {
  guard let text = sqlite3_column_text(statement, index) else { return "" }
  let count = Int(sqlite3_column_bytes(statement, index))
  return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
}
