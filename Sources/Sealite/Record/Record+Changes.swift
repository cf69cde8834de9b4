extension Record {
  /// True if a column differs from the values last fetched or saved, or if
  /// there are none (a new or deleted record).
  ///
  ///     let player = try Player.fetchOne(db, key: 1)!
  ///     player.hasDatabaseChanges  // false
  ///     player.name = "Barbara"
  ///     player.hasDatabaseChanges  // true
  ///
  /// A record that can not be encoded counts as changed.
  public var hasDatabaseChanges: Bool {
    guard let changes = try? changedColumns(stoppingAtFirst: true) else { return true }
    return !changes.isEmpty
  }

  /// The changed columns, each with its value last fetched or saved: nil
  /// when there is none.
  ///
  ///     player.name = "Barbara"
  ///     try player.databaseChanges  // ["name": "Arthur"]
  ///     try Player(name: "Cleo").databaseChanges  // ["id": nil, "name": nil]
  public var databaseChanges: [String: DatabaseValue?] {
    get throws {
      Dictionary(try changedColumns(stoppingAtFirst: false), uniquingKeysWith: { first, _ in first })
    }
  }

  /// Updates the changed columns, and returns whether there was one: without
  /// changes, no statement runs.
  ///
  ///     player.name = "Barbara"
  ///     try player.updateChanges(db)  // true: UPDATE player SET name = 'Barbara' WHERE id = 1
  ///     try player.updateChanges(db)  // false: nothing to write
  ///
  /// Throws ``RecordError/recordNotFound(databaseTableName:key:)`` when no
  /// row has the record's primary key.
  @discardableResult
  public final func updateChanges(_ db: Database) throws -> Bool {
    let columns = Set(try databaseChanges.keys)
    if columns.isEmpty { return false }
    // Called on `self` here, the protocol methods would be generic over
    // `Record`, and read its `databaseTableName`: open the dynamic class.
    let dynamicType: any PersistableRecord.Type = type(of: self)
    try update(db, columns: columns, as: dynamicType)
    return true
  }

  private func update<Subclass: PersistableRecord>(
    _ db: Database, columns: Set<String>, as subclass: Subclass.Type
  ) throws {
    // `self` is an instance of `Subclass`, which `type(of:)` gave.
    // swift-format-ignore: NeverForceUnwrap
    try (self as! Subclass).update(db, columns: columns)
  }

  /// The columns whose value differs from the reference row's, in the order
  /// `encode(to:)` writes them; the first one only when that is all the caller
  /// needs to know.
  private func changedColumns(stoppingAtFirst: Bool) throws -> [(String, DatabaseValue?)] {
    let container = try persistenceContainer()
    var changes: [(String, DatabaseValue?)] = []
    for (column, value) in zip(container.columns, container.values) {
      guard let reference = referenceRow, let index = reference.index(forColumn: column) else {
        changes.append((column, nil))
        if stoppingAtFirst { break }
        continue
      }
      // As GRDB compares them: 1 and 1.0 are no change (a REAL column reads
      // back the integer its record wrote as a real).
      let old = reference.databaseValue(atUncheckedIndex: index)
      if !old.equalsForChanges(value) {
        changes.append((column, old))
        if stoppingAtFirst { break }
      }
    }
    return changes
  }
}

extension Row {
  /// The row of the values a record wrote: the reference values of a saved
  /// ``Record``.
  convenience init(_ container: PersistenceContainer) {
    self.init(layout: RowLayout(names: container.columns), values: ContiguousArray(container.values))
  }
}
