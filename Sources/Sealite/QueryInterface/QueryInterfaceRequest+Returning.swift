// DELETE and UPDATE statements that return what they changed (RETURNING,
// SQLite 3.35). On an older SQLite, compiling one throws the
// `SQLiteFeatureError` that names the capability: no fallback reads the rows
// apart from the statement, as it could not return exactly the rows
// RETURNING would (rows an `OR IGNORE` skipped, values AFTER triggers wrote,
// rows whose key the update changed).

extension QueryInterfaceRequest {
  /// A statement that deletes the rows the request selects, and yields the
  /// values of `selection` for each deleted row, as it was before deletion:
  ///
  ///     let statement = try Player.filter(Column("score") < 10)
  ///       .deleteAndFetchStatement(db, selection: [Column("name")])
  ///     let names = try String.fetchAll(statement)
  ///
  /// The rows are deleted as the statement runs. It needs SQLite 3.35 (the
  /// ``SQLiteFeatures/Capability/returning`` capability); with an older
  /// SQLite it throws a ``SQLiteFeatureError``.
  ///
  /// - precondition: `selection` is not empty.
  public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
    precondition(!selection.isEmpty, "Invalid empty selection")
    let relation = try self.relation.resolved(db)
    let context = SQLGenerationContext(db: db)
    let sql =
      try relation.deleteSQL(db, context)
      + relation.returningClause(selection.map(\.sqlSelection), context)
    return try db.uncachedStatement(sql: sql, arguments: context.arguments)
  }

  /// A statement that updates the rows the request selects with
  /// `conflictResolution`, which the caller settled (the default depends on
  /// the record type), and yields the values of `selection` for each updated
  /// row, as the update left it.
  func makeUpdateAndFetchStatement(
    _ db: Database, conflictResolution: Database.ConflictResolution, _ assignments: [ColumnAssignment],
    selection: [any SQLSelectable]
  ) throws -> Statement {
    precondition(!selection.isEmpty, "Invalid empty selection")
    precondition(!assignments.isEmpty, "Invalid empty assignments")
    let relation = try self.relation.resolved(db)
    let context = SQLGenerationContext(db: db)
    let sql =
      try relation.updateSQL(db, context, conflictResolution: conflictResolution, assignments: assignments)
      + relation.returningClause(selection.map(\.sqlSelection), context)
    return try db.uncachedStatement(sql: sql, arguments: context.arguments)
  }
}

extension Database {
  /// A statement of its own (not cached: the caller runs it when it likes),
  /// with its arguments bound.
  fileprivate func uncachedStatement(sql: String, arguments: StatementArguments?) throws -> Statement {
    let statement = try makeStatement(sql: sql)
    try statement.setArguments(arguments ?? StatementArguments())
    return statement
  }
}
