import CSQLCipher

extension Database {
  /// A handle that interrupts the statement this connection runs, from any
  /// thread (`sqlite3_interrupt`).
  var interruptHandle: InterruptHandle { InterruptHandle(connection: sqliteConnection) }

  /// Interrupts the statement that runs on this connection. Called from any
  /// thread, unlike every other method of a connection.
  struct InterruptHandle: @unchecked Sendable {
    // @unchecked Sendable: the pointer is only given to `sqlite3_interrupt`,
    // which SQLite documents as safe to call from any thread while the
    // connection is open; holders drop the handle (under their lock) before
    // the connection closes.
    fileprivate let connection: SQLiteConnection?

    /// Makes the statement running now fail with `SQLITE_INTERRUPT`. SQLite
    /// forgets the interruption when no statement runs, so a statement
    /// started later is stopped by ``Database/checkCancellation(before:)``.
    func interrupt() {
      if let connection { sqlite3_interrupt(connection) }
    }
  }

  // MARK: - Task cancellation

  /// The task cancellation an `async` access listens to while its closure
  /// runs on this connection: cancelling interrupts the running statement, and
  /// every statement the closure starts afterwards throws `CancellationError`
  /// (rollbacks aside, so that the transaction can end), as in GRDB.
  final class TaskCancellation: Sendable {
    private struct State {
      var target: InterruptHandle?
      var isCancelled = false
    }

    private let state = Locked(State())

    /// Called by the task's cancellation handler, on any thread.
    func cancel() {
      state.withLock { state in
        state.isCancelled = true
        state.target?.interrupt()
      }
    }

    var isCancelled: Bool { state.value.isCancelled }

    /// Runs the closure of an access on `db`, on the connection's queue,
    /// inside the awaiting task: not at all if the task is already cancelled;
    /// an interruption that the cancellation caused is thrown as
    /// `CancellationError`.
    func run<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
      try Task.checkCancellation()
      state.withLock { $0.target = db.interruptHandle }
      let previous = db.taskCancellation
      db.taskCancellation = self
      defer {
        db.taskCancellation = previous
        state.withLock { $0.target = nil }
      }
      do {
        return try body(db)
      } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isCancelled {
        throw CancellationError()
      }
    }
  }

  /// Throws `CancellationError` if the `async` access that runs `statement`
  /// belongs to a cancelled task. Statements that end a transaction (rollback,
  /// a commit of a read-only connection) still run, so that the access can
  /// leave the connection as it found it.
  func checkCancellation(before statement: Statement) throws {
    guard let cancellation = taskCancellation, cancellation.isCancelled
    else { return }
    switch statement.authorization.transactionEffect {
    case .rollback, .rollbackToSavepoint: return
    case .commit where isReadOnly: return
    default: break
    }
    throw CancellationError()
  }
}
