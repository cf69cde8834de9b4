import Foundation

/// A format that prints the rows of each statement as a JSON array of objects,
/// one row per line:
///
///     // [{"id":1,"name":"Arthur","score":500},
///     // {"id":2,"name":"Barbara","score":1000}]
///     try db.dumpSQL("SELECT * FROM player ORDER BY id", format: .json())
///
/// Each value is encoded by ``encoder``: blobs as base64 strings, and
/// infinities as the strings `"inf"` and `"-inf"` with the default one. With
/// `.prettyPrinted` in its output formatting, each value has a line of its own:
///
///     let encoder = JSONDumpFormat.defaultEncoder
///     encoder.outputFormatting = .prettyPrinted
///     // [
///     //   {
///     //     "id":1,
///     //     "name":"Arthur"
///     //   }
///     // ]
///     try db.dumpSQL("SELECT id, name FROM player", format: .json(encoder: encoder))
///
/// A statement that returns columns and no row prints `[]`; one without
/// columns (`CREATE TABLE`) prints nothing.
public struct JSONDumpFormat: Sendable {
  /// The encoder the format starts from: blobs as base64, infinities and NaN
  /// as the strings `"inf"`, `"-inf"` and `"nan"`, slashes left unescaped. Each
  /// read returns a new encoder, free to customize:
  ///
  ///     let encoder = JSONDumpFormat.defaultEncoder
  ///     encoder.outputFormatting.insert(.prettyPrinted)
  public static var defaultEncoder: JSONEncoder {
    // Programs parse this output: these settings are part of the format.
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    encoder.dataEncodingStrategy = .base64
    return encoder
  }

  /// The encoder of each column name and value. With `.prettyPrinted` in its
  /// output formatting, each value has a line of its own.
  ///
  ///     var format = JSONDumpFormat()
  ///     format.encoder.outputFormatting = .prettyPrinted
  public var encoder: JSONEncoder

  // The `[` is written before the first row.
  private var isFirstRow = true

  /// A JSON format.
  ///
  ///     try db.dumpSQL("SELECT * FROM player", format: JSONDumpFormat())
  ///
  /// - Parameter encoder: The encoder of each column name and value.
  public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
    self.encoder = encoder
  }
}

extension JSONDumpFormat: DumpFormat {
  /// Writes the row as a JSON object, after the `[` that opens the array if
  /// this is the first row, or after a comma otherwise.
  ///
  ///     var format = JSONDumpFormat()
  ///     try format.writeRow(db, statement: statement, to: &stream)
  public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
    let isPretty = encoder.outputFormatting.contains(.prettyPrinted)
    if isFirstRow {
      isFirstRow = false
      stream.write(isPretty ? "[\n" : "[")
    } else {
      stream.write(",\n")
    }
    stream.write(isPretty ? "  {" : "{")
    var isFirstColumn = true
    for column in statement.dumpedColumns {
      if !isFirstColumn { stream.write(",") }
      isFirstColumn = false
      if isPretty { stream.write("\n    ") }
      stream.write(try encoded(column.name))
      stream.write(":")
      stream.write(try encoded(statement.dumpedValue(at: column.index)))
    }
    stream.write(isPretty ? "\n  }" : "}")
  }

  /// Closes the array, or prints `[]` if the statement returned columns but
  /// no row.
  ///
  ///     format.finalize(db, statement: statement, to: &stream)
  public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
    if !isFirstRow {
      if encoder.outputFormatting.contains(.prettyPrinted) { stream.write("\n") }
      stream.writeLine("]")
    } else if statement.columnCount > 0 {
      stream.writeLine("[]")
    }
    isFirstRow = true
  }

  private func encoded(_ value: DatabaseValue) throws -> String {
    switch value.storage {
    case .null: return "null"
    case .int64(let value): return try encoded(value)
    case .double(let value): return try encoded(value)
    case .string(let value): return try encoded(value)
    case .blob(let data): return try encoded(data)
    }
  }

  private func encoded(_ value: some Encodable) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

extension DumpFormat where Self == JSONDumpFormat {
  /// A format that prints the rows of each statement as a JSON array of
  /// objects (see ``JSONDumpFormat``).
  ///
  ///     // [{"id":1,"name":"Arthur"},
  ///     // {"id":2,"name":"Barbara"}]
  ///     try db.dumpSQL("SELECT id, name FROM player ORDER BY id", format: .json())
  ///
  /// - Parameter encoder: The encoder of each column name and value.
  public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
    JSONDumpFormat(encoder: encoder)
  }
}
