// QueryInterfaceRequest adopts the request protocols. Its own `filter`,
// `order`, `select`… edit the relation at once; the `…WhenConnected`
// requirements defer to when the request runs.

extension QueryInterfaceRequest: DerivableRequest {
  public var databaseTableName: String { relation.tableName }

  public func _aliased(_ alias: TableAliasBase) -> Self {
    var request = self
    request.relation.alias = alias
    return request
  }

  public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
    -> Self
  {
    var request = self
    request.relation.filters.append(.deferred { db in try predicate(db).sqlExpression })
    return request
  }

  public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
    -> Self
  {
    var request = self
    request.relation.havingFilters.append(.deferred { db in try predicate(db).sqlExpression })
    return request
  }

  public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible])
    -> Self
  {
    var request = self
    request.relation.editWhenConnected { db, relation in
      relation.grouping = try expressions(db).map(\.sqlExpression)
    }
    return request
  }

  public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm])
    -> Self
  {
    var request = self
    request.relation.editWhenConnected { db, relation in
      relation.ordering = try orderings(db).map(\.sqlOrdering)
      relation.isReversed = false
    }
    return request
  }

  public func withStableOrder() -> Self {
    var request = self
    request.relation.editWhenConnected { db, relation in try relation.stabilizeOrder(db) }
    return request
  }

  public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
    -> Self
  {
    var request = self
    request.relation.editWhenConnected { db, relation in
      relation.selection = try selection(db).map(\.sqlSelection)
    }
    return request
  }

  public func annotatedWhenConnected(
    with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]
  ) -> Self {
    var request = self
    request.relation.editWhenConnected { db, relation in
      relation.selection += try selection(db).map(\.sqlSelection)
    }
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
