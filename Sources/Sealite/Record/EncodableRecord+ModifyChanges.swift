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
  /// values of `old` (`NULL` for a column `old` does not have).
  func changes(from old: PersistenceContainer) -> [String: DatabaseValue] {
    var changes: [String: DatabaseValue] = [:]
    for (column, value) in zip(columns, values) {
      let oldValue = old.databaseValue(forColumn: column)
      if oldValue.map({ !$0.isIdentical(to: value) }) ?? true { changes[column] = oldValue ?? .null }
    }
    return changes
  }
}
