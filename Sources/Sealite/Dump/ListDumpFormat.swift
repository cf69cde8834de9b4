/// A format that prints one line per row, its values between separators (`|`
/// by default), as the `sqlite3` shell's list mode does. Blobs print as UTF-8
/// text.
///
///     // 1|Arthur|500
///     // 2|Barbara|1000
///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .list())
public struct ListDumpFormat: Sendable {
  /// Whether the column names are printed before the first row.
  ///
  ///     var format = ListDumpFormat()
  ///     format.header = true  // id|name|score
  public var header: Bool

  /// What is printed between two values.
  ///
  ///     var format = ListDumpFormat()
  ///     format.separator = "\t"
  public var separator: String

  /// What is printed for NULL.
  ///
  ///     var format = ListDumpFormat()
  ///     format.nullValue = "NULL"
  public var nullValue: String

  // The header is printed once per statement.
  private var isFirstRow = true

  /// A list format.
  ///
  ///     try db.dumpSQL("SELECT * FROM player", format: ListDumpFormat(separator: "\t"))
  ///
  /// - Parameters:
  ///   - header: Whether the column names are printed before the first row.
  ///   - separator: What is printed between two values.
  ///   - nullValue: What is printed for NULL.
  public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
    self.header = header
    self.separator = separator
    self.nullValue = nullValue
  }
}

extension ListDumpFormat: DumpFormat {
  /// Writes the values of the row on one line, after the header if this is
  /// the first row and ``header`` is set.
  ///
  ///     var format = ListDumpFormat()
  ///     try format.writeRow(db, statement: statement, to: &stream)
  public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    stream.writeSeparatedRow(of: statement, isFirstRow: &isFirstRow, header: header, separator: separator) {
      $0.dumpedText(nullValue: nullValue)
    }
  }

  /// Gets ready for the next statement, which prints its own header.
  ///
  ///     format.finalize(db, statement: statement, to: &stream)
  public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    isFirstRow = true
  }
}

extension DumpFormat where Self == ListDumpFormat {
  /// A format that prints one line per row, its values between separators, as
  /// the `sqlite3` shell's list mode does (see ``ListDumpFormat``).
  ///
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .list())
  ///
  /// - Parameters:
  ///   - header: Whether the column names are printed before the first row.
  ///   - separator: What is printed between two values.
  ///   - nullValue: What is printed for NULL.
  public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
    ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
  }
}
