// The dump methods of a connection. Each wraps its stream (standard output by
// default) in a `DumpStream` and hands over to the methods that write to it
// (Database+DumpStatements.swift, Database+DumpSchema.swift), which call one
// another on the same stream.

extension Database {
  /// Prints the rows of every statement of `sql`, in order.
  ///
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     try db.dumpSQL("SELECT * FROM player ORDER BY id")
  ///
  /// Every statement runs, whatever it does: this prints what `sql` returns,
  /// and changes what `sql` changes.
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key, which no table holds.
  ///
  /// - Parameters:
  ///   - sql: The statements, separated by semicolons.
  ///   - format: How rows are printed.
  ///   - stream: Where they are printed: standard output if nil.
  public func dumpSQL(
    _ sql: SQL,
    format: some DumpFormat = .debug(),
    to stream: (any TextOutputStream)? = nil
  ) throws {
    var dumpStream = DumpStream(stream)
    try dumpSQL(sql, format: format, into: &dumpStream)
  }

  /// Prints the rows of a request, then those of each of its `including(all:)`
  /// associations, after a blank line and the association's key.
  ///
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     try db.dumpRequest(Player.order(Column("id")))
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key, which no table holds.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - format: How rows are printed.
  ///   - stream: Where they are printed: standard output if nil.
  public func dumpRequest(
    _ request: some FetchRequest,
    format: some DumpFormat = .debug(),
    to stream: (any TextOutputStream)? = nil
  ) throws {
    var dumpStream = DumpStream(stream)
    try dumpRequest(request, format: format, into: &dumpStream)
  }

  /// Prints the rows of tables and views, a blank line between two.
  ///
  ///     // player
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     //
  ///     // team
  ///     // 1|Red
  ///     try db.dumpTables(["player", "team"])
  ///
  /// Rows of a table are printed in the order of its primary key (the rowid if
  /// it declares none). A view keeps its own order, unless `stableOrder` asks
  /// for an order that does not change from one run to the next (by every
  /// column, in order), for tests that compare the output.
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key, which no table holds.
  ///
  /// - Parameters:
  ///   - tables: The names of the tables and views.
  ///   - format: How rows are printed.
  ///   - tableHeader: Whether each name is printed before the rows.
  ///   - stableOrder: Whether the rows of views are sorted by every column.
  ///   - stream: Where they are printed: standard output if nil.
  public func dumpTables(
    _ tables: [String],
    format: some DumpFormat = .debug(),
    tableHeader: DumpTableHeaderOptions = .automatic,
    stableOrder: Bool = false,
    to stream: (any TextOutputStream)? = nil
  ) throws {
    var dumpStream = DumpStream(stream)
    try dumpTables(
      tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, into: &dumpStream)
  }

  /// Prints the schema, then the rows of every table, in the order of their
  /// names:
  ///
  ///     try db.dumpContent()
  ///     // sqlite_master
  ///     // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
  ///     //
  ///     // player
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///
  /// SQLite's internal tables (`sqlite_`), GRDB's (`grdb_`, such as the table
  /// of migrations), Sealite's (`sealite_`, such as the change journal) and the
  /// shadow tables of virtual tables are left out.
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key, which no table holds, and it changes nothing: it only reads.
  ///
  /// - Parameters:
  ///   - format: How rows are printed.
  ///   - stream: Where they are printed: standard output if nil.
  public func dumpContent(
    format: some DumpFormat = .debug(),
    to stream: (any TextOutputStream)? = nil
  ) throws {
    var dumpStream = DumpStream(stream)
    try dumpContent(format: format, into: &dumpStream)
  }

  /// Prints the schema: the statements that created tables, indexes, views
  /// and triggers, each table followed by its indexes and triggers.
  ///
  ///     try db.dumpSchema()
  ///     // sqlite_master
  ///     // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
  ///
  /// SQLite's internal tables (`sqlite_`), GRDB's (`grdb_`), Sealite's
  /// (`sealite_`) and the shadow tables of virtual tables are
  /// left out. The schema of an encrypted database is printed in plaintext,
  /// without its key or cipher settings, which the schema does not hold.
  ///
  /// - Parameter stream: Where the schema is printed: standard output if nil.
  public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
    var dumpStream = DumpStream(stream)
    try dumpSchema(into: &dumpStream)
  }
}
