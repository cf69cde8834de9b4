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
  /// The association step this join follows from its parent: the prefetches
  /// of the joined table follow it from the fetched rows (nil for the joins
  /// a prefetch makes back toward its origin).
  var step: SQLAssociation.Step?
  /// Set when the joined columns are selected into the origin's own row
  /// (`annotated(withRequired:)`), rather than into a scope: the rank of the
  /// annotation among those of the request, whose columns follow the
  /// origin's in the order they were added (as GRDB appends them to the
  /// origin's selection), wherever their joins are.
  var annotationOrder: Int?
  var isAnnotation: Bool { annotationOrder != nil }

  /// The same join, and its nested joins, filtering rows without selecting
  /// any column.
  func selectingNothing() -> SQLJoin {
    var join = self
    join.isIncluded = false
    join.annotationOrder = nil
    join.relation.joins = relation.joins.map { $0.selectingNothing() }
    join.relation.prefetches = []
    return join
  }

  /// The same join, and its nested joins, without orderings.
  func unordered() -> SQLJoin {
    var join = self
    join.relation.ordering = []
    join.relation.joins = relation.joins.map { $0.unordered() }
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

  /// Appends this join and its nested joins that add columns to the
  /// origin's row.
  func collectAnnotations(into annotations: inout [SQLJoin]) {
    if isAnnotation { annotations.append(self) }
    for join in relation.joins { join.collectAnnotations(into: &annotations) }
  }

  /// The highest annotation rank of this join and its nested joins, 0 for none.
  var lastAnnotationOrder: Int {
    relation.joins.reduce(annotationOrder ?? 0) { max($0, $1.lastAnnotationOrder) }
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

  /// The joined table's orderings, then those of its own joins, reversed
  /// when either `reversed()` of the association or of the request that
  /// joins it asks so: reversed twice, they are as written (GRDB's rule).
  func orderings(reversed parentIsReversed: Bool) throws -> [SQLOrdering] {
    let isReversed = relation.isReversed != parentIsReversed
    let own = relation.ordering.map { $0.qualified(with: relation.alias) }
    return try (isReversed ? own.map { try $0.reversed } : own)
      + relation.joins.flatMap { try $0.orderings(reversed: isReversed) }
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
    // A joined, not included, table adds a scope of no column when it leads
    // to included ones, which are its scope's own (as in GRDB: the pivot of
    // a through association is a scope on the way to its destination).
    var nested: [(key: String, layout: RowScopeLayout)] = []
    for join in relation.joins { nested += try join.scopes(db, offset: &offset) }
    if nested.isEmpty { return [] }
    return [(key, RowScopeLayout(start: offset, width: 0, scopes: nested))]
  }
}

extension SQLJoin {
  /// Prefetches of the joined relation and of its own joins, for the rows
  /// fetched at the start of `path`.
  func prefetch(
    _ db: Database, into rows: [Row], watch: SupplementaryRequestWatch? = nil, path: SQLPrefetchPath = .init()
  ) throws {
    guard relation.hasPrefetches else { return }
    guard let step, step.followsForeignKey else {
      // A join on a condition of the program's (to a common table
      // expression) has no key to follow back from the fetched rows: the
      // prefetches of an included one use its scope rows' columns (GRDB stops
      // the program there).
      let base = rows.compactMap { row in path.scopeKeys.reduce(row as Row?) { $0?.scopes[$1] } }
      let targets = isIncluded ? base.compactMap { $0.scopes[key] } : base
      try relation.prefetch(db, into: targets, watch: isIncluded ? watch?.appending(key) : watch)
      return
    }
    // The prefetches of a joined table follow the join from the fetched rows
    // (GRDB's rule), included or not, and so do those of the tables it joins.
    // Those of an included table attach to its scope; those of a joined one,
    // which selects none of its columns, to the row above it. The parent's
    // step on the path joins this table already: the path follows this join
    // instead.
    var steps = path.steps
    if let last = steps.indices.last {
      steps[last].relation.edit { $0.joins.removeAll { $0.relation.alias === relation.alias } }
    }
    var pathStep = step
    pathStep.relation = relation
    pathStep.relation.edit {
      $0.selection = []
      $0.prefetches = []
      $0.joins = $0.joins.map { $0.selectingNothing() }
    }
    let scopeKeys = path.scopeKeys + [key]
    try relation.prefetch(
      db, into: rows, watch: isIncluded ? watch?.appending(key) : watch,
      path: SQLPrefetchPath(
        steps: steps + [pathStep], scopeKeys: scopeKeys, attachKeys: isIncluded ? scopeKeys : path.attachKeys)
    )
  }
}

extension SQLJoin {
  /// Whether `other` is another use of the same association, to be merged
  /// into this join (GRDB's rule: the same key, and here the same table). A
  /// table both included in a scope and annotating the origin's row keeps a
  /// join for each.
  func canMerge(_ other: SQLJoin) -> Bool {
    key == other.key && relation.tableName == other.relation.tableName
      && !(isAnnotation && other.isIncluded) && !(isIncluded && other.isAnnotation)
  }

  /// Refines this join with another use of the same association.
  mutating func merge(_ other: SQLJoin) {
    if other.kind == .inner { kind = .inner }
    // A through association's pivot, merged with its direct use, may lead
    // to many rows through either.
    isToMany = isToMany || other.isToMany
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
      if annotationOrder == nil { annotationOrder = other.annotationOrder }
      return
    }
    if other.isIncluded {
      isIncluded = true
      relation.selection = other.relation.selection
    }
    if let order = other.annotationOrder {
      // Annotations of one association add up in the origin's row.
      relation.selection =
        isAnnotation ? relation.selection + other.relation.selection : other.relation.selection
      if annotationOrder == nil { annotationOrder = order }
    }
    relation.filters += other.relation.filters
    if !other.relation.ordering.isEmpty { relation.ordering = other.relation.ordering }
    relation.havingFilters += other.relation.havingFilters
    relation.prefetches += other.relation.prefetches
    for nested in other.relation.joins {
      if let index = relation.joins.firstIndex(where: { $0.canMerge(nested) }) {
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
