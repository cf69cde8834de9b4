import CSQLCipher

/// Stops a long whole-database operation — an export, an import, a key change
/// through the keyring, a cipher migration — before it changes anything.
///
///     let cancellation = OperationCancellation()
///     // elsewhere, on a signal or a Cancel button:
///     cancellation.cancel()
///     // the operation then throws SQLITE_INTERRUPT, having changed nothing:
///     try DatabaseQueue.exportDatabase(
///       atPath: path, key: key, to: copyPath, destinationKey: newKey, cancellation: cancellation)
///
/// An operation checks for cancellation at each of its safe points, and SQLite
/// statements it runs meanwhile (the copy of every table, say) are interrupted
/// at once. Once an operation passed its commit point (the rename that puts a
/// new file in place, or the transaction that re-encrypts a database), a later
/// cancellation is too late: the operation completes.
public final class OperationCancellation: Sendable {
  private struct State {
    var isCancelled = false
    var handlers: [Int: @Sendable () -> Void] = [:]
    var nextHandlerID = 0
  }

  private let state = Locked(State())

  /// A cancellation that has not been requested yet.
  public init() {}

  /// True once ``cancel()`` was called.
  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Asks the operation to stop at its next safe point, and interrupts the
  /// SQLite statement it runs. Calling it again does nothing.
  public func cancel() {
    // Handlers run with the lock held, so that none runs after its
    // registration ended (an interrupt must never reach a closed connection).
    state.withLock { state in
      guard !state.isCancelled else { return }
      state.isCancelled = true
      for handler in state.handlers.values { handler() }
    }
  }

  /// Throws `SQLITE_INTERRUPT` ("OPERATION was cancelled: nothing was changed") if
  /// cancellation was requested: called at the safe points of an operation.
  public func check(_ operation: String) throws {
    if isCancelled { throw Self.error(operation) }
  }

  /// The error a cancelled operation throws: `SQLITE_INTERRUPT`, as SQLite's
  /// own interruptions are.
  static func error(_ operation: String) -> DatabaseError {
    DatabaseError(resultCode: .SQLITE_INTERRUPT, message: "\(operation) was cancelled: nothing was changed")
  }

  /// Runs `body`, with `sqlite3_interrupt` called on `connection` if
  /// cancellation comes meanwhile (or came before).
  func interrupting<T>(_ connection: SQLiteConnection, _ body: () throws -> T) rethrows -> T {
    let target = InterruptTarget(connection: connection)
    let id = state.withLock { state -> Int? in
      if state.isCancelled {
        sqlite3_interrupt(target.connection)
        return nil
      }
      let id = state.nextHandlerID
      state.nextHandlerID += 1
      state.handlers[id] = { sqlite3_interrupt(target.connection) }
      return id
    }
    defer { if let id { state.withLock { _ = $0.handlers.removeValue(forKey: id) } } }
    return try body()
  }
}

/// A connection to interrupt from another thread.
// @unchecked Sendable: sqlite3_interrupt is the one SQLite call documented as
// safe from any thread, and the handler holding this value is removed (under
// the cancellation's lock) before the connection can be closed.
private struct InterruptTarget: @unchecked Sendable {
  let connection: SQLiteConnection
}

extension Optional where Wrapped == OperationCancellation {
  /// Checks for cancellation, if there is a cancellation.
  func check(_ operation: String) throws {
    try self?.check(operation)
  }

  /// Runs `body`, interrupting `connection` on cancellation, if there is a cancellation.
  func interrupting<T>(_ connection: SQLiteConnection, _ body: () throws -> T) rethrows -> T {
    guard let self else { return try body() }
    return try self.interrupting(connection, body)
  }
}
