/// An error thrown when a row value can not be read as the requested type, or a
/// requested column does not exist.
public struct RowDecodingError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// No column has the requested name.
    case columnNotFound(String)
    /// The index is outside the row.
    case indexOutOfRange(Int)
    /// The value can not be converted to the requested type.
    case valueMismatch(type: String, value: DatabaseValue)
  }

  /// What went wrong.
  public let kind: Kind
  /// The column involved, when known.
  public let column: String?
  /// A description of the row (column names and values).
  public let row: String
  /// The SQL that produced the row, when known.
  public let sql: String?

  public var description: String {
    var text: String
    switch kind {
    case .columnNotFound(let name):
      text = "no column named \"\(name)\" in row \(row)"
    case .indexOutOfRange(let index):
      text = "column index \(index) is out of range in row \(row)"
    case .valueMismatch(let type, let value):
      let place = column.map { "column \"\($0)\"" } ?? "column"
      text = "could not decode \(type) from \(value.storageClassName) \(value) in \(place) of row \(row)"
    }
    if let sql { text += " - sql: `\(sql)`" }
    return text
  }
}
