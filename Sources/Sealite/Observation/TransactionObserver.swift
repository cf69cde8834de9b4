/// A type that is told of the changes and transactions of a database
/// connection: the low-level protocol behind every observation.
///
///     final class PlayerObserver: TransactionObserver {
///       var changed = false
///       func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///       }
///       func databaseDidChange(with event: DatabaseEvent) { changed = true }
///       func databaseDidCommit(_ db: Database) { if changed { print("players changed") }; changed = false }
///       func databaseDidRollback(_ db: Database) { changed = false }
///     }
///     try dbQueue.write { db in db.add(transactionObserver: observer) }
///
/// Observers are called on the connection's dispatch queue, while the change,
/// commit or rollback happens: they must be quick.
public protocol TransactionObserver: AnyObject {
  /// Whether the observer wants to hear of changes of this kind. Asked before
  /// each statement that writes; an observer that answers false for a statement
  /// gets no ``databaseDidChange(with:)`` for it.
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

  /// A row changed (tables with a rowid).
  func databaseDidChange(with event: DatabaseEvent)

  /// Rows changed that SQLite does not report one by one: `WITHOUT ROWID`
  /// tables, deletions of a whole table, changes announced with
  /// ``Database/notifyChanges(in:)``, and commits of other processes.
  func databaseDidChange()

  /// The transaction is about to commit. Throwing rolls it back, and the
  /// commit fails with the thrown error.
  func databaseWillCommit() throws

  /// The transaction committed.
  func databaseDidCommit(_ db: Database)

  /// The transaction rolled back.
  func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
  public func databaseDidChange() {}
  public func databaseWillCommit() throws {}

  /// Stops notifications of changes to this observer until the current
  /// transaction ends (it still hears of the commit or rollback). Call it from
  /// ``databaseDidChange(with:)`` once the observer knows enough.
  public func stopObservingDatabaseChangesUntilNextTransaction() {
    NotifyingBroker.current?.stopObservingChangesUntilNextTransaction(self)
  }
}

/// How long a ``Database`` keeps a transaction observer.
public enum TransactionObservationExtent: Sendable {
  /// Until the observer is deallocated: the database holds it weakly.
  case observerLifetime
  /// Until the end of the next transaction (commit or rollback); held strongly.
  case nextTransaction
  /// Until the connection is closed; held strongly.
  case databaseLifetime
}

extension Database {
  /// How long a database keeps a transaction observer (GRDB's name).
  public typealias TransactionObservationExtent = Sealite.TransactionObservationExtent
}
