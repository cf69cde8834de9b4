/// The state of the current transaction of one observed connection, as the
/// statements that ran and SQLite's hooks told: how the last statement ended
/// it, the open savepoints and the changes they hold back, the tables it
/// changed. It decides what happened; the broker tells the observers.
///
/// Guarded by the connection's queue, as the broker that owns it.
struct TransactionTracker {
  /// How the statement being run ended the transaction, as the hooks told.
  private var completion = PendingTransactionCompletion.none
  /// The open savepoints, and the changes they hold back.
  var savepoints = SavepointStack()
  /// True if the current transaction began with BEGIN (not with a savepoint).
  private(set) var begunWithBegin = false
  /// True while the broker rolls back a transaction the user never saw (one
  /// it opened itself, or one a refused RELEASE left open): observers are not
  /// told of that rollback, or are told once, by the broker.
  var isRollingBackSilently = false
  /// The tables the current transaction changed, by name key.
  private(set) var changedTables: [String: String] = [:]

  /// A statement starts: the hooks tell how it ends the transaction, if it does.
  mutating func statementWillRun() { completion = .none }

  /// The commit hook let the transaction commit.
  mutating func transactionWillCommit() { completion = .commit }

  /// The commit hook refused the commit (an observer threw `error`).
  mutating func transactionCommitWasRefused(_ error: any Error) { completion = .cancelledCommit(error) }

  /// The rollback hook. After a refused commit, the error stays the news.
  mutating func transactionDidRollBack() {
    if case .cancelledCommit = completion { return }
    completion = .rollback
  }

  /// How the statement that ran ended the transaction; the next one starts
  /// from none.
  mutating func takeCompletion() -> PendingTransactionCompletion {
    defer { completion = .none }
    return completion
  }

  mutating func noteChange(of table: String) {
    changedTables[table.nameKey] = table
  }

  /// What a statement that ran did to the transaction.
  struct Outcome {
    /// The transaction ended this way (`.none`: it did not).
    var end = End.none
    /// The last savepoint was released: changes it held back can be told.
    var releasedLastSavepoint = false

    enum End {
      case none, commit, rollback
      /// The transaction committed without writing, so SQLite called no
      /// commit hook: observers hear of a commit all the same.
      case emptyCommit
    }
  }

  /// Takes in the end of a statement: its effect on the transaction, and the
  /// completion the hooks reported while it ran (taken, so that the next
  /// statement starts from none).
  mutating func statementDidExecute(
    _ authorization: StatementAuthorization, isInsideTransaction: Bool
  ) -> Outcome {
    var outcome = Outcome()
    let completion = takeCompletion()
    switch authorization.transactionEffect {
    case .begin:
      begunWithBegin = true
    case .commit:
      if case .none = completion {
        outcome.end = .emptyCommit
        return outcome
      }
    case .savepoint:
      savepoints.savepointDidBegin(authorization.savepointName)
    case .releaseSavepoint:
      savepoints.savepointDidRelease(authorization.savepointName)
      if case .none = completion, !isInsideTransaction {
        // `SAVEPOINT x; RELEASE x` that wrote nothing: as `BEGIN; COMMIT`.
        outcome.end = .emptyCommit
        return outcome
      }
      outcome.releasedLastSavepoint = savepoints.isEmpty
    case .rollbackToSavepoint:
      savepoints.savepointDidRollBack(authorization.savepointName)
    case .rollback, nil:
      break
    }
    switch completion {
    case .commit: outcome.end = .commit
    case .rollback: outcome.end = .rollback
    case .none, .cancelledCommit: break
    }
    return outcome
  }

  /// True if a statement with this effect ends a transaction that changed
  /// tables, so that what must be written before its commit (the change
  /// journal) is written now: a COMMIT, or the RELEASE of the savepoint that
  /// opened the transaction.
  func commits(_ authorization: StatementAuthorization, isInsideTransaction: Bool) -> Bool {
    guard !changedTables.isEmpty, isInsideTransaction else { return false }
    switch authorization.transactionEffect {
    case .commit:
      return true
    case .releaseSavepoint:
      return !begunWithBegin && savepoints.isOutermost(authorization.savepointName)
    default:
      return false
    }
  }

  /// Forgets the tables of a transaction that ended unseen (an autocommitted
  /// statement, without hooks): they must not leak into the next one.
  mutating func forgetChangesOutsideOfTransaction(isInsideTransaction: Bool) {
    if !changedTables.isEmpty && !isInsideTransaction { changedTables = [:] }
  }

  /// The transaction ended: every fact of it is forgotten.
  mutating func transactionDidEnd() {
    _ = savepoints.removeAll()
    changedTables = [:]
    begunWithBegin = false
  }
}
