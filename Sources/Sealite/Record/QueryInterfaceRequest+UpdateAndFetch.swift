// swift-format-ignore-file: AmbiguousTrailingClosureOverload
// (GRDB names the closure forms `assignments:` and `select:`.)

// Updating the rows of a request and fetching them in the same statement
// (UPDATE … RETURNING, SQLite 3.35: older SQLite throws a
// `SQLiteFeatureError`, see QueryInterface/QueryInterfaceRequest+Returning.swift).
// The conflict resolution defaults as `updateAll`'s does (BatchUpdate.swift).

extension QueryInterfaceRequest {
  /// A statement that updates the rows the request selects, and yields the
  /// values of `selection` for each updated row, as the update left it:
  ///
  ///     let statement = try Player.filter(Column("team") == "red")
  ///       .updateAndFetchStatement(db, [Column("score") += 10], selection: [Column("score")])
  ///     let scores = try Int.fetchAll(statement)
  ///
  /// The rows are updated as the statement runs. A row an `OR IGNORE`
  /// resolution skipped is not yielded. It needs SQLite 3.35 (the
  /// ``SQLiteFeatures/Capability/returning`` capability); with an older
  /// SQLite it throws a ``SQLiteFeatureError``.
  ///
  /// - parameters:
  ///   - db: the connection to write with.
  ///   - conflictResolution: the conflict resolution; by default the record
  ///     type's ``MutablePersistableRecord/persistenceConflictPolicy`` when
  ///     the request fetches a ``MutablePersistableRecord``, else ABORT.
  ///   - assignments: the columns to set; not empty.
  ///   - selection: the columns or expressions to yield; not empty.
  public func updateAndFetchStatement(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment], selection: [any SQLSelectable]
  ) throws -> Statement {
    try makeUpdateAndFetchStatement(
      db, conflictResolution: conflictResolution ?? defaultConflictResolutionForUpdate, assignments,
      selection: selection)
  }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
  /// A statement that updates the rows the request selects with the
  /// assignments `assignments` builds, and yields the values of the
  /// selection `select` builds, both from the record's columns:
  ///
  ///     let statement = try Player.all().updateAndFetchStatement(db) {
  ///       [$0.score += 10]
  ///     } select: {
  ///       [$0.score]
  ///     }
  ///
  /// See ``QueryInterfaceRequest/updateAndFetchStatement(_:onConflict:_:selection:)``.
  public func updateAndFetchStatement(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment],
    select: (DatabaseComponents) throws -> [any SQLSelectable]
  ) throws -> Statement {
    try updateAndFetchStatement(
      db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents),
      selection: select(RowDecoder.databaseComponents))
  }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
  /// Updates the rows the request selects, and returns a cursor over the
  /// updated records (the record's ``TableRecord/databaseSelection``, as the
  /// update left them). Every row is updated at the cursor's first step.
  /// Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  public func updateAndFetchCursor(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment]
  ) throws -> RecordCursor<RowDecoder> {
    let statement = try updateAndFetchStatement(
      db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection)
    return try RowDecoder.fetchCursor(statement)
  }

  /// Updates the rows the request selects with the assignments built from
  /// the record's columns, and returns a cursor over the updated records.
  public func updateAndFetchCursor(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment]
  ) throws -> RecordCursor<RowDecoder> {
    try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
  }

  /// Updates the rows the request selects, and returns the updated records:
  ///
  ///     let players = try Player.filter(Column("team") == "red")
  ///       .updateAndFetchAll(db, [Column("score") += 10])
  ///
  /// Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  public func updateAndFetchAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment]
  ) throws -> [RowDecoder] {
    try Array(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
  }

  /// Updates the rows the request selects with the assignments built from
  /// the record's columns, and returns the updated records:
  /// `try Player.all().updateAndFetchAll(db) { [$0.score += 10] }`.
  public func updateAndFetchAll(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment]
  ) throws -> [RowDecoder] {
    try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
  }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord & Hashable {
  /// Updates the rows the request selects, and returns the set of the
  /// updated records. Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  public func updateAndFetchSet(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    _ assignments: [ColumnAssignment]
  ) throws -> Set<RowDecoder> {
    try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
  }

  /// Updates the rows the request selects with the assignments built from
  /// the record's columns, and returns the set of the updated records.
  public func updateAndFetchSet(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    assignments: (DatabaseComponents) throws -> [ColumnAssignment]
  ) throws -> Set<RowDecoder> {
    try updateAndFetchSet(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
  }
}
