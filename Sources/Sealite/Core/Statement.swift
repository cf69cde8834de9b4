import CSQLCipher

/// A prepared statement: one SQL statement compiled by SQLite, reusable with
/// different arguments.
///
///     let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
///     try statement.execute(arguments: ["Arthur"])
///     try statement.execute(arguments: ["Barbara"])
///
/// A statement belongs to the connection that made it and is used only inside
/// that connection's access closures.
public final class Statement {
  /// The SQL of the statement.
  public let sql: String
  /// The underlying SQLite statement, for code that calls the C API directly.
  public let sqliteStatement: SQLiteStatement
  weak var database: Database?
  /// Counts this statement among its connection's, for the close-time check.
  private let liveStatements: CloseCheck.StatementCount?
  /// Names of parameters (without `:`, `$` or `@`), nil for `?` parameters.
  let parameterNames: [String?]
  /// The column names and their lookup table, shared with every row copied from
  /// this statement.
  let layout: RowLayout
  /// The arguments last bound. Setting them binds them, and stops the program
  /// if they do not fit the statement, as GRDB does (``setArguments(_:)``
  /// throws instead; see Statement+Arguments.swift).
  public var arguments: StatementArguments {
    get {
      switch boundArguments {
      case .converted(let arguments): return arguments
      case .positional(let values): return StatementArguments(values)
      case .single(let value): return StatementArguments([value])
      case .picked(let values, let indexes): return StatementArguments(indexes.map { values[$0] })
      case .borrowed(let values, let indexes):
        return StatementArguments(indexes.map { $0.map { values[$0] } } ?? Array(values))
      case .notKept: return StatementArguments()
      }
    }
    set { setArgumentsOrTrap(newValue) }
  }
  /// The arguments last bound, as given: values bound straight from an array
  /// are converted to ``StatementArguments`` only when asked for.
  private var boundArguments = BoundArguments.converted(StatementArguments())
  /// Whether arguments were ever bound: through ``setArguments(_:)`` and the
  /// other ways of giving them, each of which sets it where it records
  /// `boundArguments` (a `didSet`, or a helper that does both, retains `self`
  /// in debug builds, where the allocation tests count references), or, for
  /// Sealite's own statements, through the C API (set by their code). Until
  /// then, running the statement without arguments checks the empty
  /// arguments, as GRDB does (``checkArgumentsWereGiven()``).
  var argumentsWereGiven = false
  /// What the statement reads and writes, changes in the schema, and does to
  /// the transaction, as SQLite's authorizer reported it while compiling: the
  /// one source of every such fact.
  let authorization: StatementAuthorization
  /// See `tablesOpenedForReading`.
  var openedTablesCache: Set<String>?
  /// What a higher layer keeps for the next run of this statement, and the
  /// type it is kept for: the record layer keeps the decoding of its record
  /// cursors (`recordDecoding(of:)`).
  var keptRecordDecoding: AnyObject?
  var keptRecordType: ObjectIdentifier?
  /// The layout of this statement's columns but the last, made once for the
  /// live rows that hide that column (``layoutWithoutLastColumn``), and kept
  /// as long as the statement: a live row does not retain its layout.
  var keptLayoutWithoutLastColumn: RowLayout?
  /// When the connection's statement cache last handed this statement out
  /// (see ``StatementCache``).
  @exclusivity(unchecked) var cacheStamp: UInt64 = 0

  init(
    database: Database, sql: String, sqliteStatement: SQLiteStatement,
    authorization: StatementAuthorization
  ) {
    self.database = database
    if CloseCheck.isEnabled {
      liveStatements = database.liveStatements
      database.liveStatements.increment()
    } else {
      liveStatements = nil
    }
    self.authorization = authorization
    self.sql = sql
    self.sqliteStatement = sqliteStatement
    let parameterCount = Int(sqlite3_bind_parameter_count(sqliteStatement))
    parameterNames = (0..<parameterCount).map { index in
      guard let cName = sqlite3_bind_parameter_name(sqliteStatement, CInt(index + 1)) else { return nil }
      // `:name`, `$name`, `@name` and `?NNN` (named "NNN", as GRDB names it).
      return String(String(cString: cName).dropFirst())
    }
    let columnCount = Int(sqlite3_column_count(sqliteStatement))
    layout = RowLayout(
      names: (0..<columnCount).map { String(cString: sqlite3_column_name(sqliteStatement, CInt($0))) },
      isFetched: true)
  }

