import CSQLCipher

extension Statement {
  /// Runs the statement to its end and calls `body` at each row: what a
  /// cursor does for a `fetchAll`, without allocating the cursor, its
  /// stepper and its row cursor (a small request spends more on those than on
  /// stepping its rows). `body` reads the row through the SQLite statement
  /// (a `Row(statement:)` of this statement, which the caller makes once).
  ///
  /// `db` is the statement's database, read without loading the statement's
  /// weak reference to it. The arguments must be bound already. When `body`
  /// throws, the run ends as a cursor dropped early ends it, and the error is
  /// rethrown. While `body` runs, the statement is busy: a fetch of the same
  /// SQL inside `body` prepares a statement of its own.
  @inline(__always)
  func forEachStep(in db: Database, restriction: RowIDRestriction? = nil, _ body: () throws -> Void) throws {
    // The flag read here, not in the call: a debug build retains `self`
    // around a call (the allocation tests count those).
    if !argumentsWereGiven { try checkArgumentsWereGiven() }
    let context = try db.willExecute(self, restriction: restriction)
    resetIfRunning()
    let database = Unmanaged.passUnretained(db)
    while try step(in: database, context: context) {
      do {
        try body()
      } catch {
        endRunEarly(in: database, context: context)
        throw error
      }
    }
  }
}
