/// A format that prints one line per value, `column = value`, the column names
/// aligned to the right, and a blank line between rows, as the `sqlite3`
/// shell's line mode does. Blobs print as UTF-8 text.
///
///     //    id = 1
///     //  name = Arthur
///     // score = 500
///     //
///     //    id = 2
///     //  name = Barbara
///     // score = 1000
///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .line())
public struct LineDumpFormat: Sendable {
  /// What is printed for NULL.
  ///
  ///     var format = LineDumpFormat()
  ///     format.nullValue = "NULL"
  public var nullValue: String

  // Rows after the first are preceded by a blank line.
  private var isFirstRow = true

  /// A line format.
  ///
  ///     try db.dumpSQL("SELECT * FROM player", format: LineDumpFormat(nullValue: "NULL"))
  ///
  /// - Parameter nullValue: What is printed for NULL.
  public init(nullValue: String = "") {
    self.nullValue = nullValue
  }
}

extension LineDumpFormat: DumpFormat {
  /// Writes one line per value of the row, after a blank line unless it is
  /// the first row.
  ///
  ///     var format = LineDumpFormat()
  ///     try format.writeRow(db, statement: statement, to: &stream)
  public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    let columns = statement.dumpedColumns
    // A row without a column to show prints nothing, not even its blank line.
    guard !columns.isEmpty else { return }
    if isFirstRow {
      isFirstRow = false
    } else {
      stream.write("\n")
    }
    let width = columns.map(\.name.count).max()!
    for column in columns {
      let padding = String(repeating: " ", count: width - column.name.count)
      let value = statement.dumpedValue(at: column.index).dumpedText(nullValue: nullValue)
      stream.writeLine(padding + column.name + " = " + value)
    }
  }

  /// Asks for the blank line that separates these rows from those of the next
  /// statement, if there were rows and more text follows.
  ///
  ///     format.finalize(db, statement: statement, to: &stream)
  public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    if !isFirstRow { stream.margin() }
    isFirstRow = true
  }
}

extension DumpFormat where Self == LineDumpFormat {
  /// A format that prints one line per value, `column = value`, and a blank
  /// line between rows (see ``LineDumpFormat``).
  ///
  ///     //    id = 1
  ///     //  name = Arthur
  ///     try db.dumpSQL("SELECT id, name FROM player", format: .line())
  ///
  /// - Parameter nullValue: What is printed for NULL.
  public static func line(nullValue: String = "") -> Self {
    LineDumpFormat(nullValue: nullValue)
  }
}
