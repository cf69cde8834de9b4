/// A request built with Swift methods instead of SQL:
///
///     let request = Player
///       .filter(Column("score") > 100)
///       .order(Column("score").desc)
///       .limit(10)
///     let players = try request.fetchAll(db)
///
/// Values become bound arguments and identifiers are quoted: no value ever
/// reaches the SQL text.
public struct QueryInterfaceRequest<RowDecoder>: FetchRequest, Sendable {
  var relation: SQLRelation

  init(relation: SQLRelation) {
    self.relation = relation
  }

  public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
    -> PreparedRequest
  {
    // The request's own relation when it has nothing to resolve: a resolved
    // copy of it is ten retains and ten releases, at every request. Filters
    // built when the request runs (`filterWhenConnected`) are built before
    // the SQL is looked up by the request's shape, which they would hide:
    // rendering the SQL again costs more than the copy. (A request's
    // `filter(key:)` keeps its values and needs nothing built.)
    if relation.needsBuildingBeforeShape {
      return try Self.makePreparedRequest(
        db, relation.resolvedWithFiltersBuilt(db), singleResult: singleResult)
    }
    return try Self.makePreparedRequest(db, relation, singleResult: singleResult)
  }

  private static func makePreparedRequest(_ db: Database, _ relation: SQLRelation, singleResult: Bool) throws
    -> PreparedRequest
  {
    // The cached statement, unless a cursor is iterating it.
    let (usable, arguments) = try relation.cachedSelectStatement(db, singleResult: singleResult)
    try usable.setArguments(arguments)
    var restriction: RowIDRestriction?
    if db.wantsRowIDRestrictions {
      restriction = try relation.selectedRowIDs(db)
      if relation.hasPrefetches, !relation.isEmptyByDefinition, restriction?.rowIDs.isEmpty != true {
        // A tracked fetch depends on the prefetched tables even when no
        // origin row is found and no prefetch runs: the first child row must
        // notify. A request that selects no row by its filters (`none()`)
        // depends on none of them, as in GRDB.
        db.recordTablesRead(relation.prefetchedTableNames)
      }
    }
    return PreparedRequest(
      statement: usable, supplementaryFetch: Self.supplementaryFetch(of: relation),
      adapter: try relation.scopeLayout(db), restriction: restriction, rowCountLimit: relation.limit?.limit)
  }

  /// Prefetches of `including(all:)`, set by the association layer.
  static func supplementaryFetch(of relation: SQLRelation) -> SupplementaryFetch? {
    relation.hasPrefetches
      ? { db, rows, watch in try relation.prefetch(db, into: rows, watch: watch) } : nil
  }

  /// True if the request selects no row. Asked with `SELECT EXISTS (…)`, as
  /// GRDB asks it: SQLite stops at the first row, where a count reads them all.
  public func isEmpty(_ db: Database) throws -> Bool {
    let relation = try self.relation.resolvedWithFiltersBuilt(db)
    let context = SQLGenerationContext(db: db)
    let sql = "SELECT EXISTS (\(try relation.selectSQL(db, context)))"
    return try Bool.fetchOne(db, sql: sql, arguments: context.arguments ?? StatementArguments()) != true
  }

  public func fetchCount(_ db: Database) throws -> Int {
    // Filters built when the request runs are built first, so that the
    // counting request has a shape (see makePreparedRequest).
    var relation = try self.relation.resolvedWithFiltersBuilt(db)
    // A selection that does not change the number of rows is counted with
    // `COUNT(*)`, and DISTINCT on one column with `COUNT(DISTINCT …)`, as
    // GRDB counts them; GROUP BY, LIMIT, joins and common table expressions
    // count the rows of the request as a subquery.
    if relation.grouping.isEmpty && relation.limit == nil && !relation.hasJoins && relation.ctes.isEmpty {
      if let counting = try relation.countingSelection(db) {
        // The relation itself becomes the counting request.
        relation.selection = counting
        relation.isDistinct = false
        relation.ordering = []
        relation.isReversed = false
        // Found by its shape, as other requests are: its SQL is rendered once.
        let (statement, arguments) = try relation.cachedSelectStatement(db, singleResult: false)
        return try Int.fetchOne(statement, arguments: arguments) ?? 0
      }
    }
    var counted = relation
    counted.ordering = []
    counted.isReversed = false
    let context = SQLGenerationContext(db: db)
    let sql = "SELECT COUNT(*) FROM (\(try counted.selectSQL(db, context)))"
    return try Int.fetchOne(db, sql: sql, arguments: context.arguments ?? StatementArguments()) ?? 0
  }

