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
/// code: `enum Color: String, DatabaseValueConvertible { … }`. Nor does a
/// `Codable` type: it is stored as the single value it encodes to, or else as
/// JSON text (see ``databaseJSONEncoder()``).
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
  /// The value stored in the database.
  var databaseValue: DatabaseValue { get }

  /// Returns a value initialized from a database value, or nil if the database
  /// value can not be converted (wrong storage class, out of range, malformed).
  static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

  /// The value read for a column the row does not have, or nil (the
  /// default) when a missing column is an error.
  ///
  /// `Optional` returns `.some(nil)`, so that `row["missing"] as Int?` is nil
  /// while `row["missing"] as Int` is a programmer error, as in GRDB.
  static func fromMissingColumn() -> Self?

  /// The decoder of the JSON text that a `Decodable` value is stored as, when
  /// it does not decode from a single value.
  ///
  /// The default decoder reads data as base64 and dates as milliseconds
  /// since 1970, and throws on non-conforming floats (NaN, infinities), to
  /// match ``databaseJSONEncoder()``. Customize both together:
  ///
  ///     struct Tags: Codable, DatabaseValueConvertible {
  ///       var names: [String]
  ///       static func databaseJSONDecoder() -> JSONDecoder {
  ///         let decoder = JSONDecoder()
  ///         decoder.keyDecodingStrategy = .convertFromSnakeCase
  ///         return decoder
  ///       }
  ///     }
  static func databaseJSONDecoder() -> JSONDecoder

  /// The encoder of the JSON text that an `Encodable` value is stored as,
  /// when it does not encode as a single value.
  ///
  /// The default encoder writes data as base64 and dates as milliseconds
  /// since 1970, throws on non-conforming floats (NaN, infinities), and sorts
  /// keys, so that equal values are stored as equal texts.
  static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
  /// A missing column is an error: there is no value to read.
  public static func fromMissingColumn() -> Self? { nil }

  /// A decoder of base64 data, dates in milliseconds since 1970, that throws
  /// on non-conforming floats.
  public static func databaseJSONDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dataDecodingStrategy = .base64
    decoder.dateDecodingStrategy = .millisecondsSince1970
    decoder.nonConformingFloatDecodingStrategy = .throw
    return decoder
  }

  /// An encoder of base64 data, dates in milliseconds since 1970, that throws
  /// on non-conforming floats and sorts keys (equal values, equal texts).
  public static func databaseJSONEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dataEncodingStrategy = .base64
    encoder.dateEncodingStrategy = .millisecondsSince1970
    encoder.nonConformingFloatEncodingStrategy = .throw
    encoder.outputFormatting = .sortedKeys
    return encoder
  }
}

/// A type that reads itself straight from a statement column, without building
/// an intermediate ``DatabaseValue``: the fast path for fetching.
///
/// The fast path reads with SQLite's own conversions (`sqlite3_column_int64`,
/// `sqlite3_column_text`, …), so it converts more than
/// ``DatabaseValueConvertible/fromDatabaseValue(_:)`` does: `String` reads
/// the text of an INTEGER column, `Int` the leading number of a text. It is
/// taken by `fetchCursor`, `fetchAll`, `fetchSet` and `fetchOne` of values, and by
/// the subscripts of a row a cursor is reading; a copied row converts its
/// stored values with `fromDatabaseValue(_:)`. These are GRDB's rules.
public protocol StatementColumnConvertible {
  /// Reads the value at `index` of the current row of `sqliteStatement`, which
  /// may be NULL; nil for NULL or a column that can not be converted.
  ///
  /// The default implementation checks for NULL, then calls
  /// ``StatementColumnConvertible/init(sqliteStatement:index:)``; `Optional` reads NULL as `.some(nil)`.
  /// Do not customize it.
  static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?

  /// Reads the value at `index` of the current row of `sqliteStatement`, which
  /// is known not to be NULL. Returns nil when the column can not be converted.
  init?(sqliteStatement: SQLiteStatement, index: CInt)
}

extension StatementColumnConvertible {
  @inlinable
  @inline(__always)
  public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
  {
    guard sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL else { return nil }
    return Self(sqliteStatement: sqliteStatement, index: index)
  }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
  /// The database value of the raw value.
  public var databaseValue: DatabaseValue { rawValue.databaseValue }
  /// The value whose raw value converts from `dbValue`, if any.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
  }
}

extension StatementColumnConvertible where Self: RawRepresentable, RawValue: StatementColumnConvertible {
  /// Reads the raw value on the fast path; nil if it is not a valid raw value.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
    self.init(rawValue: rawValue)
  }
}

extension Optional: SQLExpressible where Wrapped: DatabaseValueConvertible {}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }

  /// The wrapped type converts first (so that `DatabaseValue?` reads NULL as
  /// `.null`); then NULL is `.some(nil)`, and anything else does not convert.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
    if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
    if dbValue.isNull { return .some(nil) }
    return nil
  }

  /// A missing column reads as nil.
  public static func fromMissingColumn() -> Wrapped?? { .some(nil) }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
  /// The wrapped type reads first; then NULL is `.some(nil)`, and anything
  /// else does not convert.
  @inlinable
  @inline(__always)
  public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt)
    -> Wrapped??
  {
    if let value = Wrapped.fromStatement(sqliteStatement, atUncheckedIndex: index) { return .some(value) }
    if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return .some(nil) }
    return nil
  }

  @inlinable
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
    self = .some(value)
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
  readDatabaseValue(sqlite3_column_value(statement, index))
}

/// Reads an SQLite value as a ``DatabaseValue``: a column of the current row,
/// or an argument of a custom function (``DatabaseFunction``).
@inline(__always)
func readDatabaseValue(_ column: OpaquePointer?) -> DatabaseValue {
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
