/// A column that holds JSON text (or JSONB): a ``Column`` that also offers the JSON
/// conveniences of ``SQLJSONExpressible``.
///
///     struct Player: Codable, FetchableRecord, PersistableRecord {
///       var id: Int64
///       var address: Address  // stored as JSON text
///
///       enum Columns {
///         static let address = JSONColumn(CodingKeys.address)
///       }
///     }
///
///     // SELECT DISTINCT "address" ->> 'city' FROM "player"
///     let cities = try Player
///       .select(Player.Columns.address["city"], as: String.self)
///       .distinct()
///       .fetchAll(db)
///
/// In JSON builders (``Database/jsonArray(_:)-(Collection<SQLExpressible>)``,
/// ``Database/jsonObject(_:)``, …) the column counts as JSON, not as a string: its value is
/// embedded as a JSON object, not quoted.
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Sendable {
  /// The column name, unqualified (`"address"`, not `"player.address"`).
  public var name: String

  /// A JSON column given its name.
  public init(_ name: String) {
    self.name = name
  }

  /// A JSON column named after a coding key.
  public init(_ codingKey: some CodingKey) {
    self.name = codingKey.stringValue
  }
}