  // MARK: Filtering

  /// Keeps the rows that match `predicate`.
  public consuming func filter(_ predicate: some SQLExpressible) -> Self {
    var request = self
    request.relation.filters.append(.expression(predicate.sqlExpression))
    return request
  }

  /// Keeps the rows that match raw SQL.
  public consuming func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    filter(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Keeps the rows that match an SQL literal.
  public consuming func filter(literal: SQL) -> Self {
    filter(SQLExpression(literal: literal))
  }

  /// A request that fetches nothing.
  public consuming func none() -> Self {
    var request = self
    request.relation.isEmptyByDefinition = true
    return request
  }

  // MARK: Ordering

  /// Orders by the given terms, replacing any previous ordering.
  public consuming func order(_ orderings: any SQLOrderingTerm...) -> Self {
    order(orderings)
  }

  /// Orders by the given terms, replacing any previous ordering.
  public consuming func order(_ orderings: [any SQLOrderingTerm]) -> Self {
    var request = self
    let orderings = orderings.map { $0.sqlOrdering }
    request.relation.edit {
      $0.ordering = orderings
      $0.isReversed = false
    }
    return request
  }

  /// Orders by raw SQL.
  public consuming func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    order(SQL(sql: sql, arguments: arguments))
  }

  /// Orders by an SQL literal.
  public consuming func order(literal: SQL) -> Self {
    order(literal)
  }

  /// Adds orderings after the current ones.
  public consuming func thenOrder(_ orderings: any SQLOrderingTerm...) -> Self {
    var request = self
    let orderings = orderings.map { $0.sqlOrdering }
    request.relation.edit { $0.ordering += orderings }
    return request
  }

  /// Reverses the ordering; an unordered request is then ordered by primary
  /// key, descending.
  public consuming func reversed() -> Self {
    var request = self
    request.relation.edit { $0.isReversed.toggle() }
    return request
  }

  /// Removes any ordering.
  public consuming func unordered() -> Self {
    var request = self
    request.relation.edit {
      $0.ordering = []
      $0.isReversed = false
    }
    return request
  }

  // MARK: Selection

  /// Selects the given columns or expressions.
  public consuming func select(_ selection: any SQLSelectable...) -> Self {
    select(selection)
  }

  /// Selects the given columns or expressions.
  public consuming func select(_ selection: [any SQLSelectable]) -> Self {
    var request = self
    let selection = selection.map { $0.sqlSelection }
    request.relation.edit { $0.selection = selection }
    return request
  }

