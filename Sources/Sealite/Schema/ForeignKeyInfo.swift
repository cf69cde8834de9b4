/// A foreign key of a table, as ``Database/foreignKeys(on:in:)`` reports it.
public struct ForeignKeyInfo: Sendable {
  /// The foreign key's id within its table (the id violations report).
  public let id: Int
  /// The table it refers to.
  public let destinationTable: String
  /// Pairs of origin and destination columns, in order. A foreign key that
  /// names no destination columns refers to the destination's primary key,
  /// whose columns are given here.
  public let mapping: [(origin: String, destination: String)]
  /// The action on delete of a referenced row (`NO ACTION` when none is set).
  public let onDelete: String
  /// The action on update of a referenced key (`NO ACTION` when none is set).
  public let onUpdate: String

  /// The columns of the foreign key in the origin table.
  public var originColumns: [String] { mapping.map { $0.origin } }
  /// The referenced columns in the destination table.
  public var destinationColumns: [String] { mapping.map { $0.destination } }
}
