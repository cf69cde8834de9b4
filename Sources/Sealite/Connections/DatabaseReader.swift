import Dispatch

/// A type that reads from a database: ``DatabaseQueue`` and ``DatabasePool``.
public protocol DatabaseReader: AnyObject, Sendable {
  /// The configuration of the reader's connections.
  var configuration: Configuration { get }
  /// The path of the database file.
  var path: String { get }

  /// Runs `value` in a read-only transaction and returns its result. The
  /// database does not change while it runs (a stable snapshot).
  func read<T>(_ value: (Database) throws -> T) throws -> T

  /// Runs `value` in a read-only transaction later, off the caller's thread.
  /// `value` receives the connection, or the error that prevented the read.
  func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

  /// Runs `value` with a connection, without a transaction and without
  /// forbidding writes: each statement sees the latest committed state.
  func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

  /// Closes the connections. Further use throws.
  func close() throws

  /// Runs `value` in a read-only transaction, without blocking the caller.
  func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseReader {
  /// The implementation of the async `read` shared by queues and pools (each
  /// declares the method itself, so that `await reader.read { … }` picks it
  /// over the blocking one).
  func awaitRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      asyncRead { result in
        continuation.resume(with: Result { try value(result.get()) })
      }
    }
  }
}

/// A type that writes to a database: ``DatabaseQueue`` and ``DatabasePool``.
/// Writes are serialized: one at a time.
public protocol DatabaseWriter: DatabaseReader {
  /// Runs `updates` with the writer connection, outside of any transaction.
  /// A transaction it leaves open is rolled back, and an error is thrown.
  func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

  /// Runs `updates` with the writer connection once every read in progress
  /// has ended, with no read starting until it is done.
  func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

  /// Runs `updates` with the writer connection later, off the caller's thread.
  func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

  /// Runs `updates` after every read in progress, later, off the caller's thread.
  func asyncBarrierWriteWithoutTransaction(
    _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseWriter {
  /// Runs `updates` in a transaction: committed when it returns, rolled back
  /// when it throws.
  ///
  ///     try dbQueue.write { db in
  ///       try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
  ///     }
  public func write<T>(_ updates: (Database) throws -> T) throws -> T {
    try writeWithoutTransaction { db in try db.inTransactionReturning(updates) }
  }

  /// Runs `updates` in a transaction, without blocking the caller.
  public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      asyncWriteWithoutTransaction { db in
        continuation.resume(with: Result { try db.writeTransaction(updates) })
      }
    }
  }

  func awaitWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T)
    async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      asyncWriteWithoutTransaction { db in
        continuation.resume(with: Result { try db.withoutTransaction(updates) })
      }
    }
  }

  func awaitBarrierWriteWithoutTransaction<T: Sendable>(
    _ updates: @escaping @Sendable (Database) throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      asyncBarrierWriteWithoutTransaction { result in
        continuation.resume(with: Result { try result.get().withoutTransaction(updates) })
      }
    }
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
    try inTransaction(configuration.defaultTransactionKind) {
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
    let result: T
    do {
      result = try updates(self)
    } catch {
      if isInsideTransaction && !configuration.allowsUnsafeTransactions { try? rollback() }
      throw error
    }
    if isInsideTransaction && !configuration.allowsUnsafeTransactions {
      try? rollback()
      throw DatabaseError.misuse("a transaction was left open at the end of a write; it has been rolled back")
    }
    return result
  }

  /// A read-only deferred transaction, whose snapshot is taken at once.
  func readTransaction<T>(_ value: (Database) throws -> T) throws -> T {
    try readOnly {
      var result: T?
      try inTransaction(.deferred) {
        // Reading the schema starts the read transaction now, so that the
        // snapshot is the state at the start of `read`, not at its first query.
        _ = try cachedStatement(sql: "SELECT rootpage FROM sqlite_master LIMIT 1").execute()
        result = try value(self)
        return .commit
      }
      return result!
    }
  }
}
