extension Database {
  /// Runs `operations` in a transaction, committed if they return `.commit` and
  /// rolled back if they return `.rollback` or throw.
  ///
  ///     try db.inTransaction(.immediate) {
  ///       try db.execute(sql: "UPDATE account SET balance = balance - 10 WHERE id = 1")
  ///       try db.execute(sql: "UPDATE account SET balance = balance + 10 WHERE id = 2")
  ///       return .commit
  ///     }
  public func inTransaction(
    _ kind: TransactionKind? = nil, _ operations: () throws -> TransactionCompletion
  ) throws {
    try beginTransaction(kind)
    do {
      switch try operations() {
      case .commit:
        try checkPageAuthentication()
        try commit()
      case .rollback: try rollback()
      }
    } catch {
      // A failed COMMIT (a deferred foreign key violation, a busy database)
      // leaves the transaction open: roll it back so nothing half-done remains.
      if isInsideTransaction { try? rollback() }
      throw error
    }
  }

  /// Runs `operations` in a savepoint: nestable inside a transaction, and a
  /// transaction of its own outside of one.
  public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
    guard isInsideTransaction else {
      return try inTransaction(nil, operations)
    }
    try cachedStatement(sql: "SAVEPOINT sealite").execute()
    do {
      switch try operations() {
      case .commit:
        try cachedStatement(sql: "RELEASE SAVEPOINT sealite").execute()
      case .rollback:
        try cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT sealite").execute()
        try cachedStatement(sql: "RELEASE SAVEPOINT sealite").execute()
      }
    } catch {
      if isInsideTransaction {
        try? cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT sealite").execute()
        try? cachedStatement(sql: "RELEASE SAVEPOINT sealite").execute()
      }
      throw error
    }
  }

  /// SQLCipher hands over a page that fails authentication as zeros, and only
  /// marks the connection in error, which fails its next page read until the
  /// transaction ends. A value whose overflow chain ends on that page would
  /// read as zeros without an error: reading a page again before the
  /// transaction ends turns it into one.
  func checkPageAuthentication() throws {
    guard isKeyed else { return }
    do {
      _ = try cachedStatement(sql: "SELECT rootpage FROM sqlite_master LIMIT 1").execute()
    } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
      throw DatabaseError(
        resultCode: .SQLITE_CORRUPT,
        message: "a page failed authentication while it was read: the database file is damaged or was "
          + "tampered with (\(path))")
    }
  }

  /// Begins a transaction of the given kind. Without a kind, the transaction
  /// is `DEFERRED` when the current access is read-only (as in GRDB: SQLite
  /// refuses other kinds on a read-only connection, and a read need not take
  /// the write lock), and of the configuration's default kind otherwise.
  public func beginTransaction(_ kind: TransactionKind? = nil) throws {
    let kind = kind ?? (isReadOnly ? .deferred : configuration.defaultTransactionKind)
    try cachedStatement(sql: "BEGIN \(kind.rawValue) TRANSACTION").execute()
  }

  /// Commits the current transaction.
  public func commit() throws {
    try cachedStatement(sql: "COMMIT TRANSACTION").execute()
  }

  /// Rolls back the current transaction, if any.
  public func rollback() throws {
    guard isInsideTransaction else { return }
    try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
  }

  /// Runs `body` with writes forbidden (`PRAGMA query_only`), restoring the
  /// previous state after. Calls nest: inside one, the connection stays read
  /// only until the outermost returns.
  ///
  ///     try dbQueue.write { db in
  ///       try db.readOnly {
  ///         try db.execute(sql: "DELETE FROM player")  // throws SQLITE_READONLY
  ///       }
  ///     }
  public func readOnly<T>(_ body: () throws -> T) throws -> T {
    if isReadOnly { return try body() }
    try cachedStatement(sql: "PRAGMA query_only = 1").execute()
    defer { try? cachedStatement(sql: "PRAGMA query_only = 0").execute() }
    return try body()
  }
}
