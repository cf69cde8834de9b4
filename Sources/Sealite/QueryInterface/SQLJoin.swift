/// A table joined to a request by an association. Filled in by the
/// association layer; the relation only renders it.
struct SQLJoin: Sendable {
  enum Kind: Sendable {
    case inner, left
  }

  var kind: Kind
  var relation: SQLRelation
  /// The ON condition, given the parent and child aliases.
  var condition:
    @Sendable (_ db: Database, _ parent: SQLTableAlias, _ child: SQLTableAlias) throws -> SQLExpression
  /// Whether the joined columns are selected (including) or not (joining).
  var isIncluded: Bool
  /// The scope name of the included columns in fetched rows.
  var key: String
  var isToMany: Bool
  /// Whether the joined columns are selected into the origin's own row
  /// (`annotated(withRequired:)`), rather than into a scope.
  var isAnnotation = false

  /// The same join, and its nested joins, filtering rows without selecting
  /// any column.
  func selectingNothing() -> SQLJoin {
    var join = self
    join.isIncluded = false
    join.isAnnotation = false
    join.relation.joins = relation.joins.map { $0.selectingNothing() }
    join.relation.prefetches = []
    return join
  }

  /// True if this join or a nested one selects columns.
  var includesColumns: Bool { isIncluded || relation.joins.contains { $0.includesColumns } }

  /// The selected columns of this join and of its nested joins, in order.
  func renderSelections(_ context: SQLGenerationContext) throws -> [String] {
    var selections: [String] = []
    if isIncluded && !isAnnotation {
      selections += try relation.selection.map { try $0.qualified(with: relation.alias).sql(context) }
    }
    for join in relation.joins { selections += try join.renderSelections(context) }
    return selections
  }

  /// The columns this join (and its nested joins) add to the origin's row.
  func renderAnnotationSelections(_ context: SQLGenerationContext) throws -> [String] {
    var selections: [String] = []
    if isAnnotation {
      selections += try relation.selection.map { try $0.qualified(with: relation.alias).sql(context) }
    }
    for join in relation.joins { selections += try join.renderAnnotationSelections(context) }
    return selections
  }

  /// The number of columns this join adds to the origin's row.
  func annotationWidth(_ db: Database) throws -> Int {
    try (isAnnotation ? relation.selectionWidth(db) : 0)
      + relation.joins.reduce(0) { try $0 + $1.annotationWidth(db) }
  }

  /// ` JOIN table alias ON …` for this join and its nested joins.
  func renderClauses(_ db: Database, _ context: SQLGenerationContext, parent: SQLTableAlias) throws -> String
  {
    let childName = context.name(of: relation.alias)
    // A join without a condition (to a common table expression) has no ON.
    var onExpressions = [try condition(db, parent, relation.alias)].filter { !$0.isEmptyConjunction }
    // Filters of a joined table go in its ON clause, as GRDB writes them: a
    // LEFT JOIN stays an outer one, and a nested join filters its own table.
    onExpressions += try relation.filters.map { try $0.resolve(db).qualified(with: relation.alias) }
    var clause = kind == .inner ? " JOIN " : " LEFT JOIN "
    clause += relation.tableName.quotedDatabaseIdentifier
    if childName != relation.tableName { clause += " " + childName.quotedDatabaseIdentifier }
    if !onExpressions.isEmpty {
      clause += " ON " + (try SQLExpression(.associative("AND", onExpressions, empty: "1")).sql(context))
    }
    for join in relation.joins {
      clause += try join.renderClauses(db, context, parent: relation.alias)
    }
    return clause
  }

  func havings(_ db: Database) throws -> [SQLExpression] {
    try relation.havingFilters.map { try $0.resolve(db).qualified(with: relation.alias) }
      + relation.joins.flatMap { try $0.havings(db) }
  }

  /// The joined table's orderings (reversed by `reversed()` on the
  /// association), then those of its own joins.
  func orderings() throws -> [SQLOrdering] {
    let own = relation.ordering.map { $0.qualified(with: relation.alias) }
    return try (relation.isReversed ? own.map { try $0.reversed } : own)
      + relation.joins.flatMap { try $0.orderings() }
  }
}

