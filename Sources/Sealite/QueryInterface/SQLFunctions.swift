// SQL functions and aggregates, with GRDB's names.

/// `ABS(value)`.
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("ABS", [value.sqlExpression], distinct: false))
}

/// `LENGTH(value)`.
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("LENGTH", [value.sqlExpression], distinct: false))
}

/// `COUNT(value)`: the number of non-null values.
public func count(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("COUNT", [value.sqlExpression], distinct: false))
}

/// `COUNT(DISTINCT value)`.
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("COUNT", [value.sqlExpression], distinct: true))
}

/// `SUM(value)`: NULL for no rows.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("SUM", [value.sqlExpression], distinct: false))
}

/// `TOTAL(value)`: 0.0 for no rows.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("TOTAL", [value.sqlExpression], distinct: false))
}

/// `AVG(value)`.
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("AVG", [value.sqlExpression], distinct: false))
}

/// `MIN(value)` (the aggregate).
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("MIN", [value.sqlExpression], distinct: false))
}

/// `MAX(value)` (the aggregate).
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("MAX", [value.sqlExpression], distinct: false))
}

extension SQLSpecificExpressible {
  /// `LOWER(self)`.
  public var lowercased: SQLExpression { SQLExpression(.function("LOWER", [sqlExpression], distinct: false)) }
  /// `UPPER(self)`.
  public var uppercased: SQLExpression { SQLExpression(.function("UPPER", [sqlExpression], distinct: false)) }
}

/// `CAST(value AS type)`.
public func cast(_ value: some SQLSpecificExpressible, as type: Database.ColumnType) -> SQLExpression {
  SQLExpression(.cast(value.sqlExpression, type.rawValue))
}

extension Database {
  /// An SQLite column type, for schema definitions and `cast`.
  public struct ColumnType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `TEXT` affinity: strings.
    public static let text = ColumnType(rawValue: "TEXT")
    /// `INTEGER` affinity: integers, and booleans stored as 0 and 1.
    public static let integer = ColumnType(rawValue: "INTEGER")
    /// `DOUBLE` (`REAL` affinity): floating-point numbers.
    public static let double = ColumnType(rawValue: "DOUBLE")
    /// `REAL` affinity: floating-point numbers.
    public static let real = ColumnType(rawValue: "REAL")
    /// `NUMERIC` affinity: numbers stored as integers where they are whole.
    public static let numeric = ColumnType(rawValue: "NUMERIC")
    /// `BOOLEAN` (`NUMERIC` affinity): booleans stored as 0 and 1.
    public static let boolean = ColumnType(rawValue: "BOOLEAN")
    /// `BLOB`: bytes stored as given.
    public static let blob = ColumnType(rawValue: "BLOB")
    /// `DATE` (`NUMERIC` affinity): dates; a `Date` value is stored as UTC text.
    public static let date = ColumnType(rawValue: "DATE")
    /// `DATETIME` (`NUMERIC` affinity): dates and times; a `Date` is stored as `yyyy-MM-dd HH:mm:ss.SSS` UTC text.
    public static let datetime = ColumnType(rawValue: "DATETIME")
    /// `ANY`: any value, kept as given (in STRICT tables, SQLite 3.37+).
    public static let any = ColumnType(rawValue: "ANY")
    /// JSON stored as text.
    public static let jsonText = ColumnType(rawValue: "TEXT")
  }
}
