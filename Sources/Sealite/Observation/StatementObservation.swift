/// One observer's interest in the statement being run: which of the changes
/// the statement makes it hears of.
struct StatementObservation {
  /// The observer.
  let entry: TransactionObserverRegistry.Entry
  /// The writes of the statement the observer observes, or nil for all of
  /// them (the statement makes one kind of change, which it observes).
  let observedWrites: [StatementAuthorization.StatementWrite]?
  /// Every write the authorizer reported for the statement.
  let advertisedWrites: [StatementAuthorization.StatementWrite]

  /// True if the observer hears of this row change. A change the authorizer
  /// did not announce (virtual tables write their shadow tables) reaches
  /// every observer of the statement.
  func tracks(_ event: DatabaseEvent) -> Bool {
    guard let observedWrites else { return true }
    if observedWrites.contains(where: { $0.matches(event) }) { return true }
    return !advertisedWrites.contains { $0.matches(event) }
  }

  /// True if the observer observes writes of `table` (its name key).
  func observesTable(_ table: String) -> Bool {
    (observedWrites ?? advertisedWrites).contains { $0.tableName.nameKey == table }
  }
}

extension StatementAuthorization.StatementWrite {
  /// True if the row change is of this kind, in this table.
  func matches(_ event: DatabaseEvent) -> Bool {
    let sameKind: Bool =
      switch (kind, event.kind) {
      case (.insert, .insert), (.delete, .delete), (.update, .update): true
      default: false
      }
    return sameKind && tableName.sameName(as: event.tableName)
  }
}
