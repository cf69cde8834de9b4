/// The transaction observers of one connection, and how long each is kept.
///
/// Guarded by the connection's queue: the broker that owns it only runs while
/// the connection is used (statements, SQLite's hooks, `add`/`remove`), so no
/// lock is needed.
final class TransactionObserverRegistry {
  /// An observer, and how long the registry keeps it.
  final class Entry {
    weak var weakObserver: (any TransactionObserver)?
    var strongObserver: (any TransactionObserver)?
    let extent: TransactionObservationExtent
    /// False between `stopObservingDatabaseChangesUntilNextTransaction()`
    /// and the end of the transaction.
    var isEnabled = true

    init(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
      self.extent = extent
      if extent == .observerLifetime {
        weakObserver = observer
      } else {
        strongObserver = observer
      }
    }

    var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }

    /// The observer, forgotten first when it observes the next transaction
    /// only: nothing it does when told of the end reaches it again.
    func takeObserverForTransactionEnd() -> (any TransactionObserver)? {
      guard extent == .nextTransaction else { return observer }
      defer { strongObserver = nil }
      return strongObserver
    }
  }

  private(set) var entries: [Entry] = []

  func add(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
    entries.append(Entry(observer, extent: extent))
  }

  /// Removes `observer`, and the entries of observers that are gone.
  func remove(_ observer: any TransactionObserver) {
    entries.removeAll { $0.observer == nil || $0.observer === observer }
  }

  /// True if an observer is still alive: SQLite's hooks are needed.
  var hasObservers: Bool { entries.contains { $0.observer != nil } }

  /// True if no entry is registered, alive or not.
  var isEmpty: Bool { entries.isEmpty }

  /// Stops telling `observer` of changes until the transaction ends.
  func disable(_ observer: any TransactionObserver) {
    for entry in entries where entry.observer === observer {
      entry.isEnabled = false
    }
  }

  /// The entries whose observer is alive, with it.
  func liveEntries() -> [(Entry, any TransactionObserver)] {
    entries.compactMap { entry in entry.observer.map { (entry, $0) } }
  }

  /// True if `entry` was not removed since it was looked up (a change held
  /// back by a savepoint skips observers removed meanwhile).
  func contains(_ entry: Entry) -> Bool {
    entries.contains { $0 === entry }
  }

  /// True if an observer observes changes of `kind`.
  func observes(_ kind: DatabaseEventKind) -> Bool {
    entries.contains { $0.observer?.observes(eventsOfKind: kind) ?? false }
  }

  /// The observers interested in a statement that performs these writes. A
  /// statement that makes one kind of change (no trigger, no foreign key
  /// action) reports all its changes to the observers of that kind; otherwise
  /// each observer hears of the kinds it observes only.
  func observations(of writes: [StatementAuthorization.StatementWrite]) -> [StatementObservation] {
    let kinds = writes.map(\.eventKind)
    return liveEntries().compactMap { entry, observer in
      guard entry.isEnabled else { return nil }
      if writes.count == 1 {
        guard observer.observes(eventsOfKind: kinds[0]) else { return nil }
        return StatementObservation(entry: entry, observedWrites: nil, advertisedWrites: writes)
      }
      let observed = zip(writes, kinds).filter { observer.observes(eventsOfKind: $0.1) }.map(\.0)
      guard !observed.isEmpty else { return nil }
      return StatementObservation(entry: entry, observedWrites: observed, advertisedWrites: writes)
    }
  }

  /// The observers to tell that the transaction ended; those registered for
  /// the next transaction only are forgotten as they are returned.
  func takeObserversForTransactionEnd() -> [any TransactionObserver] {
    entries.compactMap { $0.takeObserverForTransactionEnd() }
  }

  /// Forgets observers that are gone (deallocated, or registered for one
  /// transaction and told of its end), and enables the others again.
  func transactionDidEnd() {
    entries.removeAll { $0.observer == nil }
    for entry in entries { entry.isEnabled = true }
  }
}
