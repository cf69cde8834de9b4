/// An index of a table, as ``Database/indexes(on:in:)`` reports it.
public struct IndexInfo: Sendable, Hashable {
  /// How an index came to be.
  public struct Origin: RawRepresentable, Hashable, Sendable {
    /// SQLite's code for the origin.
    public let rawValue: String

    /// Creates an origin from SQLite's code (`c`, `u`, `pk`).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A `CREATE INDEX` statement.
    public static let createIndex = Origin(rawValue: "c")
    /// A `UNIQUE` constraint.
    public static let uniqueConstraint = Origin(rawValue: "u")
    /// A `PRIMARY KEY` constraint.
    public static let primaryKeyConstraint = Origin(rawValue: "pk")
  }

  /// The index name.
  public let name: String
  /// The indexed columns, in index order.
  public let columns: [String]
  /// True for a unique index.
  public let isUnique: Bool
  /// How the index came to be.
  public let origin: Origin
  /// True for a partial index (`CREATE INDEX … WHERE …`).
  public let isPartial: Bool
}
