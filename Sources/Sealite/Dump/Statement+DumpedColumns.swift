import CSQLCipher
import Foundation

// What the built-in formats share: which columns they print, and the values
// they read, straight from the statement that was just stepped.

extension Statement {
  /// The columns a dump prints, by index: all but the library's own. Those
  /// whose name starts with `sealite_` are the keys an `including(all:)` query
  /// adds to group its rows; `grdb_` columns are hidden as GRDB hides them,
  /// so that a GRDB program prints the same text here.
  var dumpedColumns: [(index: CInt, name: String)] {
    var columns: [(index: CInt, name: String)] = []
    for (offset, name) in columnNames.enumerated() where !Self.isLibraryColumn(name) {
      columns.append((CInt(offset), name))
    }
    return columns
  }

  /// The value of a column of the current row.
  func dumpedValue(at index: CInt) -> DatabaseValue {
    readDatabaseValue(sqliteStatement, index)
  }

  private static func isLibraryColumn(_ name: String) -> Bool {
    name.hasPrefix("sealite_") || name.hasPrefix("grdb_")
  }
}

extension DatabaseValue {
  /// The value as the `list` and `line` formats print it: numbers as Swift
  /// prints them, text and blobs as UTF-8 text (invalid bytes become U+FFFD),
  /// NULL as `nullValue`.
  func dumpedText(nullValue: String) -> String {
    switch storage {
    case .null: return nullValue
    case .int64(let value): return value.description
    case .double(let value): return value.description
    case .string(let value): return value
    case .blob(let data): return String(decoding: data, as: UTF8.self)
    }
  }

  /// The value as an SQL literal: `'it''s'`, `X'80'`, `1.0`, `NULL`.
  var dumpedSQLLiteral: String {
    SQLGenerationContext.literal(self)
  }
}

extension DumpStream {
  /// Writes one row of `statement` as its values between `separator`, after
  /// the column names when `header` is set and this is the statement's first
  /// row: the shape of the debug and list formats, which differ only in how
  /// a value is written (`text`).
  mutating func writeSeparatedRow(
    of statement: Statement, isFirstRow: inout Bool, header: Bool, separator: String,
    text: (DatabaseValue) -> String
  ) {
    let columns = statement.dumpedColumns
    if isFirstRow {
      isFirstRow = false
      if header { writeLine(columns.map(\.name).joined(separator: separator)) }
    }
    writeLine(columns.map { text(statement.dumpedValue(at: $0.index)) }.joined(separator: separator))
  }
}
