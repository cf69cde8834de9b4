// Deleting the rows of a request and fetching them in the same statement
// (DELETE … RETURNING, SQLite 3.35: older SQLite throws a
// `SQLiteFeatureError`, see QueryInterface/QueryInterfaceRequest+Returning.swift).

extension QueryInterfaceRequest where RowDecoder: TableRecord {
  /// A statement that deletes the rows the request selects, and yields the
  /// values of the selection `select` builds from the record's columns:
  ///
  ///     let statement = try Player.filter { $0.score < 10 }
  ///       .deleteAndFetchStatement(db) { [$0.name] }
  ///     let names = try String.fetchAll(statement)
  ///
  /// See ``QueryInterfaceRequest/deleteAndFetchStatement(_:selection:)``.
  public func deleteAndFetchStatement(
    _ db: Database, select: (DatabaseComponents) throws -> [any SQLSelectable]
  ) throws -> Statement {
    try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
  }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
  /// Deletes the rows the request selects, and returns a cursor over the
  /// deleted records (the record's ``TableRecord/databaseSelection``, as the
  /// rows were before deletion). Every row is deleted at the cursor's first
  /// step. Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
    try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
  }

  /// Deletes the rows the request selects, and returns the deleted records:
  ///
  ///     let deleted = try Player.filter { $0.score < 10 }.deleteAndFetchAll(db)
  ///
  /// Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder] {
    try Array(deleteAndFetchCursor(db))
  }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord & Hashable {
  /// Deletes the rows the request selects, and returns the set of the
  /// deleted records. Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder> {
    try Set(deleteAndFetchCursor(db))
  }
}

extension QueryInterfaceRequest
where
  RowDecoder: TableRecord & Identifiable,
  RowDecoder.ID: Hashable & DatabaseValueConvertible & StatementColumnConvertible
{
  /// Deletes the rows the request selects, and returns the ids of the
  /// deleted records:
  ///
  ///     let ids = try Player.filter { $0.score < 10 }.deleteAndFetchIds(db)
  ///
  /// Needs SQLite 3.35, else throws a ``SQLiteFeatureError``.
  ///
  /// - precondition: the table's primary key is a single column (or the rowid).
  public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID> {
    let primaryKey = try db.primaryKey(RowDecoder.databaseTableName)
    precondition(
      primaryKey.columns.count == 1,
      "Fetching id requires a single-column primary key in the table \(RowDecoder.databaseTableName)")
    let statement = try deleteAndFetchStatement(db, selection: [Column(primaryKey.columns[0])])
    return try RowDecoder.ID.fetchSet(statement)
  }
}
