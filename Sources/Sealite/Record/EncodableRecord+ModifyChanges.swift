extension EncodableRecord {
  /// Modifies the record with `modify`, and returns the columns whose values
  /// changed, with their values before the change.
  ///
  ///     var player = Player(id: 1, score: 1000, hasAward: false)
  ///     let changes = try player.databaseChanges {
  ///       $0.score = 1000
  ///       $0.hasAward = true
  ///     }
  ///     // player.hasAward is true
  ///     // changes == ["hasAward": false.databaseValue] ("score" did not change)
  ///
  /// The record keeps the modifications even when the closure or the
  /// encoding of the record throws.
  public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue]
  {
    let original = try persistenceContainer()
    try modify(&self)
    return try persistenceContainer().changes(from: original)
  }
}

extension PersistenceContainer {
  /// The columns of this container whose values differ from `old`'s, with the
  /// values of `old`. As in GRDB, a column `old` does not have is `NULL`
  /// there, and values compare as `DatabaseValue`'s `==` compares them (the
  /// integer 1 and the real 1.0 are equal).
  func changes(from old: PersistenceContainer) -> [String: DatabaseValue] {
    var changes: [String: DatabaseValue] = [:]
    for (column, value) in zip(columns, values) {
      let oldValue = old.databaseValue(forColumn: column) ?? .null
      if !oldValue.equalsForChanges(value) { changes[column] = oldValue }
    }
    return changes
  }
}

extension DatabaseValue {
  /// Equality for change tracking: `==` (1 equals 1.0, as in GRDB), and a
  /// NaN equals a NaN, so that a record that holds one is not changed by
  /// being read back.
  func equalsForChanges(_ other: DatabaseValue) -> Bool {
    if self == other { return true }
    if case .double(let a) = storage, case .double(let b) = other.storage { return a.isNaN && b.isNaN }
    return false
  }
}
