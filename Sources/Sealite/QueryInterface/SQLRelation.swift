/// A filter of a request: an expression, or one built when the request runs
/// (a primary key lookup needs the schema).
enum SQLFilter: Sendable {
  case expression(SQLExpression)
  case deferred(@Sendable (Database) throws -> SQLExpression)
  /// The rows of `tableName` whose single-column primary key (or rowid) is
  /// one of `values`, none NULL: a request's `filter(key:)` and
  /// `filter(keys:)`. Its column is read from the schema when the request
  /// renders; its shape needs nothing built (see RequestShape).
  case primaryKey(tableName: String, values: [DatabaseValue])

  func resolve(_ db: Database) throws -> SQLExpression {
    switch self {
    case .expression(let expression): return expression
    case .deferred(let build): return try build(db)
    case .primaryKey(let tableName, let values):
      return try SQLFilter.primaryKeyCondition(db, tableName: tableName, values: values)
    }
  }

  /// `keys` without its NULLs, which select no row: copied only if it has one.
  static func nonNullKeys(_ keys: [DatabaseValue]) -> [DatabaseValue] {
    keys.contains(where: \.isNull) ? keys.filter { !$0.isNull } : keys
  }

  /// `key = ?`, or `key IN (?, …)`, of the single-column primary key (or
  /// rowid) of `tableName`; a misuse error for a composite primary key.
  static func primaryKeyCondition(_ db: Database, tableName: String, values: [DatabaseValue]) throws
    -> SQLExpression
  {
    let column = SQLExpression(
      .column(try db.recordPrimaryKey(tableName).singleColumn(of: tableName), alias: nil))
    if values.count == 1 { return SQLExpression.equality(column, values[0].sqlExpression, negated: false) }
    return SQLExpression(.inList(column, values.map { $0.sqlExpression }, negated: false))
  }
}

/// What a query interface request selects from one table: the model behind
/// ``QueryInterfaceRequest``, turned into SQL when the request runs.
struct SQLRelation: Sendable {
  var tableName: String
  var alias: SQLTableAlias
  /// Nil selects the default: the record type's `databaseSelection`, or `*`.
  var selection: [SQLSelection]
  var isDistinct = false
  var filters: [SQLFilter] = []
  /// True once `filterWhenConnected` added a filter built when the request
  /// runs: a request builds it before it finds its SQL by its shape. A flag,
  /// not a scan of the filters at every request (see `withFiltersBuilt`);
  /// other deferred filters (an association's link to its record) leave the
  /// request without a shape, rendered each time.
  var hasDeferredFilters = false
  var grouping: [SQLExpression] = []
  var havingFilters: [SQLFilter] = []
  var ordering: [SQLOrdering] = []
  var isReversed = false
  var limit: (limit: Int, offset: Int?)?
  var isEmptyByDefinition = false
  var joins: [SQLJoin] = []
  /// To-many associations fetched with a second query (`including(all:)`).
  var prefetches: [SQLPrefetch] = []
  /// Edits that need the database, applied by `resolved(_:)` (see
  /// SQLRelation+DeferredEdits.swift).
  var deferredEdits: [DeferredEdit] = []
  /// The common table expressions of the `WITH` clause, and the one this
  /// relation reads, if its table is one (SQLRelation+CommonTableExpressions.swift).
  var ctes = SQLCTEList()
  var sourceCTE: SQLCTE?

  init(tableName: String, selection: [SQLSelection]) {
    self.tableName = tableName
    self.alias = SQLTableAlias(tableName: tableName)
    self.selection = selection
  }

  /// The relation with a fresh alias, so that it can be joined more than once.
  func copiedAlias() -> SQLRelation {
    var copy = self
    copy.alias = SQLTableAlias(name: alias.userName, tableName: tableName)
    return copy
  }

  var hasJoins: Bool { !joins.isEmpty }

  /// Gives the relation the alias of the program's (`aliased(_:)`): the
  /// conditions that named the former alias (those of `request(for:)`) name
  /// the new one.
  mutating func rename(to newAlias: SQLTableAlias) {
    let former = alias
    alias = newAlias
    guard former != newAlias else { return }
    filters = filters.map { $0.replacingAlias(former, with: newAlias) }
    havingFilters = havingFilters.map { $0.replacingAlias(former, with: newAlias) }
  }

  /// Joins and association aggregates name several tables: columns are then
  /// qualified. So are they when the user named the table's alias, which
  /// GRDB promises to use in the SQL (`SELECT "p".* FROM "player" "p"`).
  var needsQualifiedColumns: Bool {
    hasJoins || alias.userName != nil || containsOwnExpression { $0.isDependent }
  }

  /// True when the selection, a condition or the ordering holds an
  /// association aggregate: the request is then rendered twice (see
  /// `selectSQL`).
  var mayHaveAggregates: Bool {
    containsOwnExpression { $0.holdsAggregate }
  }

