import CSQLCipher
import Foundation

extension Database {
  /// Posting this notification suspends every queue and pool opened with
  /// ``Configuration/observesSuspensionNotifications``: their writer
  /// connection stops taking locks it could keep (see the configuration flag)
  /// until ``resumeNotification`` is posted.
  ///
  ///     NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
  public static let suspendNotification = Notification.Name("Sealite.Database.Suspend")

  /// Posting this notification resumes the queues and pools that
  /// ``suspendNotification`` suspended.
  public static let resumeNotification = Notification.Name("Sealite.Database.Resume")

  /// Refuses `statement` while the connection is suspended, unless it takes no
  /// lock it could keep: a rollback, the commit of a read-only transaction,
  /// `PRAGMA query_only`, a read of a WAL database, a commit or a savepoint
  /// release. The open transaction is rolled back first, which releases its
  /// locks; the error has the code `SQLITE_ABORT`.
  func checkSuspension(before statement: Statement) throws {
    guard let suspension, suspension.isSuspended else { return }
    let authorization = statement.authorization
    switch authorization.transactionEffect {
    case .rollback, .rollbackToSavepoint, .commit, .releaseSavepoint: return
    default: break
    }
    if authorization.isQueryOnlyPragma { return }
    if statement.isReadonly, try suspension.isWAL(connection) { return }
    if isInsideTransaction { try? rollback() }
    throw DatabaseError(
      resultCode: .SQLITE_ABORT, message: "Database is suspended", sql: statement.sql,
      arguments: statement.arguments, publicStatementArguments: configuration.publicStatementArguments)
  }
}

/// The suspension of one writable connection whose configuration observes
/// ``Database/suspendNotification``: a flag set from any thread by the
/// notification, which interrupts the statement that runs then.
final class DatabaseSuspension: Sendable {
  private struct State {
    var isSuspended = false
    /// Dropped when the connection closes, before SQLite's connection is.
    var interruptHandle: Database.InterruptHandle?
    var observers = ObserverTokens()
    /// `PRAGMA journal_mode` is `wal`: read once, when first needed.
    var isWAL: Bool?
  }

  private let state: Locked<State>

  /// Starts observing the notifications for the connection `handle` interrupts.
  init(interruptHandle: Database.InterruptHandle) {
    state = Locked(State(interruptHandle: interruptHandle))
    let center = NotificationCenter.default
    let observers = [
      center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { [weak self] _ in
        self?.suspend()
      },
      center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { [weak self] _ in
        self?.resume()
      },
    ]
    state.withLock { $0.observers = ObserverTokens(tokens: observers) }
  }

  var isSuspended: Bool { state.withLock { $0.isSuspended } }

  private func suspend() {
    state.withLock { state in
      guard !state.isSuspended else { return }
      state.isSuspended = true
      // The statement running now may hold a lock: interrupting it rolls its
      // transaction back (SQLite's interruption), and the next statement of
      // the transaction rolls back what remains.
      state.interruptHandle?.interrupt()
    }
  }

  private func resume() {
    state.withLock { $0.isSuspended = false }
  }

  /// Whether the connection is in WAL mode, read with the C API so that
  /// nothing is traced or checked for suspension again.
  func isWAL(_ connection: SQLiteConnection) throws -> Bool {
    if let known = state.withLock({ $0.isWAL }) { return known }
    var statement: SQLiteStatement?
    guard sqlite3_prepare_v2(connection, "PRAGMA journal_mode", -1, &statement, nil) == SQLITE_OK else {
      throw DatabaseError.fromConnection(connection, code: sqlite3_errcode(connection))
    }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
      throw DatabaseError.fromConnection(connection, code: sqlite3_errcode(connection))
    }
    let isWAL = String(cString: text).lowercased() == "wal"
    state.withLock { $0.isWAL = isWAL }
    return isWAL
  }

  /// Stops observing, and forgets the connection, which is about to close.
  func connectionWillClose() {
    let observers = state.withLock { state in
      state.interruptHandle = nil
      defer { state.observers = ObserverTokens() }
      return state.observers
    }
    for observer in observers.tokens { NotificationCenter.default.removeObserver(observer) }
  }
}

/// The tokens of `NotificationCenter.addObserver(forName:object:queue:using:)`.
private struct ObserverTokens: @unchecked Sendable {
  // @unchecked Sendable: the tokens are opaque; they are only handed back to
  // `NotificationCenter.removeObserver(_:)`, which any thread may call.
  var tokens: [any NSObjectProtocol] = []
}