  /// Selects raw SQL.
  public consuming func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    select(SQL(sql: sql, arguments: arguments))
  }

  /// Selects an SQL literal.
  public consuming func select(literal: SQL) -> Self {
    select(literal)
  }

  /// Selects the given columns or expressions, fetched as `type`:
  /// `Player.select(max(Column("score")), as: Int.self)`.
  public consuming func select<T>(
    _ selection: any SQLSelectable..., as type: T.Type = T.self
  ) -> QueryInterfaceRequest<T> {
    select(selection).asRequest(of: T.self)
  }

  /// Selects the given columns or expressions, fetched as `type`.
  public consuming func select<T>(
    _ selection: [any SQLSelectable], as type: T.Type = T.self
  ) -> QueryInterfaceRequest<T> {
    select(selection).asRequest(of: T.self)
  }

  /// Selects an SQL literal, fetched as `type`.
  public consuming func select<T>(literal: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
    select(literal).asRequest(of: T.self)
  }

  /// Selects raw SQL, fetched as `type`.
  public consuming func select<T>(
    sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
  )
    -> QueryInterfaceRequest<T>
  {
    select(SQL(sql: sql, arguments: arguments)).asRequest(of: T.self)
  }

  /// Appends columns or expressions to the selection.
  public consuming func annotated(with selection: any SQLSelectable...) -> Self {
    annotated(with: selection)
  }

  /// Appends columns or expressions to the selection.
  public consuming func annotated(with selection: [any SQLSelectable]) -> Self {
    var request = self
    let selection = selection.map { $0.sqlSelection }
    request.relation.edit { $0.selection += selection }
    return request
  }

  /// Removes duplicate rows.
  public consuming func distinct() -> Self {
    var request = self
    request.relation.isDistinct = true
    return request
  }

  /// The same request, fetching another type.
  public consuming func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
    QueryInterfaceRequest<T>(relation: relation)
  }

  // MARK: Grouping and limits

  /// Groups rows by the given expressions.
  public consuming func group(_ expressions: any SQLExpressible...) -> Self {
    group(expressions)
  }

  /// Groups rows by the given expressions.
  public consuming func group(_ expressions: [any SQLExpressible]) -> Self {
    var request = self
    let grouping = expressions.map { $0.sqlExpression }
    request.relation.edit { $0.grouping = grouping }
    return request
  }

  /// Groups rows by raw SQL.
  public consuming func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    group(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Keeps the groups that match `predicate`.
  public consuming func having(_ predicate: some SQLExpressible) -> Self {
    var request = self
    request.relation.havingFilters.append(.expression(predicate.sqlExpression))
    return request
  }

  /// Keeps the groups that match raw SQL.
  public consuming func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    having(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Fetches at most `limit` rows, after skipping `offset`.
  public consuming func limit(_ limit: Int, offset: Int? = nil) -> Self {
    var request = self
    request.relation.limit = (limit, offset)
    return request
  }

  // MARK: Batch changes

  /// Deletes the rows the request selects; returns how many.
  @discardableResult
  public func deleteAll(_ db: Database) throws -> Int {
    if relation.needsBuildingBeforeShape {
      return try Self.execute(db, .delete, relation.resolvedWithFiltersBuilt(db))
    }
    return try Self.execute(db, .delete, relation)
  }

  /// Runs the DELETE or UPDATE of `relation`, its SQL found by its shape as
  /// a fetch's is (rendered once per connection); returns how many rows
  /// changed. The relation is the request's own when it has nothing to
  /// build: a copy of it is ten retains and ten releases.
  private static func execute(_ db: Database, _ write: ShapedWrite, _ relation: SQLRelation) throws -> Int {
    let (sql, arguments) = try relation.cachedWriteSQL(db, write) { context in
      switch write {
      case .delete:
        return try relation.deleteSQL(db, context)
      case .update(let conflictResolution, let assignments):
        return try relation.updateSQL(
          db, context, conflictResolution: conflictResolution, assignments: assignments)
      }
    }
    // SQLite does not count the rows that the INSTEAD OF triggers of a view
    // change (sqlite3_changes): a view counts every change of the statement,
    // as GRDB counts them. (Asked as "not a table": that answer is kept
    // until the schema changes.)
    if try !db.tableExists(relation.tableName) {
      let before = db.totalChangesCount
      try db.execute(sql: sql, arguments: arguments)
      return db.totalChangesCount - before
    }
    try db.execute(sql: sql, arguments: arguments)
    return db.changesCount
  }

  /// Updates the rows the request selects with `conflictResolution`, which
  /// the caller settled: GRDB's default depends on the record type, which
  /// this layer does not know (see Record/BatchUpdate.swift). Returns how many
  /// rows changed.
  func executeUpdate(
    _ db: Database, conflictResolution: Database.ConflictResolution, _ assignments: [ColumnAssignment]
  ) throws -> Int {
    guard !assignments.isEmpty else { return 0 }
    let write = ShapedWrite.update(conflictResolution, assignments)
    if relation.needsBuildingBeforeShape {
      return try Self.execute(db, write, relation.resolvedWithFiltersBuilt(db))
    }
    return try Self.execute(db, write, relation)
  }
}
