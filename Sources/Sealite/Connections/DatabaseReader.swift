import Dispatch

/// A type that reads from a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// The `async` accesses are requirements, as in GRDB, so that generic code
/// over `some DatabaseReader` picks them in an `async` context. They run their
/// closure inside the awaiting task: task-local values are visible there, a
/// task cancelled before the access gets `CancellationError` without running
/// the closure, and cancelling the task while the closure runs interrupts its
/// statement and throws `CancellationError`.
public protocol DatabaseReader: AnyObject, Sendable {
  /// The configuration of the reader's connections.
  var configuration: Configuration { get }
  /// The path of the database file.
  var path: String { get }

  /// Closes the connections. Further use throws.
  func close() throws

  /// Interrupts the statements running on the reader's connections: they
  /// fail with `SQLITE_INTERRUPT` (or `SQLITE_ABORT` for some writes).
  /// Safe to call from any thread.
  func interrupt()

  /// Runs `value` in a read-only transaction and returns its result. The
  /// database does not change while it runs (a stable snapshot).
  @_disfavoredOverload
  func read<T>(_ value: (Database) throws -> T) throws -> T

  /// Runs `value` in a read-only transaction, without blocking the caller.
  func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

  /// Runs `value` in a read-only transaction later, off the caller's thread.
  /// `value` receives the connection, or the error that prevented the read.
  func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

  /// Runs `value` with a connection, without a transaction and without
  /// forbidding writes: each statement sees the latest committed state.
  @_disfavoredOverload
  func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

  /// Runs `value` with a connection, without a transaction, without blocking
  /// the caller.
  func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

  /// Runs `value` with a connection, without a transaction, later, off the
  /// caller's thread.
  func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

  /// Runs `value` with a connection, without a transaction; called from inside
  /// an access of this reader, it runs inside that access, with its connection.
  func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T
}

/// A type that writes to a database: ``DatabaseQueue`` and ``DatabasePool``.
/// Writes are serialized: one at a time.
public protocol DatabaseWriter: DatabaseReader {
  /// Runs `updates` with the writer connection, outside of any transaction.
  ///
  /// Leaving a transaction open at the end of `updates` is a programming error
  /// that stops the program (unless ``Configuration/allowsUnsafeTransactions``):
  /// the method only throws what `updates` throws, as in GRDB. A transaction
  /// left open by an error is rolled back.
  @_disfavoredOverload
  func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

  /// Runs `updates` with the writer connection, outside of any transaction,
  /// without blocking the caller. A transaction left open is rolled back, and
  /// an error is thrown.
  func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

  /// Runs `updates` with the writer connection once every read in progress
  /// has ended, with no read starting until it is done.
  @_disfavoredOverload
  func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

  /// Runs `updates` after every read in progress, without blocking the caller.
  func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws
    -> T

  /// Runs `updates` after every read in progress, later, off the caller's thread.
  func asyncBarrierWriteWithoutTransaction(
    _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)

  /// Runs `updates` with the writer connection later, off the caller's thread.
  func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

  /// Runs `updates` with the writer connection; called from inside a write
  /// access, it runs inside that access (no transaction is opened).
  func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

  /// From inside a write access, outside of any transaction: reads the state
  /// the last commit left, in a read-only transaction, and returns at once.
  /// A pool reads concurrently with the writes that follow
  /// (``DatabasePool/asyncConcurrentRead(_:)``); a queue, which has one
  /// connection, reads before this method returns.
  ///
  ///     try dbPool.writeWithoutTransaction { db in
  ///       try db.execute(sql: "DELETE FROM player")
  ///       dbPool.spawnConcurrentRead { result in
  ///         // 0, whatever the writes below do.
  ///         let count = try? Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM player")
  ///       }
  ///       try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
  ///     }
  ///
  /// Called from elsewhere (not inside a write access of this writer, or
  /// inside a transaction), `value` gets a misuse error instead of a
  /// connection: GRDB stops the program there.
  func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseWriter {
  /// Runs `updates` in a transaction: committed when it returns, rolled back
  /// when it throws.
  ///
  ///     try dbQueue.write { db in
  ///       try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
  ///     }
  @_disfavoredOverload
  public func write<T>(_ updates: (Database) throws -> T) throws -> T {
    // A nested write is a thrown misuse error here, not a stop (`write` throws).
    if let owner = self as? any WriterConnectionOwner, owner.writer.isOnQueue {
      throw DatabaseError.misuse(
        "database access is not reentrant: do not call write from inside another access of the same connection"
      )
    }
    return try writeWithoutTransaction { db in try db.inTransactionReturning(updates) }
  }

  /// Runs `updates` in a transaction, without blocking the caller.
  ///
  ///     try await dbQueue.write { db in
  ///       try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
  ///     }
  public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
    try await writeWithoutTransaction { db in try db.inTransactionReturning(updates) }
  }

