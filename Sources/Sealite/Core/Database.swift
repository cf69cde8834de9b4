import CSQLCipher
import Foundation

/// An SQLite connection, lent to the closures of a ``DatabaseQueue`` or a
/// ``DatabasePool``:
///
///     try dbQueue.write { db in
///       try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///       print(db.lastInsertedRowID)
///     }
///
/// A `Database` is not thread-safe and must not escape the closure it is given
/// to: statements and cursors refuse to run once that closure has returned.
public final class Database {
  /// The raw SQLite connection, for code that calls the C API directly.
  // Unchecked exclusivity: it is set when the connection opens and closes,
  // and read by the access that uses it; a runtime check of each read (the
  // changes count and rowid after every record written) would cost more than
  // the read.
  @exclusivity(unchecked) public private(set) var sqliteConnection: SQLiteConnection?
  /// The configuration this connection was opened with.
  public let configuration: Configuration
  /// The path of the database file (`:memory:` for an in-memory database).
  public let path: String
  /// A description of the connection, for error messages and debugging.
  public let description: String

  // Unchecked exclusivity: a lookup stamps the statement it finds, and runs
  // at each fetch of a statement by its SQL, in the connection's one access.
  @exclusivity(unchecked) var statementCache = StatementCache()
  /// Changes whenever the statement cache does: a statement kept out of the
  /// cache with the generation it was fetched at is still the cached one while
  /// the generation is the same (see `isIdleCachedStatement`).
  var statementCacheGeneration: Int { statementCache.generation }
  /// The schema version the cached statements were compiled for, if known.
  /// A statement keeps the columns it had when it compiled, though SQLite
  /// recompiles its program after a schema change: see `validateStatementCache()`.
  private var statementCacheSchemaVersion: Int32?
  /// True once the statement cache was checked against the schema version in
  /// the current access.
  private var statementCacheIsValidated = false
  /// The date of the current transaction (``transactionDate``), or the
  /// clock's error; nil outside of a transaction.
  var transactionDateResult: Result<Date, any Error>?
  var currentAccess: DatabaseAccess?
  /// True once a key was given to SQLCipher (configuration or `usePassphrase`).
  var isKeyed = false
  var tracer: Tracer?
  let isReadOnlyConnection: Bool
  /// What the authorizer reports while statements compile.
  let authorizationRecorder = AuthorizationRecorder()
  /// The observation layer, once something observes this connection.
  var executionObserver: (any StatementExecutionObserver)? {
    didSet { authorizationRecorder.executionObserver = executionObserver }
  }
  /// True while the region of a request is computed (set by the layer that
  /// computes it): the request then derives its ``RowIDRestriction``.
  var isComputingRegion = false
  /// True while `PRAGMA query_only` forbids writes (a read access of a
  /// queue): transaction observers then hear of nothing.
  var isQueryOnly = false
  /// The state the layers above Core keep on this connection (see
  /// ``ConnectionState``). Unchecked exclusivity: the connection serves one
  /// access at a time, and the states are looked up several times per record
  /// written, where a runtime access check costs as much as the lookup.
  @exclusivity(unchecked) var connectionStates = ConnectionStates()
  /// The cancellation of the `async` access running on this connection, if any.
  var taskCancellation: TaskCancellation?
  /// The statements of this connection alive, for the close-time check of
  /// the test suite (counted only when it is on).
  let liveStatements = CloseCheck.StatementCount()
  /// The calls of the busy handler of ``BusyMode/immediateError``, which
  /// SQLite is given a raw pointer to: the handler is removed at close.
  let busyCalls = BusyCallCount()
  /// True once a statement wrote rows or schema on this connection.
  var hasWrittenContent = false
  /// The suspension of a writable connection whose configuration observes
  /// ``suspendNotification``; nil otherwise.
  private(set) var suspension: DatabaseSuspension?

