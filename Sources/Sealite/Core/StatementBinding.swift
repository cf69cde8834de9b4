import CSQLCipher

/// A type that binds itself to a parameter of a prepared statement, with one
/// of SQLite's `sqlite3_bind_*` functions.
///
/// Every ``DatabaseValueConvertible`` type is one: by default it binds its
/// ``DatabaseValueConvertible/databaseValue``, and the standard types bind
/// their value directly. Statements bind their ``StatementArguments`` this
/// way, one ``DatabaseValue`` after the other, and an array of arguments
/// (`statement.execute(arguments: [a, b])`) with each value's own
/// `bind(to:at:)`: a type that implements it binds what its
/// ``DatabaseValueConvertible/databaseValue`` holds.
///
/// Code that calls the C API on ``Statement/sqliteStatement`` can bind a value
/// itself:
///
///     let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
///     let code = "Arthur".bind(to: statement.sqliteStatement, at: 1)
///     // code == SQLITE_OK
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/bind_blob.html>
public protocol StatementBinding {
  /// Binds the value to the parameter at `index` (1-based) of
  /// `sqliteStatement`, and returns the result code of the `sqlite3_bind_*`
  /// function: `SQLITE_OK` when the value is bound.
  func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}

extension DatabaseValueConvertible {
  /// Binds ``databaseValue``.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    databaseValue.bind(to: sqliteStatement, at: index)
  }
}

extension StatementBinding where Self: RawRepresentable, RawValue: StatementBinding {
  /// Binds the raw value.
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    rawValue.bind(to: sqliteStatement, at: index)
  }
}

extension Optional: StatementBinding where Wrapped: StatementBinding {
  /// Binds the wrapped value, or NULL for nil.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    switch self {
    case .none: sqlite3_bind_null(sqliteStatement, index)
    case .some(let value): value.bind(to: sqliteStatement, at: index)
    }
  }
}

extension DatabaseValue: StatementBinding {
  /// Binds the value with the `sqlite3_bind_*` function of its storage class.
  ///
  /// This is how every statement binds its arguments: each storage class is
  /// bound by the standard type that holds it (`Int64`, `Double`, `String`,
  /// `Data`), so that a value binds the same whether it was converted first
  /// or not.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    switch storage {
    case .null: sqlite3_bind_null(sqliteStatement, index)
    case .int64(let value): value.bind(to: sqliteStatement, at: index)
    case .double(let value): value.bind(to: sqliteStatement, at: index)
    case .string(let value): value.bind(to: sqliteStatement, at: index)
    case .blob(let value): value.bind(to: sqliteStatement, at: index)
    }
  }
}
