/// Options for ``Database/create(table:options:body:)``.
///
///     try db.create(table: "player", options: [.ifNotExists, .strict]) { t in … }
public struct TableOptions: OptionSet, Sendable {
  /// The bits of the options.
  public let rawValue: Int

  /// Creates options from their raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Does nothing if the table already exists (`IF NOT EXISTS`); its indexes
  /// are then created with `IF NOT EXISTS` too.
  public static let ifNotExists = TableOptions(rawValue: 1 << 0)
  /// A temporary table, dropped when the connection closes (`TEMPORARY`).
  public static let temporary = TableOptions(rawValue: 1 << 1)
  /// A table without a rowid (`WITHOUT ROWID`): it needs a primary key.
  public static let withoutRowID = TableOptions(rawValue: 1 << 2)
  /// A strict table, whose columns refuse values of the wrong type (`STRICT`).
  /// Needs SQLite 3.37.0: on an older SQLite, creating the table throws
  /// ``SQLiteFeatureError``.
  public static let strict = TableOptions(rawValue: 1 << 3)
}

/// Options for ``Database/create(index:on:columns:options:condition:)``.
public struct IndexOptions: OptionSet, Sendable {
  /// The bits of the options.
  public let rawValue: Int

  /// Creates options from their raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Does nothing if the index already exists (`IF NOT EXISTS`).
  public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
  /// A unique index (`UNIQUE`).
  public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// Options for ``Database/create(view:options:columns:as:)-(_,_,_,SQLSubqueryable)``
/// and ``Database/create(view:options:columns:asLiteral:)``.
public struct ViewOptions: OptionSet, Sendable {
  /// The bits of the options.
  public let rawValue: Int

  /// Creates options from their raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Does nothing if the view already exists (`IF NOT EXISTS`).
  public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
  /// A temporary view, dropped when the connection closes (`TEMPORARY`).
  public static let temporary = ViewOptions(rawValue: 1 << 1)
}

extension Database {
  /// What happens to referencing rows when a referenced row is deleted or its
  /// key updated (`ON DELETE …`, `ON UPDATE …`).
  public enum ForeignKeyAction: String, Sendable {
    /// Deletes or updates the referencing rows too.
    case cascade = "CASCADE"
    /// Refuses the change while rows refer to it.
    case restrict = "RESTRICT"
    /// Sets the referencing columns to NULL.
    case setNull = "SET NULL"
    /// Sets the referencing columns to their default value.
    case setDefault = "SET DEFAULT"
  }
}

/// Whether a generated column is computed when read (`VIRTUAL`) or stored
/// (`STORED`).
public enum GeneratedColumnQualification: Sendable {
  /// Computed when read.
  case virtual
  /// Computed when written, and stored.
  case stored
}

extension ColumnDefinition {
  /// Whether a generated column is stored or computed when read, where GRDB
  /// spells it.
  public typealias GeneratedColumnQualification = Sealite.GeneratedColumnQualification
}
