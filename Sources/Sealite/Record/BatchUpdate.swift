// swift-format-ignore-file: AmbiguousTrailingClosureOverload
// (GRDB names the closure forms `assignment:` and `assignments:`.)

// `updateAll` on requests, tables and record types, with GRDB's default
// conflict resolution. It lives in the Record layer because the default
// depends on the record type: the request layer runs the update with the
// resolution settled here (`executeUpdate`).

extension QueryInterfaceRequest {
  /// The conflict resolution of a batch update that names none: the record
  /// type's ``PersistenceConflictPolicy/conflictResolutionForUpdate`` when
  /// the request fetches a ``MutablePersistableRecord``, else ABORT.
  ///
  /// The type is checked at run time, as GRDB does: a generic function that
  /// updates a `QueryInterfaceRequest<T>` gets the same default as code that
  /// names the record type.
  var defaultConflictResolutionForUpdate: Database.ConflictResolution {
    guard let recordType = RowDecoder.self as? any MutablePersistableRecord.Type else { return .abort }
    return recordType.persistenceConflictPolicy.conflictResolutionForUpdate
  }

  /// Updates the rows the request selects; returns how many changed.
  ///
  ///     try Player.filter(Column("team") == "red").updateAll(db, [Column("score").set(to: 0)])
  ///     try Player.all().updateAll(db, onConflict: .ignore, [Column("email").set(to: nil)])
  ///
  /// - parameters:
  ///   - db: the connection to write with.
  ///   - conflictResolution: what SQLite does when an updated row violates a
  ///     constraint (`UPDATE OR IGNORE …`). The default is the record type's
  ///     ``MutablePersistableRecord/persistenceConflictPolicy`` when the
  ///     request fetches a ``MutablePersistableRecord``, else ABORT.
  ///   - assignments: the columns to set. With none, nothing runs and the
  ///     result is 0.
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment]
  ) throws -> Int {
    try executeUpdate(
      db, conflictResolution: conflictResolution ?? defaultConflictResolutionForUpdate, assignments)
  }

  /// Updates the rows the request selects; returns how many changed.
  ///
  ///     try Player.filter(Column("team") == "red").updateAll(db, Column("score") += 10)
  ///
  /// The default conflict resolution is the one of the form that takes an
  /// array of assignments.
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: ColumnAssignment...
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, assignments)
  }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
  /// Updates the rows the request selects with the assignment built from the
  /// record's columns; returns how many changed.
  ///
  ///     try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 10 }
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignment: (DatabaseComponents) throws -> ColumnAssignment
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
  }

  /// Updates the rows the request selects with the assignments built from
  /// the record's columns; returns how many changed.
  ///
  ///     try Player.all().updateAll(db) { [$0.score.set(to: 0), $0.bonus.set(to: nil)] }
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment]
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
  }
}

extension Table {
  /// Updates every row of the table; returns how many changed. The default
  /// conflict resolution is the record type's
  /// ``MutablePersistableRecord/persistenceConflictPolicy`` when the table
  /// fetches a ``MutablePersistableRecord``, else ABORT.
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment]
  ) throws -> Int {
    try all().updateAll(db, onConflict: conflictResolution, assignments)
  }

  /// Updates every row of the table; returns how many changed:
  /// `try Table("player").updateAll(db, Column("score").set(to: 0))`.
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: ColumnAssignment...
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, assignments)
  }
}

extension Table where RowDecoder: TableRecord {
  /// Updates every row of the table with the assignment built from the
  /// record's columns; returns how many changed.
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignment: (DatabaseComponents) throws -> ColumnAssignment
  ) throws -> Int {
    try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
  }

  /// Updates every row of the table with the assignments built from the
  /// record's columns; returns how many changed.
  @discardableResult
  public func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment]
  ) throws -> Int {
    try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
  }
}

extension TableRecord {
  /// Updates every row of the table; returns how many changed:
  /// `try Player.updateAll(db, [Column("score").set(to: 0)])`. The default
  /// conflict resolution is the record's
  /// ``MutablePersistableRecord/persistenceConflictPolicy`` for a persistable
  /// record, else ABORT.
  @discardableResult
  public static func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment]
  ) throws -> Int {
    try all().updateAll(db, onConflict: conflictResolution, assignments)
  }

  /// Updates every row of the table; returns how many changed:
  /// `try Player.updateAll(db, Column("score") += 10)`.
  @discardableResult
  public static func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: ColumnAssignment...
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, assignments)
  }

  /// Updates every row of the table with the assignment built from the
  /// record's columns; returns how many changed:
  /// `try Player.updateAll(db) { $0.score.set(to: 0) }`.
  @discardableResult
  public static func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignment: (DatabaseComponents) throws -> ColumnAssignment
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, [assignment(databaseComponents)])
  }

  /// Updates every row of the table with the assignments built from the
  /// record's columns; returns how many changed.
  @discardableResult
  public static func updateAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment]
  ) throws -> Int {
    try updateAll(db, onConflict: conflictResolution, assignments(databaseComponents))
  }
}
