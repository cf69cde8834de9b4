// Associations adopt the request protocols: every refinement edits the
// relation of the destination table.

extension Association {
  public var databaseTableName: String { sqlAssociation.destination.tableName }

  public func _aliased(_ alias: TableAliasBase) -> Self {
    // At once, even behind deferred edits: joins read the alias when added.
    var association = self
    association.sqlAssociation.destination.rename(to: alias)
    return association
  }

  public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
    -> Self
  {
    mapDestination { $0.filterWhenConnected(predicate) }
  }

  public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
    -> Self
  {
    mapDestination { $0.havingWhenConnected(predicate) }
  }

  public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible])
    -> Self
  {
    withDestination { $0.groupWhenConnected(expressions) }
  }

  public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm])
    -> Self
  {
    withDestination { $0.orderWhenConnected(orderings) }
  }

  /// The association with its ordering reversed: in prefetched to-many
  /// associations, and where a joined table's ordering follows the origin's.
  public func reversed() -> Self {
    mapDestination { $0.isReversed.toggle() }
  }

  /// The association without any ordering.
  public func unordered() -> Self {
    mapDestination {
      $0.ordering = []
      $0.isReversed = false
    }
  }

  public func withStableOrder() -> Self {
    withDestination { $0.stabilizeOrderWhenConnected() }
  }

  public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
    -> Self
  {
    withDestination { $0.selectWhenConnected(selection) }
  }

  public func annotatedWhenConnected(
    with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]
  ) -> Self {
    withDestination { $0.annotateWhenConnected(selection) }
  }

  /// The association with its destination relation changed now, even
  /// behind deferred edits: the `…WhenConnected` changes queue their own work.
  private func withDestination(_ change: (inout SQLRelation) -> Void) -> Self {
    var association = self
    change(&association.sqlAssociation.destination)
    return association
  }

  public func _including(all association: SQLAssociation) -> Self {
    mapDestination { $0.addPrefetch(association) }
  }

  public func _including(optional association: SQLAssociation) -> Self {
    mapDestination { $0.add(association, kind: .left, isIncluded: true) }
  }

  public func _including(required association: SQLAssociation) -> Self {
    mapDestination { $0.add(association, kind: .inner, isIncluded: true) }
  }

  public func _joining(optional association: SQLAssociation) -> Self {
    mapDestination { $0.add(association, kind: .left, isIncluded: false) }
  }

  public func _joining(required association: SQLAssociation) -> Self {
    mapDestination { $0.add(association, kind: .inner, isIncluded: false) }
  }
}
