/// The savepoints open in the current transaction, and the changes made since
/// the first of them began: observers hear of a change only once it can
/// still commit. Releasing the outermost savepoint delivers the held changes;
/// rolling back to a savepoint forgets the changes made after it.
///
/// SQLite compares savepoint names without case, and releases or rolls back
/// the most recent savepoint of a name (<https://www.sqlite.org/lang_savepoint.html>).
struct SavepointStack {
  /// A change held back, and the observations of the statement that made it.
  enum Change {
    /// A row reported by the update hook.
    case row(DatabaseEvent, [StatementObservation])
    /// A table whose rows SQLite does not report one by one (`WITHOUT ROWID`).
    case table(String, [StatementObservation])
  }

  /// The changes held back, oldest first.
  private(set) var changes: [Change] = []
  /// Open savepoints, innermost last, with the number of changes held when
  /// each began.
  private var savepoints: [(name: String, changeCount: Int)] = []

  /// True if no savepoint is open: changes are then told at once.
  var isEmpty: Bool { savepoints.isEmpty }

  /// True if `name` is the outermost open savepoint, or one this stack never
  /// saw begin (it began before the connection had observers).
  func isOutermost(_ name: String?) -> Bool {
    guard let name = name?.nameKey, let index = savepoints.lastIndex(where: { $0.name == name }) else {
      return true
    }
    return index == 0
  }

  mutating func hold(_ change: Change) {
    changes.append(change)
  }

  /// Returns the held changes, and forgets every savepoint.
  mutating func removeAll() -> [Change] {
    defer {
      changes = []
      savepoints = []
    }
    return changes
  }

  mutating func savepointDidBegin(_ name: String?) {
    savepoints.append((name: name?.nameKey ?? "", changeCount: changes.count))
  }

  /// The savepoint stays open, emptied of its changes; the ones opened after
  /// it are gone.
  mutating func savepointDidRollBack(_ name: String?) {
    let name = name?.nameKey ?? ""
    while let last = savepoints.last, last.name != name { savepoints.removeLast() }
    if let last = savepoints.last {
      changes.removeLast(changes.count - last.changeCount)
    } else {
      changes = []
    }
  }

  /// The savepoint and the ones opened after it are gone; their changes now
  /// belong to the savepoint around them, or to the transaction.
  mutating func savepointDidRelease(_ name: String?) {
    let name = name?.nameKey ?? ""
    while let last = savepoints.last, last.name != name { savepoints.removeLast() }
    if !savepoints.isEmpty { savepoints.removeLast() }
  }
}