  /// Opens a connection. The connection is not usable until ``setUp()`` ran.
  init(path: String, description: String, configuration: Configuration, readOnly: Bool) throws {
    self.path = path
    self.description = description
    self.configuration = configuration
    self.isReadOnlyConnection = readOnly || configuration.readonly
    var connection: SQLiteConnection?
    // The error log can only be installed before SQLite's first connection.
    SQLiteErrorLog.install()
    let flags =
      (isReadOnlyConnection ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
      | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = DatabaseError.fromConnection(connection, code: code)
      sqlite3_close_v2(connection)
      if Database.isDirectory(path) {
        // SQLite says "unable to open database file", or "disk I/O error" when read-only.
        throw DatabaseError(
          resultCode: .SQLITE_CANTOPEN, message: error.message,
          context: "while opening `\(path)`: it is a directory")
      }
      // The message stays SQLite's, as in GRDB; the path is in the description.
      throw DatabaseError(
        resultCode: error.extendedResultCode, message: error.message, context: "while opening `\(path)`")
    }
    sqliteConnection = connection
    sqlite3_extended_result_codes(connection, 1)
    // A double-quoted name that names no column is an error, not a string
    // (SQLite's misfeature), unless the configuration asks for it, as in GRDB.
    sealite_set_double_quoted_string_literals(
      connection, configuration.acceptsDoubleQuotedStringLiterals ? 1 : 0)
    authorizationRecorder.install(on: connection)
    addBuiltInFunctionsAndCollations()
    if configuration.observesSuspensionNotifications, !isReadOnlyConnection {
      suspension = DatabaseSuspension(interruptHandle: interruptHandle)
    }
  }

  deinit {
    close()
  }

  /// Closes the connection. Statements still held elsewhere keep SQLite's
  /// connection alive until they are released (`sqlite3_close_v2`).
  func close() {
    guard let connection = sqliteConnection else { return }
    assert(currentAccess == nil, "a connection closes outside any access")
    for state in connectionStates.all { state.connectionWillClose() }
    suspension?.connectionWillClose()
    statementCache.removeAll()
    tracer = nil
    connectionStates.removeAll()
    executionObserver = nil
    sqlite3_set_authorizer(connection, nil, nil)
    sqlite3_trace_v2(connection, 0, nil, nil)
    sqlite3_busy_handler(connection, nil, nil)
    if CloseCheck.isEnabled {
      CloseCheck.check(connection, statements: liveStatements, description: description)
    }
    sqlite3_close_v2(connection)
    sqliteConnection = nil
  }

  var connection: SQLiteConnection {
    get throws {
      guard let sqliteConnection else { throw DatabaseError.misuse("the database connection is closed") }
      return sqliteConnection
    }
  }

  // MARK: - Access

  /// Runs `body` as a database access: statements and cursors made inside are
  /// valid until it returns.
  func withAccess<T>(_ body: (Database) throws -> T) rethrows -> T {
    let access = DatabaseAccess()
    let previous = currentAccess
    currentAccess = access
    if previous == nil { statementCacheIsValidated = false }
    defer {
      assert(currentAccess === access, "nested accesses end in order")
      access.isValid = false
      currentAccess = previous
      if previous == nil { resetBusyStatements() }
    }
    return try body(self)
  }

  func requireAccess(sql: String?) throws -> DatabaseAccess {
    guard let currentAccess else {
      throw DatabaseError.misuse("the database was used outside of its access closure", sql: sql)
    }
    return currentAccess
  }

  /// Resets statements a cursor left half-iterated, so that they release their
  /// read locks when the access that used them ends.
  private func resetBusyStatements() {
    guard let connection = sqliteConnection else { return }
    var statement = sqlite3_next_stmt(connection, nil)
    while let current = statement {
      if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
      statement = sqlite3_next_stmt(connection, current)
    }
  }

  /// Called before a statement runs; the result goes back to `didExecute` or
  /// `didFail`.
  @inline(__always)
  func willExecute(_ statement: Statement, restriction: RowIDRestriction? = nil) throws -> AnyObject? {
    if _slowPath(currentAccess == nil) { _ = try requireAccess(sql: statement.sql) }
    // Most connections have neither: two loads here, instead of two calls.
    if _slowPath(taskCancellation != nil) { try checkCancellation(before: statement) }
    if _slowPath(suspension != nil) { try checkSuspension(before: statement) }
    guard let executionObserver else { return nil }
    return try executionObserver.statementWillExecute(statement, restriction: restriction)
  }

