import Foundation

/// A format that prints one line per row, its values between separators (`|`
/// by default), for people reading it while debugging. It may change in a
/// later release: parse ``ListDumpFormat`` or ``JSONDumpFormat`` instead.
///
/// Blobs print as text when they are valid UTF-8, as a UUID when they are 16
/// other bytes, and as an SQL literal (`X'80'`) otherwise:
///
///     // 1|Arthur|500
///     // 2|Barbara|1000
///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .debug())
public struct DebugDumpFormat: Sendable {
  /// Whether the column names are printed before the first row.
  ///
  ///     var format = DebugDumpFormat()
  ///     format.header = true  // id|name|score
  public var header: Bool

  /// What is printed between two values.
  ///
  ///     var format = DebugDumpFormat()
  ///     format.separator = ", "
  public var separator: String

  /// What is printed for NULL.
  ///
  ///     var format = DebugDumpFormat()
  ///     format.nullValue = "NULL"
  public var nullValue: String

  // The header is printed once per statement.
  private var isFirstRow = true

  /// A debug format.
  ///
  ///     try db.dumpSQL("SELECT * FROM player", format: DebugDumpFormat(header: true))
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

extension DebugDumpFormat: DumpFormat {
  /// Writes the values of the row on one line, after the header if this is
  /// the first row and ``header`` is set.
  ///
  ///     var format = DebugDumpFormat()
  ///     try format.writeRow(db, statement: statement, to: &stream)
  public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    stream.writeSeparatedRow(
      of: statement, isFirstRow: &isFirstRow, header: header, separator: separator, text: text(of:))
  }

  /// Gets ready for the next statement, which prints its own header.
  ///
  ///     format.finalize(db, statement: statement, to: &stream)
  public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    isFirstRow = true
  }

  private func text(of value: DatabaseValue) -> String {
    guard case .blob(let data) = value.storage else { return value.dumpedText(nullValue: nullValue) }
    if let text = String(validating: data, as: UTF8.self) { return text }
    // Sixteen bytes that are not text are most likely a UUID stored as a blob.
    if data.count == 16 {
      return UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString
    }
    return value.dumpedSQLLiteral
  }
}

extension DumpFormat where Self == DebugDumpFormat {
  /// A format that prints one line per row, its values between separators, for
  /// people reading it while debugging (see ``DebugDumpFormat``).
  ///
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .debug())
  ///
  /// - Parameters:
  ///   - header: Whether the column names are printed before the first row.
  ///   - separator: What is printed between two values.
  ///   - nullValue: What is printed for NULL.
  public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
    DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
  }
}