  deinit {
    sqlite3_finalize(sqliteStatement)
    liveStatements?.decrement()
  }

  /// The number of columns of the rows the statement produces.
  public var columnCount: Int { layout.names.count }

  /// The names of the columns of the rows the statement produces.
  public var columnNames: [String] { layout.names }

  /// The index of the leftmost column named `name` (case-insensitive).
  public func index(ofColumn name: String) -> Int? { layout.index(of: name) }

  /// True if the statement does not write to the database.
  public var isReadonly: Bool { sqlite3_stmt_readonly(sqliteStatement) != 0 }

  /// Checks that `arguments` fit the statement's parameters, without binding them.
  public func validateArguments(_ arguments: StatementArguments) throws {
    var consumer = ArgumentConsumer(arguments)
    _ = try consumer.values(for: self)
    try consumer.checkFullyConsumed(statement: self)
  }

  /// Binds `arguments` after checking that they fit the statement's parameters.
  public func setArguments(_ arguments: StatementArguments) throws {
    // The common case: one positional value per parameter, nothing to check
    // beyond the count, every parameter bound (no need to clear bindings).
    if arguments.namedValues.isEmpty, arguments.conversionFailure == nil,
      arguments.values.count == parameterNames.count
    {
      // `bindingAll(_:)` spelled out: its closure would capture `arguments`,
      // which a debug build retains.
      resetIfRunning()
      var index: CInt = 1
      for value in arguments.values {
        var code = value.bind(to: sqliteStatement, at: index)
        if code == SQLITE_MISUSE && index == 1 {
          sqlite3_reset(sqliteStatement)
          code = value.bind(to: sqliteStatement, at: index)
        }
        if code != SQLITE_OK { throw makeError(code: code) }
        index += 1
      }
      boundArguments = .converted(arguments)
      argumentsWereGiven = true
      return
    }
    var consumer = ArgumentConsumer(arguments)
    let values = try consumer.values(for: self)
    try consumer.checkFullyConsumed(statement: self)
    try bind(values, arguments: arguments)
  }

  /// Binds `arguments` without checking that they fit: missing parameters stay NULL.
  public func setUncheckedArguments(_ arguments: StatementArguments) {
    var consumer = ArgumentConsumer(arguments)
    let values = consumer.uncheckedValues(for: self)
    try? bind(values, arguments: arguments)
  }

  func bind(_ values: [DatabaseValue], arguments: StatementArguments) throws {
    sqlite3_reset(sqliteStatement)
    sqlite3_clear_bindings(sqliteStatement)
    for (offset, value) in values.enumerated() {
      let code = value.bind(to: sqliteStatement, at: CInt(offset + 1))
      if code != SQLITE_OK {
        throw makeError(code: code)
      }
    }
    boundArguments = .converted(arguments)
    argumentsWereGiven = true
  }

  /// Binds one value per parameter, in order, each with its own
  /// ``StatementBinding/bind(to:at:)``: no ``DatabaseValue`` is built (a text
  /// is bound from the caller's string, never copied into one first).
  /// Anything but one value per parameter, or a value that SQLite refuses (an
  /// integer beyond Int64's range returns `SQLITE_MISMATCH`), goes through
  /// ``setArguments(_:)``, which converts every value first and gives the
  /// error, or binds what the conversion accepts.
  func setArguments(_ values: [(any DatabaseValueConvertible)?]) throws {
    guard values.count == parameterNames.count else {
      return try setArguments(StatementArguments(values))
    }
    boundArguments = .positional(values)
    argumentsWereGiven = true
    let code = values.withUnsafeBufferPointer { buffer in
      bindingAll { sqliteStatement in
        // Each value is passed inout (never modified): an exclusive access lets
        // the call borrow the existential where it is instead of copying it.
        guard let base = buffer.baseAddress.map(UnsafeMutablePointer.init(mutating:)) else {
          return SQLITE_OK
        }
        for offset in 0..<buffer.count {
          let code = Statement.bind(&base[offset], to: sqliteStatement, at: CInt(offset + 1))
          if code != SQLITE_OK { return code }
        }
        return SQLITE_OK
      }
    }
    if code != SQLITE_OK { try setArguments(StatementArguments(values)) }
  }

