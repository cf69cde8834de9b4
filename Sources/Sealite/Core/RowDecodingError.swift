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
  /// The index of the column involved, when known.
  let index: Int?

  init(kind: Kind, column: String?, row: String, sql: String?) {
    self.init(kind: kind, column: column, index: nil, row: row, sql: sql)
  }

  init(kind: Kind, column: String?, index: Int?, row: String, sql: String?) {
    self.kind = kind
    self.column = column
    self.index = index
    self.row = row
    self.sql = sql
  }

  /// GRDB's format: what failed, then where ("column", "column index",
  /// "row", "sql"):
  ///
  ///     could not decode Int from database value "foo" - column: "score",
  ///     column index: 1, row: [name:"Arthur" score:"foo"], sql: `SELECT …`
  ///
  /// GRDB also prints the statement arguments; Sealite leaves them out, as
  /// arguments may hold personal or secret data.
  public var description: String {
    var chunks: [String] = []
    let summary: String
    switch kind {
    case .columnNotFound(let name):
      summary = "column not found: \(String(reflecting: name))"
    case .indexOutOfRange(let index):
      summary = "row index out of range: \(index)"
    case .valueMismatch(let type, let value):
      summary = "could not decode \(type) from database value \(value)"
      if let column { chunks.append("column: \(String(reflecting: column))") }
      if let index { chunks.append("column index: \(index)") }
    }
    chunks.append("row: \(row)")
    if let sql { chunks.append("sql: `\(sql)`") }
    return summary + " - " + chunks.joined(separator: ", ")
  }
}
