/// A column of a table, as ``Database/columns(in:in:)`` reports it
/// (`PRAGMA table_info`).
public struct ColumnInfo: Sendable, Hashable {
  /// The column name.
  public let name: String
  /// The declared type, as written (empty when the column has none). Compare
  /// it without case.
  public let type: String
  /// The declared type, or nil when the column has none.
  public var columnType: Database.ColumnType? { type.isEmpty ? nil : Database.ColumnType(rawValue: type) }
  /// True if the column has a `NOT NULL` constraint.
  public let isNotNull: Bool
  /// The SQL of the default value (`'Anonymous'`, `0`, `CURRENT_TIMESTAMP`),
  /// or nil when the column has none.
  public let defaultValueSQL: String?
  /// The one-based position of the column in the primary key, 0 if it is not
  /// part of it.
  public let primaryKeyIndex: Int
  /// The zero-based position of the column in the table.
  public let position: Int

  /// Reads a row of `PRAGMA table_info` (or `table_xinfo`): its `cid`,
  /// `name`, `type`, `notnull`, `dflt_value` and `pk` columns.
  ///
  ///     let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")
  public init(row: Row) {
    name = row["name"]
    type = row["type"]
    isNotNull = row["notnull"]
    defaultValueSQL = row["dflt_value"]
    primaryKeyIndex = row["pk"]
    position = row["cid"]
  }
}
