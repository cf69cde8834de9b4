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
    /// `BLOB`, the type of a column that holds JSONB (SQLite 3.45+).
    public static let jsonb = ColumnType(rawValue: "BLOB")
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