  @inline(__always)
  func didExecute(_ statement: Statement, context: AnyObject?) throws {
    let authorization = statement.authorization
    if _slowPath(authorization.invalidatesSchema) { schemaDidChange() }
    if _slowPath(authorization.transactionEffect != nil), let effect = authorization.transactionEffect {
      if effect == .rollback || effect == .rollbackToSavepoint {
        // A rolled-back transaction may take back schema changes: the next
        // statement checks the schema version again.
        statementCacheIsValidated = false
      }
      transactionDidChange(effect)
    }
    if authorization.writesContent { hasWrittenContent = true }
    if _slowPath(authorization.isQueryOnlyPragma) {
      tracer?.isPaused = true
      isQueryOnly = Database.queryOnly(try connection)
      tracer?.isPaused = false
    }
    try executionObserver?.statementDidExecute(statement, context: context)
  }

  /// Forgets every statement and schema fact compiled for the previous
  /// schema. Cached statements would keep their columns (`SELECT *` misses a
  /// column added since) and what the authorizer reported when they were
  /// compiled (writes of a trigger created since would go unseen), though
  /// SQLite silently recompiles their programs.
  func schemaDidChange() {
    statementCache.removeAll()
    statementCacheSchemaVersion = nil
    for state in connectionStates.all { state.schemaDidChange() }
  }

  /// Empties the statement cache if another connection changed the schema
  /// since its statements compiled: once per access, at the first use of a
  /// cached statement that does more than control the transaction (so that,
  /// in a pool's read transaction, the version read is that of the snapshot
  /// the statement reads).
  private func validateStatementCache(before statement: Statement) {
    guard !statementCacheIsValidated, statement.authorization.transactionEffect == nil else { return }
    validateSchemaFacts()
  }

  /// Skips the schema check for the rest of the current access. A connection
  /// being set up has no statement or fact to forget, and its first page read
  /// must wait for its key to be settled (reading `schema_version` reads page
  /// 1, which makes SQLCipher derive a passphrase's key).
  func skipSchemaValidationInThisAccess() {
    statementCacheIsValidated = true
  }

  /// Whether the connection read any page of the database file from disk.
  var hasReadPages: Bool {
    guard let sqliteConnection else { return false }
    var current: CInt = 0
    var highwater: CInt = 0
    sqlite3_db_status(sqliteConnection, SQLITE_DBSTATUS_CACHE_MISS, &current, &highwater, 0)
    return current > 0
  }

  /// Forgets the statements and schema facts compiled for another schema
  /// version than the current one, once per access (see ``schemaDidChange()``).
  func validateSchemaFacts() {
    guard !statementCacheIsValidated else { return }
    statementCacheIsValidated = true
    tracer?.isPaused = true
    let version = sqliteConnection.flatMap(Database.schemaVersion)
    tracer?.isPaused = false
    if version == nil || version != statementCacheSchemaVersion {
      schemaDidChange()
      statementCacheSchemaVersion = version
    }
  }

  /// `PRAGMA schema_version`, read with the C API: nothing is cached or
  /// observed (and the caller pauses the trace). Nil if it can not be read (a busy database).
  private static func schemaVersion(_ connection: SQLiteConnection) -> Int32? {
    integerPragma(connection, "PRAGMA schema_version").map { Int32(truncatingIfNeeded: $0) }
  }

  /// `PRAGMA query_only`, read with the C API.
  private static func queryOnly(_ connection: SQLiteConnection) -> Bool {
    (integerPragma(connection, "PRAGMA query_only") ?? 0) != 0
  }

  /// Called when a statement failed: returns the error to throw.
  func didFail(_ statement: Statement, context: AnyObject?, error: DatabaseError) -> any Error {
    guard let executionObserver else { return error }
    return executionObserver.statementDidFail(statement, context: context, error: error)
  }

  // MARK: - Statements

  /// Compiles one SQL statement. Throws if `sql` holds several statements (use
  /// ``execute(sql:arguments:)`` for those).
  public func makeStatement(sql: String) throws -> Statement {
    let connection = try self.connection
    _ = try requireAccess(sql: sql)
    return try sql.withCString { cSQL in
      var sqliteStatement: SQLiteStatement?
      var tail: UnsafePointer<CChar>?
      authorizationRecorder.reset()
      let code = sqlite3_prepare_v2(connection, cSQL, -1, &sqliteStatement, &tail)
      guard code == SQLITE_OK else {
        throw DatabaseError.fromConnection(
          connection, code: code, sql: sql, publicStatementArguments: configuration.publicStatementArguments
        ).namingMissingCapability(sql: sql)
      }
      guard let sqliteStatement else {
        throw DatabaseError.misuse("no SQL statement found", sql: sql)
      }
      let statement = Statement(
        database: self, sql: Database.trimmed(sql), sqliteStatement: sqliteStatement,
        authorization: authorizationRecorder.take(sql: sqlite3_sql(sqliteStatement)))
      if let tail, SQLTokenizer.holdsStatement(tail) {
        throw DatabaseError.misuse(
          "multiple statements found: use execute(sql:arguments:) to run several statements", sql: sql)
      }
      return statement
    }
  }