  /// Whether an expression of the selection, conditions or ordering passes
  /// `predicate`. Each request rendered asks twice: the expressions are
  /// visited in place, not collected. A condition by primary key, or built
  /// when the request runs (`filterWhenConnected`), is not visited: see
  /// `withFiltersBuilt` for the latter.
  private func containsOwnExpression(where predicate: (SQLExpression) -> Bool) -> Bool {
    for item in selection {
      switch item.impl {
      case .expression(let expression), .aliased(let expression, _):
        if predicate(expression) { return true }
      default: continue
      }
    }
    for filter in filters {
      if case .expression(let expression) = filter, predicate(expression) { return true }
    }
    for filter in havingFilters {
      if case .expression(let expression) = filter, predicate(expression) { return true }
    }
    for item in ordering {
      if case .expression(let expression, _) = item.impl, predicate(expression) { return true }
    }
    return false
  }

  /// The number of columns the selection produces.
  func selectionWidth(_ db: Database) throws -> Int {
    try selection.reduce(0) { total, selection in
      switch selection.impl {
      case .allColumns:
        return total + (try sourceCTE?.columnCount(db) ?? db.recordColumnCount(tableName))
      case .allColumnsExcluding(_, let excluded):
        return total
          + (try db.columns(in: tableName).filter { !excluded.contains($0.name.lowercased()) }.count)
      case .expression, .aliased:
        return total + 1
      case .literal(let literal):
        return total + SQLRelation.topLevelCommaCount(try literal.sql(SQLGenerationContext(db: db))) + 1
      }
    }
  }

  /// The commas of `sql` outside parentheses, strings, names and comments,
  /// read by SQLite's lexical rules (``SQLTokenizer``): how many columns a
  /// literal selection adds, less one.
  static func topLevelCommaCount(_ sql: String) -> Int {
    var sql = sql
    return sql.withUTF8 { text in
      var depth = 0
      var count = 0
      for token in SQLTokenizer(text) where token.kind == .punctuation && token.range.count == 1 {
        switch text[token.range.lowerBound] {
        case UInt8(ascii: "("): depth += 1
        case UInt8(ascii: ")"): depth -= 1
        case UInt8(ascii: ",") where depth == 0: count += 1
        default: break
        }
      }
      return count
    }
  }

  /// How fetched rows split into base row and scopes; nil without includes.
  func scopeLayout(_ db: Database) throws -> RowScopeLayout? {
    guard joins.contains(where: { $0.includesColumns }) else { return nil }
    // The origin's row: its selection, then the columns of annotating joins.
    let baseWidth = try selectionWidth(db) + joins.reduce(0) { try $0 + $1.annotationWidth(db) }
    var offset = baseWidth
    var scopes: [(key: String, layout: RowScopeLayout)] = []
    for join in joins { scopes += try join.scopes(db, offset: &offset) }
    return RowScopeLayout(start: 0, width: baseWidth, scopes: scopes)
  }

  /// Runs the prefetch queries and attaches their rows to `rows`, and to the
  /// scopes of included associations that have prefetches of their own.
  /// `watch` hears of each query before it runs.
  ///
  /// `path` holds the joined tables between `rows` and this relation: the
  /// prefetches follow them from `rows`, as GRDB follows a joined association
  /// from the fetched rows.
  func prefetch(
    _ db: Database, into rows: [Row], watch: SupplementaryRequestWatch? = nil, path: SQLPrefetchPath = .init()
  ) throws {
    for prefetch in prefetches {
      try prefetch.association.following(path.steps).prefetch(
        db, into: rows, watch: watch, attachKeys: path.attachKeys)
    }
    for join in joins { try join.prefetch(db, into: rows, watch: watch, path: path) }
  }

  /// True if this relation or an included one fetches to-many associations.
  var hasPrefetches: Bool { !prefetches.isEmpty || joins.contains { $0.relation.hasPrefetches } }

  // MARK: SQL generation

  func selectSQL(_ db: Database, _ context: SQLGenerationContext, singleResult: Bool = false) throws -> String
  {
    if hasDeferredEdits { return try resolved(db).selectSQL(db, context, singleResult: singleResult) }
    // Association aggregates of one key count the same rows (see
    // AssociationAggregate+Population.swift): a first rendering finds them
    // all before the second writes any.
    if context.renderingNotes == nil && mayHaveAggregates {
      let notes = RenderingNotes()
      _ = try renderSelectSQL(db, context.rehearsal(notes: notes), singleResult: singleResult)
      if notes.entries.count > 1 {
        notes.isRecording = false
        context.renderingNotes = notes
        defer { context.renderingNotes = nil }
        return try renderSelectSQL(db, context, singleResult: singleResult)
      }
    }
    return try renderSelectSQL(db, context, singleResult: singleResult)
  }

