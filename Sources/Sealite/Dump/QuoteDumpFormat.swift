/// A format that prints one line per row, its values as SQL literals between
/// separators (`,` by default), as the `sqlite3` shell's quote mode does:
/// strings in single quotes, blobs as `X'…'`, NULL as `NULL`.
///
///     // 1,'Arthur',500
///     // 2,'Barbara',1000
///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .quote())
public struct QuoteDumpFormat: Sendable {
  /// Whether the column names, as SQL strings, are printed before the first
  /// row.
  ///
  ///     var format = QuoteDumpFormat()
  ///     format.header = true  // 'id','name','score'
  public var header: Bool

  /// What is printed between two values.
  ///
  ///     var format = QuoteDumpFormat()
  ///     format.separator = ", "
  public var separator: String

  // The header is printed once per statement.
  private var isFirstRow = true

  /// A quote format.
  ///
  ///     try db.dumpSQL("SELECT * FROM player", format: QuoteDumpFormat(header: true))
  ///
  /// - Parameters:
  ///   - header: Whether the column names are printed before the first row.
  ///   - separator: What is printed between two values.
  public init(header: Bool = false, separator: String = ",") {
    self.header = header
    self.separator = separator
  }
}

extension QuoteDumpFormat: DumpFormat {
  /// Writes the values of the row on one line, as SQL literals, after the
  /// header if this is the first row and ``header`` is set.
  ///
  ///     var format = QuoteDumpFormat()
  ///     try format.writeRow(db, statement: statement, to: &stream)
  public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    let columns = statement.dumpedColumns
    if isFirstRow {
      isFirstRow = false
      if header {
        stream.writeLine(
          columns.map { DatabaseValue(storage: .string($0.name)).dumpedSQLLiteral }
            .joined(separator: separator))
      }
    }
    let values = columns.map { statement.dumpedValue(at: $0.index).dumpedSQLLiteral }
    stream.writeLine(values.joined(separator: separator))
  }

  /// Gets ready for the next statement, which prints its own header.
  ///
  ///     format.finalize(db, statement: statement, to: &stream)
  public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    isFirstRow = true
  }
}

extension DumpFormat where Self == QuoteDumpFormat {
  /// A format that prints one line per row, its values as SQL literals (see
  /// ``QuoteDumpFormat``).
  ///
  ///     // 1,'Arthur',500
  ///     // 2,'Barbara',1000
  ///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .quote())
  ///
  /// - Parameters:
  ///   - header: Whether the column names are printed before the first row.
  ///   - separator: What is printed between two values.
  public static func quote(header: Bool = false, separator: String = ",") -> Self {
    QuoteDumpFormat(header: header, separator: separator)
  }
}