  @inline(__always)
  private static func bind(
    _ value: inout (any DatabaseValueConvertible)?, to sqliteStatement: SQLiteStatement, at index: CInt
  ) -> CInt {
    value?.bind(to: sqliteStatement, at: index) ?? sqlite3_bind_null(sqliteStatement, index)
  }

  /// Binds the only parameter of the statement to `value`, without building
  /// the array of ``StatementArguments`` (a primary-key lookup binds one
  /// value per run). Any other statement goes through ``setArguments(_:)``.
  func setArgument(_ value: DatabaseValue) throws {
    guard parameterNames.count == 1, parameterNames[0] == nil else {
      return try setArguments(StatementArguments([value]))
    }
    let code = bindingAll { value.bind(to: $0, at: 1) }
    if code != SQLITE_OK { throw makeError(code: code) }
    boundArguments = .single(value)
    argumentsWereGiven = true
  }

  /// Binds the parameters with `bind`, which returns the first code that is
  /// not `SQLITE_OK`, or `SQLITE_OK`.
  ///
  /// The statement is reset only if a run is in the middle (see
  /// ``resetIfRunning()``). A statement stepped to its end through the C API,
  /// and not reset, refuses the first bind with `SQLITE_MISUSE`: it is reset,
  /// and bound again.
  ///
  /// `bind` is given the SQLite statement: a closure that read it from the
  /// statement would retain the statement in a debug build.
  @inline(__always)
  func bindingAll(_ bind: (_ sqliteStatement: SQLiteStatement) -> CInt) -> CInt {
    resetIfRunning()
    let sqliteStatement = sqliteStatement
    let code = bind(sqliteStatement)
    guard _slowPath(code == SQLITE_MISUSE) else { return code }
    sqlite3_reset(sqliteStatement)
    return bind(sqliteStatement)
  }

  /// Ends a run left in the middle (a cursor dropped before its end, or steps
  /// through the C API), before new arguments or a new run. A run that went
  /// to its end needs no reset: every run Sealite ends is reset, and SQLite
  /// resets a statement stepped again after its end. A second reset would
  /// cost as much as binding an integer, at every run.
  @inline(__always)
  func resetIfRunning() {
    if sqlite3_stmt_busy(sqliteStatement) != 0 { sqlite3_reset(sqliteStatement) }
  }

  /// Runs the statement to completion, with new arguments if given. Without
  /// arguments, it runs with the arguments bound last: a statement with
  /// parameters that was never given any throws "wrong number of statement
  /// arguments: 0", as in GRDB.
  public func execute(arguments: StatementArguments? = nil) throws {
    guard let arguments else {
      try checkArgumentsWereGiven()
      return try run()
    }
    try setArguments(arguments)
    try run()
  }

  /// Runs the statement to completion with `values` bound to its parameters,
  /// in order: the same as `execute(arguments: StatementArguments(values))`.
  ///
  /// An array literal of arguments picks this method, which binds each value
  /// with its own ``StatementBinding/bind(to:at:)`` instead of building
  /// ``StatementArguments`` first: the fast way to run one prepared statement
  /// many times.
  ///
  ///     let statement = try db.makeStatement(sql: "INSERT INTO player (id, name) VALUES (?, ?)")
  ///     for player in players {
  ///       try statement.execute(arguments: [player.id, player.name])
  ///     }
  public func execute(arguments values: [(any DatabaseValueConvertible)?]) throws {
    try setArguments(values)
    try run()
  }

  /// The database of the statement; a misuse error once it is closed.
  func requireDatabase() throws -> Database {
    guard let database else {
      throw DatabaseError.misuse("the database of this statement is closed", sql: sql)
    }
    return database
  }

