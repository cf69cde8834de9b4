// Edits of a relation that need the database: `orderWhenConnected`,
// `selectWhenConnected`, `orderByPrimaryKey()`… (the primary key is read
// from the schema). They are kept in order and applied when the request
// runs; once a relation has one, later edits queue behind it, so that
// `orderByPrimaryKey().reversed()` reverses the primary key ordering. A
// relation without deferred edits is edited at once, as before: building a
// request costs no closure unless it asks for one.

extension SQLRelation {
  /// An edit applied when the request runs.
  typealias DeferredEdit = @Sendable (Database, inout SQLRelation) throws -> Void

  /// Applies `change` now, or after the deferred edits already queued.
  mutating func edit(_ change: @escaping @Sendable (inout SQLRelation) -> Void) {
    if deferredEdits.isEmpty {
      change(&self)
    } else {
      deferredEdits.append { _, relation in change(&relation) }
    }
  }

  /// Queues `change`, applied with the database when the request runs.
  mutating func editWhenConnected(_ change: @escaping DeferredEdit) {
    deferredEdits.append(change)
  }

  /// True if the relation has edits to apply or filters to build before its
  /// SQL is looked up (see ``QueryInterfaceRequest/makePreparedRequest(_:forSingleResult:)``).
  /// (No `||`: its autoclosure copies the relation in a debug build, ten
  /// retains and releases at every request, which the allocation tests count.)
  var needsBuildingBeforeShape: Bool {
    if hasDeferredFilters { return true }
    return hasDeferredEdits
  }

  /// The relation with its deferred filters built: each runs once, as the
  /// SQL generation would run it.
  func withFiltersBuilt(_ db: Database) throws -> SQLRelation {
    guard hasDeferredFilters else { return self }
    var relation = self
    // Only a built filter that depends on its table can change the form of
    // the SQL: the others (a primary key's `id = ?`, `id IN (…)`) skip the
    // comparison below, two visits of every expression of the relation.
    var mayChangeForm = false
    relation.filters = try filters.map { filter in
      guard case .deferred(let build) = filter else { return filter }
      let built = try build(db)
      if !mayChangeForm && built.isDependent { mayChangeForm = true }
      return .expression(built)
    }
    relation.hasDeferredFilters = false
    // The SQL of a relation takes some of its form before its deferred filters
    // are built (qualified columns, a first rendering for association
    // aggregates): a built filter that would change it (a full-text MATCH on
    // the table itself) is left to the rendering, as GRDB renders it.
    if mayChangeForm {
      guard
        relation.needsQualifiedColumns == needsQualifiedColumns,
        relation.mayHaveAggregates == mayHaveAggregates
      else { return self }
    }
    return relation
  }

  /// The relation with its deferred edits applied and its deferred filters
  /// built: what a request looks its SQL up with (see
  /// ``QueryInterfaceRequest/makePreparedRequest(_:forSingleResult:)``). A
  /// relation without deferred edits is not copied by `resolved` first.
  func resolvedWithFiltersBuilt(_ db: Database) throws -> SQLRelation {
    if hasDeferredEdits { return try resolved(db).withFiltersBuilt(db) }
    return try withFiltersBuilt(db)
  }

  /// True if this relation, or a joined one, has edits to apply.
  var hasDeferredEdits: Bool {
    !deferredEdits.isEmpty || joins.contains { $0.relation.hasDeferredEdits }
  }

  /// The relation with every deferred edit applied, its joins' included.
  /// Prefetched associations resolve their own relations when they run.
  func resolved(_ db: Database) throws -> SQLRelation {
    guard hasDeferredEdits else { return self }
    var relation = self
    relation.deferredEdits = []
    for change in deferredEdits { try change(db, &relation) }
    for index in relation.joins.indices {
      relation.joins[index].relation = try relation.joins[index].relation.resolved(db)
    }
    return relation
  }
}

// The `…WhenConnected` builders of the request protocols, shared by requests
// and associations: each queues what it builds until the request runs.
extension SQLRelation {
  /// Adds a filter built when the request runs.
  mutating func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
  {
    filters.append(.deferred { db in try predicate(db).sqlExpression })
    hasDeferredFilters = true
  }

  /// Adds a `HAVING` filter built when the request runs.
  mutating func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible)
  {
    havingFilters.append(.deferred { db in try predicate(db).sqlExpression })
  }

  /// Replaces the grouping, when the request runs.
  mutating func groupWhenConnected(
    _ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]
  ) {
    editWhenConnected { db, relation in relation.grouping = try expressions(db).map(\.sqlExpression) }
  }

  /// Replaces the ordering (and forgets a reversal), when the request runs.
  mutating func orderWhenConnected(
    _ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]
  ) {
    editWhenConnected { db, relation in
      relation.ordering = try orderings(db).map(\.sqlOrdering)
      relation.isReversed = false
    }
  }

  /// Appends the primary key to the ordering, when the request runs.
  mutating func stabilizeOrderWhenConnected() {
    editWhenConnected { db, relation in try relation.stabilizeOrder(db) }
  }

  /// Replaces the selection, when the request runs.
  mutating func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
  {
    editWhenConnected { db, relation in relation.selection = try selection(db).map(\.sqlSelection) }
  }

  /// Appends to the selection, when the request runs.
  mutating func annotateWhenConnected(
    _ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]
  ) {
    editWhenConnected { db, relation in relation.selection += try selection(db).map(\.sqlSelection) }
  }
}
