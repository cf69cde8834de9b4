import CSQLCipher

extension Statement {
  /// Runs the statement up to its first row, lends that row to `body`, and
  /// ends the run: what a cursor does for a `fetchOne`, without allocating
  /// the cursor and its stepper. Nil when the statement has no row.
  ///
  /// `db` is the statement's database: the caller has it in hand, and the
  /// run reads it without loading the statement's weak reference to it
  /// (an atomic retain and release each time). The row reads the statement,
  /// so it is valid only inside `body` (copy it to keep it). The arguments
  /// must be bound already. A caller that runs the statement again and again
  /// gives the row of an earlier run as `reusing` (a `Row(statement:)` of this
  /// statement): it reads the new run, and whatever the caller keeps about
  /// that row object stays valid.
  @inline(__always)
  func withFirstRow<T>(
    in db: Database, restriction: RowIDRestriction? = nil, reusing row: Row? = nil,
    _ body: (Row) throws -> T
  ) throws -> T? {
    assert(
      row.map { $0.statement === self && $0._sqliteStatement != nil } ?? true,
      "a reused row reads this statement")
    return try withFirstStep(in: db, restriction: restriction) { _ in
      try body(row ?? Row(statement: self))
    }
  }

  /// Runs the statement up to its first row, hands its SQLite statement to
  /// `body` to read that row with the C API, and ends the run; nil when the
  /// statement has no row. For a caller that reads a column or two (the
  /// rowid an upsert returns), without the row object of `withFirstRow`.
  ///
  /// A run left in the middle is ended first (``resetIfRunning()``).
  @inline(__always)
  func withFirstStep<T>(
    in db: Database, restriction: RowIDRestriction? = nil,
    _ body: (_ sqliteStatement: SQLiteStatement) throws -> T
  ) throws -> T? {
    // The flag read here, not in the call: a debug build retains `self`
    // around a call (the allocation tests count those).
    if !argumentsWereGiven { try checkArgumentsWereGiven() }
    let context = try db.willExecute(self, restriction: restriction)
    resetIfRunning()
    let database = Unmanaged.passUnretained(db)
    guard try step(in: database, context: context) else { return nil }
    defer { endRunEarly(in: database, context: context) }
    return try body(sqliteStatement)
  }
}

extension Statement {
  /// The layout of this statement's columns but the last: that of the live
  /// rows of ``withFirstRowWithoutLastColumn(in:_:)``. Made at the first call,
  /// then kept by the statement.
  var layoutWithoutLastColumn: RowLayout {
    if let kept = keptLayoutWithoutLastColumn { return kept }
    let layout = RowLayout(names: Array(layout.names.dropLast()), isFetched: true)
    keptLayoutWithoutLastColumn = layout
    return layout
  }

  /// Runs the statement up to its first row, hands `body` that row without
  /// its last column, and the SQLite statement to read that column with the
  /// C API, then ends the run; nil when the statement has no row. For an
  /// upsert whose RETURNING clause ends with the rowid: the record decodes
  /// the columns it selected, read where the statement holds them, and the
  /// rowid is read apart. The row is valid only inside `body`, as
  /// ``withFirstRow(in:restriction:reusing:_:)``'s.
  @inline(__always)
  func withFirstRowWithoutLastColumn<T>(
    in db: Database, _ body: (Row, _ sqliteStatement: SQLiteStatement) throws -> T
  ) throws -> T? {
    let layout = layoutWithoutLastColumn
    return try withFirstStep(in: db) { sqliteStatement in
      try body(Row(statement: self, layoutWithoutLastColumn: layout), sqliteStatement)
    }
  }
}

extension Statement {
  /// This statement, or, while a run of it is under way, a new statement of
  /// the same SQL, so that the run goes on undisturbed: a record decoded
  /// from the row a write returns may write another record of its table
  /// with the same statement (its `init(row:)` runs while the write's
  /// statement is on that row).
  @inline(__always)
  func idleOrNew(in db: Database) throws -> Statement {
    if _fastPath(sqlite3_stmt_busy(sqliteStatement) == 0) { return self }
    return try db.makeStatement(sql: sql)
  }
}