  /// Steps the statement, with the arguments already bound, until it is done.
  private func run() throws {
    let database = try requireDatabase()
    let context = try database.willExecute(self)
    resetIfRunning()
    while true {
      let code = sqlite3_step(sqliteStatement)
      if code == SQLITE_DONE { break }
      if code != SQLITE_ROW { throw stepFailure(code: code, in: database, context: context) }
    }
    sqlite3_reset(sqliteStatement)
    try database.didExecute(self, context: context)
  }

  /// Binds one value per parameter, in order, without the checks of
  /// ``setArguments(_:)``: for statements Sealite generated itself. With
  /// `indexes`, parameter N takes `values[indexes[N]]`: a record's UPDATE
  /// binds its container's values where they are, without an array of its own.
  func bindInOrder(_ values: [DatabaseValue], picking indexes: [Int]? = nil) throws {
    // The arguments are recorded first: the error of a failed bind lists them.
    if let indexes {
      boundArguments = .picked(values, indexes)
    } else {
      var arguments = StatementArguments()
      arguments.values = values
      boundArguments = .converted(arguments)
    }
    argumentsWereGiven = true
    let code = values.withUnsafeBufferPointer { values in
      indexes.withOptionalBuffer { indexes in bindingAll { Statement.bind(values, picking: indexes, to: $0) }
      }
    }
    if code != SQLITE_OK { throw makeError(code: code) }
  }

  /// Binds `values` (picked by `indexes`, if any) to the parameters, in order.
  @inline(__always)
  private static func bind(
    _ values: UnsafeBufferPointer<DatabaseValue>, picking indexes: UnsafeBufferPointer<Int>?,
    to sqliteStatement: SQLiteStatement
  ) -> CInt {
    // Each value is passed inout (never modified), as in
    // `setArguments(_:)`: the call borrows it where it is, where a copy
    // would retain and release the storage of each text and blob.
    guard let base = values.baseAddress.map(UnsafeMutablePointer.init(mutating:)) else { return SQLITE_OK }
    // Two loops, not one over `indexes ?? 0..<count`: the optional index on
    // each value cost an insert 35 instructions more (callgrind).
    var parameter: CInt = 1
    if let indexes {
      for index in indexes {
        precondition(index >= 0 && index < values.count, "a picked value is one of the values")
        let code = Statement.bind(&base[index], to: sqliteStatement, at: parameter)
        if code != SQLITE_OK { return code }
        parameter += 1
      }
    } else {
      for offset in 0..<values.count {
        let code = Statement.bind(&base[offset], to: sqliteStatement, at: parameter)
        if code != SQLITE_OK { return code }
        parameter += 1
      }
    }
    return SQLITE_OK
  }

  @inline(__always)
  private static func bind(_ value: inout DatabaseValue, to sqliteStatement: SQLiteStatement, at index: CInt)
    -> CInt
  {
    value.bind(to: sqliteStatement, at: index)
  }

  /// Runs the statement with one value per parameter, in order, without the
  /// checks of `execute(arguments:)`: for statements Sealite generated itself
  /// (`indexes` as in ``bindInOrder(_:picking:)``), run in `database`, the
  /// statement's own, which the caller holds.
  ///
  /// The values are the caller's, alive until this method returns: the
  /// statement reads them where they are, for the errors (and the
  /// ``arguments``) of this run, and forgets them when it returns. Keeping
  /// them would retain the values array and the indexes, and loading the
  /// statement's weak reference to its database would retain the database:
  /// two atomic operations each, on every record written.
  ///
  /// Returns whether the statement's first step gave a row (a SELECT that
  /// finds one, a RETURNING clause): the run ends there. With
  /// `answeredByFirstColumn`, whether it gave a row whose first column is
  /// true (`SELECT EXISTS (…)`).
  @discardableResult
  func executeBinding(
    _ values: [DatabaseValue], picking indexes: [Int]? = nil, in database: Database,
    answeredByFirstColumn: Bool = false
  ) throws -> Bool {
    assert(database === self.database, "a statement runs in its own database")
    return try values.withUnsafeBufferPointer { values in
      try indexes.withOptionalBuffer { indexes in
        boundArguments = .borrowed(values, indexes)
        argumentsWereGiven = true
        defer { forgetBoundValues() }
        let code = bindingAll { Statement.bind(values, picking: indexes, to: $0) }
        if _slowPath(code != SQLITE_OK) { throw makeError(code: code) }
        let context = try database.willExecute(self)
        let stepCode = sqlite3_step(sqliteStatement)
        if _slowPath(stepCode != SQLITE_DONE && stepCode != SQLITE_ROW) {
          throw stepFailure(code: stepCode, in: database, context: context)
        }
        var answer = stepCode == SQLITE_ROW
        if answeredByFirstColumn, answer { answer = sqlite3_column_int64(sqliteStatement, 0) != 0 }
        sqlite3_reset(sqliteStatement)
        try database.didExecute(self, context: context)
        return answer
      }
    }
  }

