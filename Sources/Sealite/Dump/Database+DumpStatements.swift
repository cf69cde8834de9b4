// The rows of statements, requests and tables, written to a dump stream.

extension Database {
  /// Writes the rows of each statement of `sql`. A failing statement throws
  /// after the rows of those before it were written.
  func dumpSQL(_ sql: SQL, format: some DumpFormat, into stream: inout DumpStream) throws {
    let statements = try allStatements(literal: sql)
    while let statement = try statements.next() {
      try dumpStatement(statement, format: format, into: &stream)
    }
  }

  /// Writes the rows of one run of `statement`.
  func dumpStatement(
    _ statement: Statement, restriction: RowIDRestriction? = nil, format: some DumpFormat,
    into stream: inout DumpStream
  ) throws {
    // A copy per statement: what the format remembers (a header printed, an
    // array opened) is about this statement's rows only.
    var format = format
    let stepper = try StatementStepper(statement: statement, arguments: nil, restriction: restriction)
    while try stepper.step() {
      try format.writeRow(self, statement: statement, to: &stream)
    }
    format.finalize(self, statement: statement, to: &stream)
  }

  /// Writes the rows of `request`, then, for each query of its `including(all:)`
  /// associations, a blank line, the association's key path and the rows.
  func dumpRequest(_ request: some FetchRequest, format: some DumpFormat, into stream: inout DumpStream)
    throws
  {
    let prepared = try request.makePreparedRequest(self, forSingleResult: false)
    try dumpStatement(prepared.statement, restriction: prepared.restriction, format: format, into: &stream)
    guard let supplementaryFetch = prepared.supplementaryFetch else { return }
    // The associations are fetched for the rows the request fetches, so that
    // their queries are those a fetch would run, and the dump runs each one
    // again to print it.
    let rows = try Row.collectAll(prepared.rowCursor())
    try withoutActuallyEscaping(
      { (request: QueryInterfaceRequest<Row>, keyPath: [String]) in
        stream.write("\n")
        stream.writeLine(keyPath.joined(separator: "."))
        try self.dumpRequest(request, format: format, into: &stream)
      },
      do: { willExecute in
        try supplementaryFetch(self, rows, SupplementaryRequestWatch(willExecute: willExecute))
      })
  }

  /// Writes the rows of tables and views, a blank line between two.
  func dumpTables(
    _ tables: [String], format: some DumpFormat, tableHeader: DumpTableHeaderOptions, stableOrder: Bool,
    into stream: inout DumpStream
  ) throws {
    let printsNames = tableHeader == .always || tables.count > 1
    for (offset, table) in tables.enumerated() {
      if offset > 0 { stream.write("\n") }
      if printsNames { stream.writeLine(table) }
      try dumpStatement(tableDumpStatement(table, stableOrder: stableOrder), format: format, into: &stream)
    }
  }

  /// The query of every row of a table or view, in the order it is dumped.
  private func tableDumpStatement(_ name: String, stableOrder: Bool) throws -> Statement {
    let select = "SELECT * FROM \(name.quotedDatabaseIdentifier)"
    if try tableExists(name) {
      // The primary key (the rowid when none is declared) gives the same
      // order on every run, and the order people expect.
      let key = try primaryKey(name).columns.map(\.quotedDatabaseIdentifier)
      return try makeStatement(sql: select + " ORDER BY " + key.joined(separator: ", "))
    }
    let statement = try makeStatement(sql: select)
    guard stableOrder, statement.columnCount > 0 else { return statement }
    // A view has no primary key: sorted by every column, rows that tie are
    // equal, and print the same whichever comes first.
    let positions = (1...statement.columnCount).map(String.init)
    return try makeStatement(sql: select + " ORDER BY " + positions.joined(separator: ", "))
  }
}
