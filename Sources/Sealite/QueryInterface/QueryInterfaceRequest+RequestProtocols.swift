// QueryInterfaceRequest adopts the request protocols. Its own `filter`,
// `order`, `select`… edit the relation at once; the `…WhenConnected`
// requirements defer to when the request runs.

extension QueryInterfaceRequest: DerivableRequest {
  public var databaseTableName: String { relation.tableName }

  public func _aliased(_ alias: TableAliasBase) -> Self {
    var request = self
    request.relation.rename(to: alias)
    return request
  }

  public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
    -> Self
  {
    withRelation { $0.filterWhenConnected(predicate) }
  }

  public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
    -> Self
  {
    withRelation { $0.havingWhenConnected(predicate) }
  }

  public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible])
    -> Self
  {
    withRelation { $0.groupWhenConnected(expressions) }
  }

  public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm])
    -> Self
  {
    withRelation { $0.orderWhenConnected(orderings) }
  }

  public func withStableOrder() -> Self {
    withRelation { $0.stabilizeOrderWhenConnected() }
  }

  public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
    -> Self
  {
    withRelation { $0.selectWhenConnected(selection) }
  }

  public func annotatedWhenConnected(
    with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]
  ) -> Self {
    withRelation { $0.annotateWhenConnected(selection) }
  }

  /// The request with its relation changed now (the `…WhenConnected`
  /// changes queue their own work).
  private func withRelation(_ change: (inout SQLRelation) -> Void) -> Self {
    var request = self
    change(&request.relation)
    return request
  }
}

extension SQLRelation {
  /// Appends the primary key to the ordering, and does the same in joined
  /// tables, so that two runs order rows the same way. A view has no
  /// primary key (unless a schema source gives one): it is then ordered by
  /// every selected column, by position.
  mutating func stabilizeOrder(_ db: Database) throws {
    var keyColumns: [String] = []
    do {
      keyColumns = try db.primaryKey(tableName).columns
    } catch {
      guard try db.viewExists(tableName) else { throw error }
    }
    if keyColumns.isEmpty {
      ordering += try (0..<selectionWidth(db)).map { SQL(sql: String($0 + 1)).sqlOrdering }
    } else {
      ordering += keyColumns.map { SQLExpression(.column($0, alias: nil)).sqlOrdering }
    }
    for index in joins.indices {
      joins[index].relation = try joins[index].relation.resolved(db)
      try joins[index].relation.stabilizeOrder(db)
    }
  }
}