  /// Returns a compiled statement from this connection's cache, compiling it the
  /// first time. Cached statements are reused: do not iterate one with two
  /// cursors at once.
  public func cachedStatement(sql: String) throws -> Statement {
    if let statement = validCachedStatement(sql: sql) { return statement }
    let statement = try makeStatement(sql: sql)
    keep(statement, for: sql)
    return statement
  }

  /// The cached statement of `sql`, compiled for the current schema.
  private func validCachedStatement(sql: String) -> Statement? {
    guard let statement = statementCache[sql] else { return nil }
    let generation = statementCacheGeneration
    validateStatementCache(before: statement)
    // Validation empties the cache or leaves it as it was.
    return generation == statementCacheGeneration ? statement : nil
  }

  /// Caches `statement`, just compiled for `sql`, unless it carries key
  /// material: a kept statement would keep the key's text in memory as long
  /// as the connection.
  private func keep(_ statement: Statement, for sql: String) {
    guard !KeyingStatementRedaction.isKeyingStatement(sql) else { return }
    // Cached under the schema version of this access, known from now on.
    validateStatementCache(before: statement)
    statementCache.insert(statement, for: sql)
  }

  /// The statement used by `fetch…(db, sql:)`: the cached one, unless a cursor
  /// is already iterating it.
  func fetchStatement(sql: String) throws -> Statement {
    let statement = try idleStatement(sql: sql)
    assert(sqlite3_stmt_busy(statement.sqliteStatement) == 0, "a fetch never gets a statement a cursor steps")
    return statement
  }

  private func idleStatement(sql: String) throws -> Statement {
    guard let statement = validCachedStatement(sql: sql) else {
      let statement = try makeStatement(sql: sql)
      keepIfReusable(statement, for: sql)
      return statement
    }
    if sqlite3_stmt_busy(statement.sqliteStatement) == 0 { return statement }
    return try makeStatement(sql: sql)
  }

  /// True when `statement`, fetched by `fetchStatement(sql:)` when the cache
  /// was at `generation`, is still the cached statement of its SQL and no
  /// cursor steps it: the caller that kept it reuses it without hashing its
  /// SQL again.
  func isIdleCachedStatement(_ statement: Statement, generation: Int) -> Bool {
    guard generation == statementCacheGeneration else { return false }
    validateStatementCache(before: statement)
    return generation == statementCacheGeneration && sqlite3_stmt_busy(statement.sqliteStatement) == 0
  }

  /// True when a run's ``RowIDRestriction`` matters: while the statements
  /// that run are recorded into a region, or while a request's region is
  /// computed. A fetch skips deriving the rowids its filters select otherwise.
  var wantsRowIDRestrictions: Bool {
    isComputingRegion || executionObserver?.recordsSelectedRegion == true
  }

  /// Tells the observer that records the region of a tracked fetch that the
  /// fetch depends on `tables`, whether or not a statement reads them.
  func recordTablesRead(_ tables: [String]) {
    guard let executionObserver, executionObserver.recordsSelectedRegion else { return }
    executionObserver.recordTablesRead(tables)
  }

  static func trimmed(_ sql: String) -> String {
    sql.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
  }