  private func renderSelectSQL(_ db: Database, _ context: SQLGenerationContext, singleResult: Bool) throws
    -> String
  {
    // Arguments are collected in the order their placeholders appear in the
    // SQL text: selection, joins, WHERE, GROUP BY, HAVING, ORDER BY.
    // The WITH clause comes first in the text, and so do its arguments.
    let with = try withClause(context)
    registerAliases(context)
    if needsQualifiedColumns { context.qualifiesColumns = true }
    var columns = try selection.map { try $0.qualified(with: alias).sql(context) }
    if !joins.isEmpty {
      var annotations: [SQLJoin] = []
      for join in joins { join.collectAnnotations(into: &annotations) }
      for join in annotations.sorted(by: { $0.annotationOrder! < $1.annotationOrder! }) {
        columns += try join.relation.selection.map {
          try $0.qualified(with: join.relation.alias).sql(context)
        }
      }
    }
    for join in joins { columns += try join.renderSelections(context) }
    var sql = with + "SELECT "
    if isDistinct { sql += "DISTINCT " }
    sql += columns.joined(separator: ", ")
    sql += " FROM " + tableName.quotedDatabaseIdentifier
    let aliasName = context.name(of: alias)
    if context.qualifiesColumns && aliasName != tableName {
      sql += " " + aliasName.quotedDatabaseIdentifier
    }
    for join in joins { sql += try join.renderClauses(db, context, parent: alias) }
    var whereExpressions = try allFilters(db)
    let havingExpressions =
      try havingFilters.map { try $0.resolve(db).qualified(with: alias) } + joinHavings(db)
    if grouping.isEmpty {
      // Without GROUP BY (a condition on an association aggregate), the
      // condition applies to each row: old SQLite refuses HAVING there.
      whereExpressions += havingExpressions
    }
    if isEmptyByDefinition {
      sql += " WHERE 0"
    } else if !whereExpressions.isEmpty {
      sql += " WHERE " + (try SQLExpression(.associative("AND", whereExpressions, empty: "1")).sql(context))
    }
    if !grouping.isEmpty {
      sql +=
        " GROUP BY "
        + (try grouping.map { try $0.qualified(with: alias).sql(context) }.joined(separator: ", "))
      if !havingExpressions.isEmpty {
        sql +=
          " HAVING " + (try SQLExpression(.associative("AND", havingExpressions, empty: "1")).sql(context))
      }
    }
    let orderings = try effectiveOrdering(db)
    if !orderings.isEmpty {
      sql += " ORDER BY " + (try orderings.map { try $0.sql(context) }.joined(separator: ", "))
    }
    if let limit {
      sql += " LIMIT \(limit.limit)"
      if let offset = limit.offset { sql += " OFFSET \(offset)" }
    } else if singleResult {
      // A filter on a unique key selects one row at most, and an aggregate
      // without GROUP BY one row: no LIMIT 1, as GRDB writes it. (No `&&`:
      // its autoclosure copies the relation in a debug build.)
      if !hasToManyJoins {
        if try !filtersSelectOneRow(db), !selectsOneAggregateRow { sql += " LIMIT 1" }
      }
    }
    return sql
  }

  /// Names every table of the request, the request's own first, so that
  /// names are stable whatever order the SQL is rendered in.
  func registerAliases(_ context: SQLGenerationContext) {
    var tables: [(alias: SQLTableAlias, tableName: String)] = []
    collectAliases(into: &tables)
    context.register(tables)
  }

  private func collectAliases(into tables: inout [(alias: SQLTableAlias, tableName: String)]) {
    tables.append((alias, tableName))
    for join in joins { join.relation.collectAliases(into: &tables) }
  }

  /// Adds `filter` to the table of this relation or of a nested join that
  /// `alias` names; to this relation when none does.
  mutating func appendFilter(_ filter: SQLFilter, toTableAliased alias: SQLTableAlias) {
    func append(_ relation: inout SQLRelation) -> Bool {
      if relation.alias == alias {
        relation.filters.append(filter)
        return true
      }
      for index in relation.joins.indices where append(&relation.joins[index].relation) { return true }
      return false
    }
    if !append(&self) { filters.append(filter) }
  }

  /// Filters of this table, qualified (those of joined tables are in their
  /// ON clauses).
  func allFilters(_ db: Database) throws -> [SQLExpression] {
    try filters.map { try $0.resolve(db).qualified(with: alias) }
  }

  func joinHavings(_ db: Database) throws -> [SQLExpression] {
    try joins.flatMap { try $0.havings(db) }
  }