  /// Drops the values bound by ``bindInOrder(_:picking:)``, once the
  /// statement ran: they are the caller's, and so is their array, which a
  /// record's encoder reuses for the next record only if nothing else holds
  /// it. Until then, an error lists them. The statement then reports no
  /// arguments: only Sealite runs the statements it generated.
  func forgetBoundValues() {
    boundArguments = .notKept
  }

  /// Throws the error of empty arguments if the statement has parameters and
  /// was never given arguments: run without any, it would bind NULL to each
  /// parameter where GRDB reports the forgotten arguments.
  @inline(__always)
  func checkArgumentsWereGiven() throws {
    if !argumentsWereGiven && !parameterNames.isEmpty { try validateArguments(StatementArguments()) }
  }

  /// Ends a run whose step failed with `code`, and returns the error to
  /// throw, as the observers of `database` see it. Not inlined where
  /// statements step: their loops are better off without this code in the
  /// instruction cache.
  @inline(never)
  func stepFailure(code: CInt, in database: Database, context: AnyObject?) -> any Error {
    let error = makeError(code: code)
    sqlite3_reset(sqliteStatement)
    return database.didFail(self, context: context, error: error)
  }

  /// Builds the error for a failed step or bind, with this statement's SQL.
  func makeError(code: CInt) -> DatabaseError {
    DatabaseError.fromConnection(
      sqlite3_db_handle(sqliteStatement), code: code, sql: sql, arguments: arguments,
      publicStatementArguments: database?.configuration.publicStatementArguments ?? false)
  }
}

/// The arguments a statement last bound.
private enum BoundArguments {
  case converted(StatementArguments)
  case positional([(any DatabaseValueConvertible)?])
  case single(DatabaseValue)
  /// Parameter N took `values[indexes[N]]`.
  case picked(_ values: [DatabaseValue], _ indexes: [Int])
  /// The values of a run of `executeBinding(_:picking:in:)`, where the
  /// caller holds them: read only while that run lasts, which ends with
  /// `notKept`.
  case borrowed(_ values: UnsafeBufferPointer<DatabaseValue>, _ indexes: UnsafeBufferPointer<Int>?)
  /// A statement Sealite generated ran with values it did not keep
  /// (`executeBinding(_:picking:in:)`): it reports no arguments.
  case notKept
}

extension Optional {
  /// Calls `body` with a buffer of the array's elements, or with nil.
  @inline(__always)
  func withOptionalBuffer<Element, Result>(_ body: (UnsafeBufferPointer<Element>?) throws -> Result) rethrows
    -> Result
  where Wrapped == [Element] {
    guard let array = self else { return try body(nil) }
    return try array.withUnsafeBufferPointer { try body($0) }
  }
}

extension Statement: CustomStringConvertible {
  public var description: String {
    KeyingStatementRedaction.isKeyingStatement(sql) ? KeyingStatementRedaction.redacted : sql
  }
}

/// SQLite copies bound texts and blobs when given this destructor. Computed,
/// not a global constant: a global is initialized lazily, and each read of it
/// would check that it is (a `swift_once` per value bound).
var sqliteTransient: sqlite3_destructor_type {
  @inline(__always) get { unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self) }
}
