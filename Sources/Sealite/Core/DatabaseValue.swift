import Foundation

/// A value stored in, or read from, an SQLite database: NULL, an integer, a real,
/// a text or a blob.
///
/// `DatabaseValue` is the common currency between Swift values and SQLite. Types
/// that adopt ``DatabaseValueConvertible`` convert to and from it.
public struct DatabaseValue: Hashable, Sendable {
  /// The SQLite storage class of a value, with its payload.
  public enum Storage: Hashable, Sendable {
    /// The NULL value.
    case null
    /// A 64-bit signed integer.
    case int64(Int64)
    /// A double-precision floating point number.
    case double(Double)
    /// A text.
    case string(String)
    /// A blob of bytes.
    case blob(Data)

    /// The payload: nil, or an `Int64`, `Double`, `String` or `Data`.
    public var value: (any DatabaseValueConvertible)? {
      switch self {
      case .null: nil
      case .int64(let value): value
      case .double(let value): value
      case .string(let value): value
      case .blob(let value): value
      }
    }
  }

  /// The storage class and payload of the value.
  public let storage: Storage

  /// The NULL value.
  public static let null = DatabaseValue(storage: .null)

  /// Creates a value from its storage.
  public init(storage: Storage) {
    self.storage = storage
  }

  /// Returns true if the value is NULL.
  public var isNull: Bool {
    if case .null = storage { return true }
    return false
  }

  /// Creates a value from any convertible value, or NULL for nil.
  public init(value: (any DatabaseValueConvertible)?) {
    self = value?.databaseValue ?? .null
  }

  /// Hashing and equality follow SQLite's comparison of numbers: `1` and `1.0`
  /// are equal, as they are in an SQL `=` comparison.
  public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.null, .null): return true
    case (.int64(let a), .int64(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.int64(let a), .double(let b)): return Double(exactly: a) == b
    case (.double(let a), .int64(let b)): return a == Double(exactly: b)
    case (.string(let a), .string(let b)): return a == b
    case (.blob(let a), .blob(let b)): return a == b
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch storage {
    case .null: hasher.combine(0)
    case .int64(let value): hasher.combine(Double(value))
    case .double(let value): hasher.combine(value)
    case .string(let value): hasher.combine(value)
    case .blob(let value): hasher.combine(value)
    }
  }
}

extension DatabaseValue: CustomStringConvertible {
  /// The value as it would read in SQL: `NULL`, `1`, `1.5`, `"text"`, or
  /// the hex of a blob.
  public var description: String {
    switch storage {
    case .null: return "NULL"
    case .int64(let value): return String(value)
    case .double(let value): return String(value)
    case .string(let value): return String(reflecting: value)
    case .blob(let data): return "Data(\(data.count) bytes)"
    }
  }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(integerLiteral value: Int64) { self.init(storage: .int64(value)) }
  public init(floatLiteral value: Double) { self.init(storage: .double(value)) }
  public init(stringLiteral value: String) { self.init(storage: .string(value)) }
  public init(booleanLiteral value: Bool) { self.init(storage: .int64(value ? 1 : 0)) }
}

extension DatabaseValue: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self }
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

/// A database value is an SQL expression of its own, as in GRDB:
/// `julianDay(DatabaseValue.null)`, `Player.select(dbValue)`.
extension DatabaseValue: SQLSpecificExpressible {}

extension DatabaseValue {
  /// Reads the value at `index` (0-based) of the current row of
  /// `sqliteStatement`, as it is stored: NULL, an integer, a real, a text or a
  /// blob.
  ///
  /// For code that steps a statement with the C API:
  ///
  ///     while sqlite3_step(statement.sqliteStatement) == SQLITE_ROW {
  ///       let value = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: 0)
  ///     }
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = readDatabaseValue(sqliteStatement, index)
  }
}

extension DatabaseValue {
  /// A short name of the storage class, used in error messages.
  var storageClassName: String {
    switch storage {
    case .null: return "NULL"
    case .int64: return "INTEGER"
    case .double: return "REAL"
    case .string: return "TEXT"
    case .blob: return "BLOB"
    }
  }
}
