/// How the transaction ended during the statement being run, as SQLite's
/// commit and rollback hooks told: observers hear of it once the statement
/// is over, when they may use the connection again.
enum PendingTransactionCompletion {
  /// The transaction did not end (or the statement ran without one).
  case none
  /// The transaction committed.
  case commit
  /// The transaction rolled back.
  case rollback
  /// An observer refused the commit with this error: SQLite rolls back, and
  /// the statement fails with the error.
  case cancelledCommit(any Error)
}
