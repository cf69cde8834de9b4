import CSQLCipher

/// The stepping shared by every cursor over a statement: it checks that the
/// database access closure that made the cursor is still running, steps, and
/// resets the statement when done or when released. Rows handed out by a
/// cursor keep it alive, so a row outliving its cursor still reads its values.
final class StatementStepper {
  let statement: Statement
  let sqliteStatement: SQLiteStatement
  let access: DatabaseAccess
  /// The statement's database, read only while `access` is valid: the
  /// database access closure that made the cursor is then running, so the
  /// database is alive. Unmanaged, so that a row kept past that closure does
  /// not keep the connection, and so that a step does not retain it (a
  /// database has a side table, for the statements' weak references to it,
  /// which makes each retain and release take the slow path); and not the
  /// statement's weak reference, whose every load is such a retain.
  private let database: Unmanaged<Database>
  private(set) var isDone = false
  /// The error that ended the run: a cursor that failed throws it again at
  /// each step, as GRDB's cursors throw again, rather than look exhausted.
  private var failure: (any Error)?
  /// The observation layer's value for this run (see `Database.willExecute`).
  private let executionContext: AnyObject?

  init(statement: Statement, arguments: StatementArguments?, restriction: RowIDRestriction? = nil) throws {
    let database = try statement.requireDatabase()
    if let arguments {
      try statement.setArguments(arguments)
    } else {
      try statement.checkArgumentsWereGiven()
    }
    self.access = try database.requireAccess(sql: statement.sql)
    executionContext = try database.willExecute(statement, restriction: restriction)
    self.database = .passUnretained(database)
    self.statement = statement
    self.sqliteStatement = statement.sqliteStatement
    statement.resetIfRunning()
  }

  /// Steps once: true when a row is available.
  @inline(__always)
  func step() throws -> Bool {
    if isDone {
      if let failure { throw failure }
      return false
    }
    guard access.isValid else {
      isDone = true
      let error = DatabaseError.misuse(
        "a cursor was used outside of the database access closure that created it", sql: statement.sql)
      failure = error
      throw error
    }
    do {
      if try statement.step(in: database, context: executionContext) { return true }
      isDone = true
      return false
    } catch {
      isDone = true
      failure = error
      throw error
    }
  }

  deinit {
    if !isDone && access.isValid { statement.endRunEarly(in: database, context: executionContext) }
  }
}

extension Statement {
  /// One step of a run that `willExecute` of `db` began and gave `context`
  /// for: true when a row is available. At the end of the rows, or on an
  /// error, the run ends and the observers are told.
  ///
  /// `db` is the statement's database, which the caller keeps alive. It is
  /// unmanaged, and read only at the end of the run: a step retains nothing.
  @inline(__always)
  func step(in db: Unmanaged<Database>, context: AnyObject?) throws -> Bool {
    switch sqlite3_step(sqliteStatement) {
    case SQLITE_ROW:
      return true
    case SQLITE_DONE:
      sqlite3_reset(sqliteStatement)
      try db._withUnsafeGuaranteedRef { try $0.didExecute(self, context: context) }
      return false
    case let code:
      throw db._withUnsafeGuaranteedRef { stepFailure(code: code, in: $0, context: context) }
    }
  }

  /// Ends a run before the end of its rows. It still counts as run: an
  /// `INSERT … RETURNING` wrote all its rows at the first step.
  func endRunEarly(in db: Unmanaged<Database>, context: AnyObject?) {
    sqlite3_reset(sqliteStatement)
    db._withUnsafeGuaranteedRef { try? $0.didExecute(self, context: context) }
  }
}

/// A cursor over the rows of a statement. The same ``Row`` instance is
/// returned at each step and reads the current row: ``Row/copy()`` keeps one.
public final class RowCursor: DatabaseCursor {
  /// The statement being iterated.
  public let statement: Statement
  private let stepper: StatementStepper
  private let row: Row
  /// Turns joined rows into structured ones (included associations); each
  /// step then gives a new row.
  private let adapter: (@Sendable (Row) -> Row)?

  init(
    statement: Statement, arguments: StatementArguments? = nil, adapter: (@Sendable (Row) -> Row)? = nil,
    restriction: RowIDRestriction? = nil
  ) throws {
    self.statement = statement
    stepper = try StatementStepper(statement: statement, arguments: arguments, restriction: restriction)
    row = Row(statement: statement, keepAlive: stepper)
    self.adapter = adapter
  }

  public func next() throws -> Row? {
    guard try stepper.step() else { return nil }
    if let adapter { return adapter(row) }
    return row
  }

  /// The row object that reads the current row of the statement, at every
  /// step (before any adapter).
  var liveRow: Row { row }

  /// Steps, and hands the next row to `body`; nil when the rows are done. The
  /// row is lent, not returned: a cursor of records reads each row without a
  /// retain and a release of it.
  @inline(__always)
  func withNextRow<T>(_ body: (Row) throws -> T) throws -> T? {
    guard try stepper.step() else { return nil }
    if let adapter { return try body(adapter(row)) }
    return try body(row)
  }
}

/// A cursor over the values of the first column of a statement.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
  /// The statement being iterated.
  public let statement: Statement
  private let stepper: StatementStepper

  /// The column read (0 unless an adapter picked another).
  private let columnIndex: CInt

  init(
    statement: Statement, arguments: StatementArguments? = nil, columnIndex: Int = 0,
    restriction: RowIDRestriction? = nil
  ) throws {
    self.statement = statement
    self.columnIndex = CInt(columnIndex)
    stepper = try StatementStepper(statement: statement, arguments: arguments, restriction: restriction)
  }

  public func next() throws -> Value? {
    guard try stepper.step() else { return nil }
    let dbValue = readDatabaseValue(stepper.sqliteStatement, columnIndex)
    guard let value = Value.fromDatabaseValue(dbValue) else {
      throw Row(statement: statement).mismatch(Value.self, atIndex: Int(columnIndex))
    }
    return value
  }
}

/// A cursor over the values of the first column of a statement, read straight
/// from SQLite without an intermediate ``DatabaseValue``.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>:
  DatabaseCursor
{
  /// The statement being iterated.
  public let statement: Statement
  private let stepper: StatementStepper

  /// The column read (0 unless an adapter picked another).
  private let columnIndex: CInt

  init(
    statement: Statement, arguments: StatementArguments? = nil, columnIndex: Int = 0,
    restriction: RowIDRestriction? = nil
  ) throws {
    self.statement = statement
    self.columnIndex = CInt(columnIndex)
    stepper = try StatementStepper(statement: statement, arguments: arguments, restriction: restriction)
  }

  public func next() throws -> Value? {
    guard try stepper.step() else { return nil }
    // SQLite's own conversions (see StatementColumnConvertible); only NULL,
    // or a value out of the range of the type, fails.
    if let value = Value.fromStatement(stepper.sqliteStatement, atUncheckedIndex: columnIndex) {
      return value
    }
    throw Row(statement: statement).mismatch(Value.self, atIndex: Int(columnIndex))
  }
}
