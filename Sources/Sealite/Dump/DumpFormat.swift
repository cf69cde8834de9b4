/// A type that prints database rows, for the dump methods such as
/// ``Database/dumpContent(format:to:)`` and ``Database/dumpSQL(_:format:to:)``.
///
/// The built-in formats follow the output modes of the `sqlite3` shell:
/// ``debug(header:separator:nullValue:)``, ``json(encoder:)``,
/// ``line(nullValue:)``, ``list(header:separator:nullValue:)`` and
/// ``quote(header:separator:)``:
///
///     // 'Arthur',500
///     // 'Barbara',1000
///     try db.dumpSQL("SELECT name, score FROM player ORDER BY id", format: .quote())
///
/// A format of your own is told of each row of a statement, then that the
/// statement has no more rows. A dump copies the format for each statement,
/// so the state a format keeps (has it printed a header yet?) starts anew:
///
///     struct CountFormat: DumpFormat {
///       var count = 0
///       mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         count += 1
///       }
///       mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///         stream.write("\(count) rows\n")
///       }
///     }
///
/// Columns whose name starts with `grdb_` or `sealite_` are the library's own
/// (the keys of `including(all:)` queries): the built-in formats skip them.
public protocol DumpFormat {
  /// Writes the current row of `statement`, which the dump just stepped: read
  /// its values from `statement.sqliteStatement`.
  ///
  ///     mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
  ///       stream.write("a row of \(statement.columnCount) columns\n")
  ///     }
  ///
  /// - Parameters:
  ///   - db: The connection the statement runs on.
  ///   - statement: The statement that produced the row.
  ///   - stream: Where the row is written.
  mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws

  /// Called once `statement` has no more rows, whether it produced some or
  /// none: a format closes what it opened (the `]` of a JSON array).
  ///
  ///     mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
  ///       stream.write("-- end of \(statement.sql)\n")
  ///     }
  ///
  /// - Parameters:
  ///   - db: The connection the statement ran on.
  ///   - statement: The statement whose rows were written.
  ///   - stream: Where the rows were written.
  mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream)
}
