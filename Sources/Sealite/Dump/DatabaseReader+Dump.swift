// The dump methods of queues and pools: each reads, and calls the connection's
// method. Like GRDB's, they read with `unsafeReentrantRead`, so that they can
// be called from inside another access, while debugging one.

extension DatabaseReader {
  /// Prints the rows of every statement of `sql`, in order (see
  /// ``Database/dumpSQL(_:format:to:)``).
  ///
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id")
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key.
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
    try unsafeReentrantRead { db in try db.dumpSQL(sql, format: format, to: stream) }
  }

  /// Prints the rows of a request and of its `including(all:)` associations
  /// (see ``Database/dumpRequest(_:format:to:)``).
  ///
  ///     // 1|Arthur|500
  ///     // 2|Barbara|1000
  ///     try dbQueue.dumpRequest(Player.order(Column("id")))
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key.
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
    try unsafeReentrantRead { db in try db.dumpRequest(request, format: format, to: stream) }
  }

  /// Prints the rows of tables and views, a blank line between two (see
  /// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``).
  ///
  ///     // player
  ///     // 1|Arthur|500
  ///     //
  ///     // team
  ///     // 1|Red
  ///     try dbQueue.dumpTables(["player", "team"])
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key.
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
    try unsafeReentrantRead { db in
      try db.dumpTables(
        tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
    }
  }

  /// Prints the schema, then the rows of every table (see
  /// ``Database/dumpContent(format:to:)``).
  ///
  ///     try dbQueue.dumpContent()
  ///     // sqlite_master
  ///     // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
  ///     //
  ///     // player
  ///     // 1|Arthur|500
  ///
  /// A dump of an encrypted database prints its values in plaintext: that is
  /// what it is for, and it happens only when it is asked for. It never prints
  /// a key, and it changes nothing: it only reads.
  ///
  /// - Parameters:
  ///   - format: How rows are printed.
  ///   - stream: Where they are printed: standard output if nil.
  public func dumpContent(
    format: some DumpFormat = .debug(),
    to stream: (any TextOutputStream)? = nil
  ) throws {
    try unsafeReentrantRead { db in try db.dumpContent(format: format, to: stream) }
  }

  /// Prints the schema (see ``Database/dumpSchema(to:)``).
  ///
  ///     try dbQueue.dumpSchema()
  ///     // sqlite_master
  ///     // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
  ///
  /// - Parameter stream: Where the schema is printed: standard output if nil.
  public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
    try unsafeReentrantRead { db in try db.dumpSchema(to: stream) }
  }
}
