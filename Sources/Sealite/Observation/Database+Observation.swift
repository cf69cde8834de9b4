extension Database {
  /// The observation broker of this connection, created on first use.
  var observationBroker: DatabaseObservationBroker { state(for: DatabaseObservationBroker.self) }

  /// Adds a transaction observer, told of the changes, commits and rollbacks
  /// of this connection.
  ///
  /// - parameter transactionObserver: the observer to add.
  /// - parameter extent: how long the observer is kept: until it is
  ///   deallocated (the default; the database holds it weakly), until the end
  ///   of the next transaction, or until the connection closes.
  public func add(
    transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime
  ) {
    // Statements that delete were compiled for the observers of the time:
    // whether SQLite may empty a table at once depends on who observes it.
    forgetCachedStatementsThatDelete()
    observationBroker.add(transactionObserver, extent: extent)
  }

  private func forgetCachedStatementsThatDelete() {
    statementCache.removeAll { $0.authorization.canDeleteRows }
  }

  /// Removes a transaction observer.
  public func remove(transactionObserver: some TransactionObserver) {
    guard let broker = existingState(for: DatabaseObservationBroker.self) else { return }
    forgetCachedStatementsThatDelete()
    broker.remove(transactionObserver)
  }

  /// Tells observers of changes SQLite can not report: writes made through
  /// the C API on another connection, by another program, or to virtual
  /// tables. Observers that observe inserts, deletions or updates of any
  /// column of a table of `region` (every table for
  /// ``DatabaseRegion/fullDatabase``) hear
  /// ``TransactionObserver/databaseDidChange()``; inside a transaction they
  /// then hear of its commit or rollback, and outside of one the commit is
  /// reported at once. Tables that do not exist, and views, are ignored; so
  /// are rowids (a change to one row is a change to its table). Read-only
  /// accesses notify nothing.
  public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
    guard let broker = existingState(for: DatabaseObservationBroker.self) else { return }
    guard !isReadOnly else { return }
    let region = try region.databaseRegion(self).existingTables(self)
    broker.notifyChanges(in: region, tableNames: nil)
  }

  /// Runs `onCommit` after the next transaction commits, or `onRollback`
  /// after it rolls back.
  public func afterNextTransaction(
    onCommit: @escaping (Database) -> Void, onRollback: @escaping (Database) -> Void = { _ in }
  ) {
    add(
      transactionObserver: NextTransactionObserver(onCommit: onCommit, onRollback: onRollback),
      extent: .nextTransaction)
  }

  /// Runs `body` and adds the region of every statement it runs to `region`.
  ///
  ///     var region = DatabaseRegion()
  ///     let players = try db.recordingSelection(&region) { try Player.fetchAll(db) }
  ///     // region is player(*)
  public func recordingSelection<T>(_ region: inout DatabaseRegion, _ body: () throws -> T) rethrows -> T {
    let broker = observationBroker
    let previous = broker.recordedRegion
    broker.recordedRegion = DatabaseRegion()
    defer {
      let recorded = broker.recordedRegion ?? DatabaseRegion()
      region.formUnion(recorded)
      broker.recordedRegion = previous.map { $0.union(recorded) }
    }
    return try body()
  }
}

/// The observer behind ``Database/afterNextTransaction(onCommit:onRollback:)``.
private final class NextTransactionObserver: TransactionObserver {
  let onCommit: (Database) -> Void
  let onRollback: (Database) -> Void

  init(onCommit: @escaping (Database) -> Void, onRollback: @escaping (Database) -> Void) {
    self.onCommit = onCommit
    self.onRollback = onRollback
  }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
  func databaseDidChange(with event: DatabaseEvent) {}
  func databaseDidCommit(_ db: Database) { onCommit(db) }
  func databaseDidRollback(_ db: Database) { onRollback(db) }
}

extension DatabaseWriter {
  /// Adds a transaction observer to the writer connection (see
  /// ``Database/add(transactionObserver:extent:)``). Safe to call from inside
  /// an access of this writer.
  public func add(
    transactionObserver: some TransactionObserver,
    extent: TransactionObservationExtent = .observerLifetime
  ) {
    _ = try? withWriterConnection { db in db.add(transactionObserver: transactionObserver, extent: extent) }
  }

  /// Removes a transaction observer from the writer connection.
  public func remove(transactionObserver: some TransactionObserver) {
    _ = try? withWriterConnection { db in db.remove(transactionObserver: transactionObserver) }
  }

  /// Runs `body` on the writer connection, inside the current access if
  /// called from one.
  func withWriterConnection<T>(_ body: (Database) throws -> T) throws -> T {
    if let holder = self as? any SerializedWriterHolder {
      return try holder.writer.reentrantSync(body)
    }
    return try writeWithoutTransaction(body)
  }
}

/// Queues and pools: their writer connection, for observation.
protocol SerializedWriterHolder {
  var writer: SerializedDatabase { get }
}

extension DatabaseQueue: SerializedWriterHolder {}
extension DatabasePool: SerializedWriterHolder {}