  /// Orderings of this table then of joined tables, reversed if asked. An
  /// unordered request is reversed by primary key.
  func effectiveOrdering(_ db: Database) throws -> [SQLOrdering] {
    var orderings = ordering.map { $0.qualified(with: alias) }
    // Joined tables' orderings are reversed with their own flags (see
    // SQLJoin.orderings(reversed:)).
    let joined = joins.isEmpty ? [] : try joins.flatMap { try $0.orderings(reversed: isReversed) }
    if isReversed {
      if orderings.isEmpty && joined.isEmpty {
        let primaryKey = try db.recordPrimaryKey(tableName)
        orderings = primaryKey.columns.map { SQLExpression(.column($0, alias: alias)).sqlOrdering }
      }
      orderings = try orderings.map { try $0.reversed }
    }
    if !joined.isEmpty { orderings += joined }
    return orderings
  }

  var hasToManyJoins: Bool { joins.contains { $0.isToMany } }

  /// `DELETE` of the selected rows.
  func deleteSQL(_ db: Database, _ context: SQLGenerationContext) throws -> String {
    if hasDeferredEdits { return try resolved(db).deleteSQL(db, context) }
    let with = try withClause(context)
    if isEmptyByDefinition { return with + "DELETE FROM \(tableName.quotedDatabaseIdentifier) WHERE 0" }
    if hasJoins || !grouping.isEmpty || !havingFilters.isEmpty || limit != nil || isDistinct {
      // Complex selections delete by primary key (or rowid) through a subquery.
      let key = try rowKeyColumn(db)
      let subquery = try selectingOnly(key).selectSQL(db, context)
      return with
        + "DELETE FROM \(tableName.quotedDatabaseIdentifier) WHERE \(key.quotedDatabaseIdentifier) IN (\(subquery))"
    }
    var sql = with + "DELETE FROM \(tableName.quotedDatabaseIdentifier)"
    let expressions = try allFilters(db)
    if !expressions.isEmpty {
      sql += " WHERE " + (try SQLExpression(.associative("AND", expressions, empty: "1")).sql(context))
    }
    return sql
  }

  /// `UPDATE [OR …] … SET` of the selected rows.
  func updateSQL(
    _ db: Database, _ context: SQLGenerationContext, conflictResolution: Database.ConflictResolution,
    assignments: [ColumnAssignment]
  ) throws -> String {
    if hasDeferredEdits {
      return try resolved(db).updateSQL(
        db, context, conflictResolution: conflictResolution, assignments: assignments)
    }
    let with = try withClause(context)
    let set = try assignments.map { try $0.sql(context) }.joined(separator: ", ")
    var sql = with + "UPDATE \(conflictResolution.orClause)\(tableName.quotedDatabaseIdentifier) SET \(set)"
    if isEmptyByDefinition { return sql + " WHERE 0" }
    if hasJoins || !grouping.isEmpty || !havingFilters.isEmpty || limit != nil || isDistinct {
      let key = try rowKeyColumn(db)
      let subquery = try selectingOnly(key).selectSQL(db, context)
      return sql + " WHERE \(key.quotedDatabaseIdentifier) IN (\(subquery))"
    }
    let expressions = try allFilters(db)
    if !expressions.isEmpty {
      sql += " WHERE " + (try SQLExpression(.associative("AND", expressions, empty: "1")).sql(context))
    }
    return sql
  }

  /// The column that tells the rows of a complex selection apart, as GRDB
  /// picks it: the column that is the rowid (an `INTEGER PRIMARY KEY`), else
  /// the rowid, else the single column of a `WITHOUT ROWID` primary key.
  private func rowKeyColumn(_ db: Database) throws -> String {
    let primaryKey = try db.recordPrimaryKey(tableName)
    if let rowIDColumn = primaryKey.rowIDColumn { return rowIDColumn }
    if primaryKey.isWithoutRowID {
      guard primaryKey.columns.count == 1 else {
        throw DatabaseError.misuse(
          "can not delete or update a limited or joined request of WITHOUT ROWID table \(tableName) "
            + "with a composite primary key")
      }
      return primaryKey.columns[0]
    }
    return "rowid"
  }

  /// The same rows, selecting the column `key` of this table alone: joined
  /// tables still filter them, but add no column, and nothing is prefetched
  /// (a subquery of `IN` returns one column).
  private func selectingOnly(_ key: String) -> SQLRelation {
    var relation = self
    relation.selection = [SQLExpression(.column(key, alias: nil)).sqlSelection]
    relation.joins = joins.map { $0.selectingNothing() }
    relation.prefetches = []
    return relation
  }
}

/// A to-many association fetched by a second query, whose rows are attached to
/// the fetched parent rows.
struct SQLPrefetch: Sendable {
  /// The to-many association fetched by the second query.
  let association: SQLAssociation
  /// The tables the second query reads (for observation).
  var tableNames: [String] { association.steps.flatMap { $0.relation.allTableNames } }
}