  /// Compiles the first statement of the C string `cursor`, and tells where
  /// the rest of the text starts; nil when only white space, comments and
  /// semicolons remain.
  func compileFirstStatement(_ cursor: UnsafePointer<CChar>) throws
    -> (statement: Statement, tail: UnsafePointer<CChar>?)?
  {
    let connection = try self.connection
    var sqliteStatement: SQLiteStatement?
    var tail: UnsafePointer<CChar>?
    authorizationRecorder.reset()
    let code = sqlite3_prepare_v2(connection, cursor, -1, &sqliteStatement, &tail)
    guard code == SQLITE_OK else {
      let failedSQL = Database.trimmed(String(cString: cursor))
      throw DatabaseError.fromConnection(
        connection, code: code, sql: failedSQL,
        publicStatementArguments: configuration.publicStatementArguments
      ).namingMissingCapability(sql: failedSQL)
    }
    guard let sqliteStatement else { return nil }
    let statementSQL = Database.trimmed(String(cString: sqlite3_sql(sqliteStatement)))
    let statement = Statement(
      database: self, sql: statementSQL, sqliteStatement: sqliteStatement,
      authorization: authorizationRecorder.take(sql: sqlite3_sql(sqliteStatement)))
    return (statement, tail)
  }

  /// Runs one or several SQL statements, separated by semicolons. Positional
  /// arguments are consumed in order by the statements; named arguments are
  /// shared. All arguments must be used.
  ///
  /// SQL of one statement that reads or writes rows runs the statement the
  /// connection keeps for it (see ``cachedStatement(sql:)``), compiled the
  /// first time: a loop of `execute(sql:arguments:)` compiles its SQL once, as
  /// a loop of `fetchOne(db, sql:arguments:)` does. Statements that change the
  /// schema or the transaction, pragmas, `ATTACH`, `DETACH`, `VACUUM`, and any
  /// statement that carries key material are compiled at each call, and not
  /// kept.
  public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
    _ = try connection
    _ = try requireAccess(sql: sql)
    var consumer = ArgumentConsumer(arguments)
    func run(_ statement: Statement, isLast: Bool) throws {
      let values = try consumer.values(for: statement)
      if isLast {
        // Unused arguments are an error found before the last statement runs,
        // so that a single statement with extra arguments writes nothing.
        try consumer.checkFullyConsumed(statement: statement)
      }
      try statement.bind(values, arguments: arguments)
      try statement.execute()
    }
    if let statement = validCachedStatement(sql: sql), sqlite3_stmt_busy(statement.sqliteStatement) == 0 {
      return try run(statement, isLast: true)
    }
    try sql.withCString { cSQL in
      var cursor = cSQL
      var isFirst = true
      while cursor.pointee != 0, let next = try compileFirstStatement(cursor) {
        let (statement, tail) = next
        let isLast = tail.map { !SQLTokenizer.holdsStatement($0) } ?? true
        if isFirst && isLast { keepIfReusable(statement, for: sql) }
        try run(statement, isLast: isLast)
        guard let tail, !isLast else { break }
        cursor = tail
        isFirst = false
      }
    }
    // Reached when the SQL held no statement at all.
    try consumer.checkFullyConsumed(statement: nil)
  }

  /// Caches a statement that a fetch or `execute(sql:arguments:)` compiled
  /// from the whole of `sql`, when running it again is running the same
  /// statement: one that reads or writes rows (``cachedStatement(sql:)``
  /// caches any statement it is asked for). A cached statement that a cursor
  /// steps stays the cached one.
  private func keepIfReusable(_ statement: Statement, for sql: String) {
    let authorization = statement.authorization
    guard authorization.mayRunInTransaction, !authorization.invalidatesSchema, statementCache[sql] == nil
    else { return }
    keep(statement, for: sql)
  }

  // MARK: - Connection state

  /// The rowid of the last successful INSERT on this connection.
  public var lastInsertedRowID: Int64 {
    sqliteConnection.map { sqlite3_last_insert_rowid($0) } ?? 0
  }

  /// The number of rows changed by the last INSERT, UPDATE or DELETE.
  public var changesCount: Int {
    sqliteConnection.map { Int(sqlite3_changes($0)) } ?? 0
  }

  /// The number of rows changed since the connection was opened.
  public var totalChangesCount: Int {
    sqliteConnection.map { Int(sqlite3_total_changes($0)) } ?? 0
  }

  /// True if a transaction is open (by Sealite or by explicit SQL).
  public var isInsideTransaction: Bool {
    sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? false
  }

  /// True if the current access can not write: the connection is read-only,
  /// or `PRAGMA query_only` is on (a read access of a queue).
  public var isReadOnly: Bool { isReadOnlyConnection || isQueryOnly }
}

/// The lifetime of one database access closure: cursors keep it and refuse to
/// step once it is over.
final class DatabaseAccess {
  var isValid = true
}