  /// Runs `updates` in a transaction later; `completion` receives the result.
  public func asyncWrite<T>(
    _ updates: @escaping @Sendable (Database) throws -> T,
    completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void
  ) {
    asyncWriteWithoutTransaction { db in
      completion(db, Result { try db.writeTransaction(updates) })
    }
  }
}

extension Database {
  func inTransactionReturning<T>(_ updates: (Database) throws -> T) throws -> T {
    var result: T?
    try inTransaction {
      result = try updates(self)
      return .commit
    }
    return result!
  }

  /// A write transaction, with the checks `writeWithoutTransaction` makes.
  func writeTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    try withoutTransaction { db in try db.inTransactionReturning(updates) }
  }

  /// Runs `updates` and rolls back a transaction it left open (an error unless
  /// the configuration allows unsafe transactions).
  func withoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    let (result, transactionLeftOpen) = try runRollingBackAfterError(updates)
    if transactionLeftOpen {
      try? rollback()
      throw DatabaseError.misuse("a transaction was left open at the end of a write; it has been rolled back")
    }
    return result
  }

  /// ``withoutTransaction(_:)`` for the `rethrows` methods: a transaction left
  /// open by an error is rolled back; one left open by a closure that returned
  /// is a programming error that stops the program, as in GRDB (there is no
  /// error of its own a `rethrows` method could throw).
  func withoutTransactionRethrowing<T>(_ updates: (Database) throws -> T) rethrows -> T {
    let (result, transactionLeftOpen) = try runRollingBackAfterError(updates)
    precondition(!transactionLeftOpen, "A transaction has been left opened at the end of a database access")
    return result
  }

  /// Runs `updates`, rolling back a transaction its error left open; says
  /// whether it returned with a transaction open (never, when the
  /// configuration allows unsafe transactions).
  private func runRollingBackAfterError<T>(_ updates: (Database) throws -> T) rethrows
    -> (T, transactionLeftOpen: Bool)
  {
    do {
      let result = try updates(self)
      return (result, isInsideTransaction && !configuration.allowsUnsafeTransactions)
    } catch {
      if isInsideTransaction && !configuration.allowsUnsafeTransactions { try? rollback() }
      throw error
    }
  }

  /// A read-only deferred transaction, whose snapshot is taken at once.
  /// `isolated` is called once the snapshot is taken, or when the
  /// transaction failed before (a concurrent read releases the writer then).
  func readTransaction<T>(isolated: () -> Void = {}, _ value: (Database) throws -> T) throws -> T {
    var isolationReported = false
    defer { if !isolationReported { isolated() } }
    return try readOnly {
      var result: T?
      try inTransaction(.deferred) {
        // Reading the schema starts the read transaction now, so that the
        // snapshot is the state at the start of `read`, not at its first query.
        _ = try cachedStatement(sql: "SELECT rootpage FROM sqlite_master LIMIT 1").execute()
        isolationReported = true
        isolated()
        result = try value(self)
        return .commit
      }
      return result!
    }
  }
}

/// Queues and pools: the connection their writes use, so that the methods
/// shared in protocol extensions can tell a nested access.
protocol WriterConnectionOwner {
  var writer: SerializedDatabase { get }
}

extension DatabaseQueue: WriterConnectionOwner {}
extension DatabasePool: WriterConnectionOwner {}
