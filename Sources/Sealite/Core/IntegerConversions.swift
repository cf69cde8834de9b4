import CSQLCipher

// Integers: stored as SQLite INTEGER. The fast path takes SQLite's integer
// conversion (a REAL is truncated, a text reads its leading number, a blob is
// 0); a database value converts from INTEGER, and from a REAL in Int64's range
// (truncated). Either fails when the value does not fit the requested width.
//
// Every integer type declares its members itself, rather than inheriting them
// from the internal `DatabaseInteger`, so that they are part of its public API
// as they are in GRDB.

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
  /// Reads SQLite's integer of the column.
  @inlinable
  @inline(__always)
  public init(sqliteStatement: SQLiteStatement, index: CInt) {
    self = sqlite3_column_int64(sqliteStatement, index)
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Int64? {
    sqlite3_value_int64(column)
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    sqlite3_bind_int64(sqliteStatement, index, self)
  }
}

/// What every fixed-width integer other than Int64 shares: each type's
/// public members call these.
@usableFromInline
protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, SingleLookupColumnConvertible {}

extension DatabaseInteger {
  @inline(__always)
  var integerDatabaseValue: DatabaseValue {
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
  @inline(__always)
  static func fromIntegerDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    Int64.fromDatabaseValue(dbValue).flatMap { Self(exactly: $0) }
  }
  @inlinable
  @inline(__always)
  static func _fromColumnValue(_ column: OpaquePointer) -> Self? {
    Self(exactly: sqlite3_value_int64(column))
  }
  /// Binds an INTEGER; a value beyond Int64's range (a UInt or UInt64) is not
  /// bound and returns `SQLITE_MISMATCH`, never a wrapped integer.
  @inline(__always)
  func bindInteger(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    guard let value = Int64(exactly: self) else { return SQLITE_MISMATCH }
    return sqlite3_bind_int64(sqliteStatement, index, value)
  }
}

extension Int: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `Int`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension Int8: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `Int8`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension Int16: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `Int16`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension Int32: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `Int32`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension UInt: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `UInt`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER; a value above `Int64.max` is not bound: the result
  /// is `SQLITE_MISMATCH`.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension UInt8: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `UInt8`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension UInt16: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `UInt16`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension UInt32: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `UInt32`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}

extension UInt64: DatabaseInteger, CheckedDatabaseValueConvertible {
  public var databaseValue: DatabaseValue { integerDatabaseValue }
  @inlinable
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? {
    fromIntegerDatabaseValue(dbValue)
  }
  /// Reads SQLite's integer of the column; nil when it does not fit `UInt64`.
  @inlinable
  @inline(__always)
  public init?(sqliteStatement: SQLiteStatement, index: CInt) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
  /// Binds an INTEGER; a value above `Int64.max` is not bound: the result
  /// is `SQLITE_MISMATCH`.
  @inline(__always)
  public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
    bindInteger(to: sqliteStatement, at: index)
  }
}