extension SQLJoin {
  /// The scopes this join adds to its parent's row, from column `offset` on;
  /// advances `offset` past the join's columns.
  func scopes(_ db: Database, offset: inout Int) throws -> [(key: String, layout: RowScopeLayout)] {
    if isIncluded && !isAnnotation {
      let start = offset
      let width = try relation.selectionWidth(db)
      offset += width
      var nested: [(key: String, layout: RowScopeLayout)] = []
      for join in relation.joins { nested += try join.scopes(db, offset: &offset) }
      return [(key, RowScopeLayout(start: start, width: width, scopes: nested))]
    }
    // A joined, not included, table adds no scope: its own includes attach to
    // the parent.
    var nested: [(key: String, layout: RowScopeLayout)] = []
    for join in relation.joins { nested += try join.scopes(db, offset: &offset) }
    return nested
  }
}

extension SQLJoin {
  /// Prefetches of the joined relation, attached to the scope rows it
  /// produced (or to the parent rows for a joined, not included, table).
  func prefetch(_ db: Database, into rows: [Row], watch: SupplementaryRequestWatch? = nil) throws {
    guard relation.hasPrefetches else { return }
    let targets = isIncluded ? rows.compactMap { $0.scopes[key] } : rows
    try relation.prefetch(db, into: targets, watch: isIncluded ? watch?.appending(key) : watch)
  }
}

extension SQLJoin {
  /// Refines this join with another use of the same association.
  mutating func merge(_ other: SQLJoin) {
    if other.kind == .inner { kind = .inner }
    // The last use's condition wins (they differ only for joins on a
    // condition of the program's), and so do its common table expressions.
    condition = other.condition
    relation.ctes.merge(other.relation.ctes)
    if relation.hasDeferredEdits || other.relation.hasDeferredEdits {
      // Edits that wait for the database can not be merged field by field
      // now: the other use's relation is merged into this one once both are
      // resolved, with the same rules.
      let base = self
      relation.editWhenConnected { db, relation in
        var merged = base
        merged.relation = try relation.resolved(db)
        var resolvedOther = other
        resolvedOther.relation = try other.relation.resolved(db)
        merged.merge(resolvedOther)
        relation = merged.relation
      }
      if other.isIncluded { isIncluded = true }
      return
    }
    if other.isIncluded {
      isIncluded = true
      relation.selection = other.relation.selection
    }
    relation.filters += other.relation.filters
    if !other.relation.ordering.isEmpty { relation.ordering = other.relation.ordering }
    relation.havingFilters += other.relation.havingFilters
    relation.prefetches += other.relation.prefetches
    for nested in other.relation.joins {
      if let index = relation.joins.firstIndex(where: {
        $0.key == nested.key && $0.relation.tableName == nested.relation.tableName
      }) {
        relation.joins[index].merge(nested)
      } else {
        relation.joins.append(nested)
      }
    }
    // The merged join keeps one alias. A user's alias (`aliased(_:)`) wins,
    // as in GRDB: the request may name its columns elsewhere (an ordering,
    // another table's filter), and they are this table's. The filters of
    // both uses then name the kept alias.
    let otherAlias = other.relation.alias
    let thisAlias = relation.alias
    guard otherAlias !== thisAlias else { return }
    let keepsOther = otherAlias.isUserAlias && !thisAlias.isUserAlias
    let kept = keepsOther ? otherAlias : thisAlias
    let replaced = keepsOther ? thisAlias : otherAlias
    relation.alias = kept
    relation.filters = relation.filters.map { $0.replacingAlias(replaced, with: kept) }
    relation.havingFilters = relation.havingFilters.map { $0.replacingAlias(replaced, with: kept) }
  }
}

extension SQLFilter {
  /// The filter with columns of one table alias moved to another.
  func replacingAlias(_ old: SQLTableAlias, with new: SQLTableAlias) -> SQLFilter {
    switch self {
    case .expression(let expression): return .expression(expression.replacingAlias(old, with: new))
    case .deferred(let build):
      return .deferred { db in try build(db).replacingAlias(old, with: new) }
    case .primaryKey:
      // Its column names no table alias.
      return self
    }
  }
}
