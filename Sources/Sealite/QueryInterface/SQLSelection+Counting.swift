// What a selection says about the number of rows of a request: whether it
// aggregates them into one (no `LIMIT 1` for a single result, as GRDB writes
// it), and how `fetchCount` counts them without a subquery.

extension SQLExpression {
  /// Names of the built-in aggregate functions (one argument for MIN and MAX,
  /// which are scalar with several).
  private static let aggregateNames: Set<String> = [
    "AVG", "COUNT", "GROUP_CONCAT", "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT", "JSONB_GROUP_ARRAY",
    "JSONB_GROUP_OBJECT", "MAX", "MIN", "STRING_AGG", "SUM", "TOTAL",
  ]

  /// True if the expression aggregates the rows, as GRDB judges it (when in
  /// doubt, false): `COUNT(*)`, `MAX(score)`, `MAX(score) + 1`; not `score`,
  /// nor `MAX(a, b)`.
  var isAggregate: Bool {
    switch impl {
    case .countAll, .aggregate: return true
    case .function(let name, let arguments, _):
      let name = name.uppercased()
      if name == "MAX" || name == "MIN" { return arguments.count == 1 }
      return Self.aggregateNames.contains(name)
    case .prefix(_, let expression), .postfix(let expression, _), .collate(let expression, _),
      .negatable(let expression, _), .between(let expression, _, _, _):
      return expression.isAggregate
    case .binary(_, let lhs, let rhs): return lhs.isAggregate || rhs.isAggregate
    case .associative(_, let expressions, _): return expressions.contains { $0.isAggregate }
    case .inList(let expression, let list, _):
      return expression.isAggregate || list.contains { $0.isAggregate }
    default: return false
    }
  }
}

extension SQLSelection {
  /// True for an expression that aggregates the rows (see
  /// ``SQLExpression/isAggregate``).
  var isAggregate: Bool {
    switch impl {
    case .expression(let expression), .aliased(let expression, _): expression.isAggregate
    default: false
    }
  }
}

extension SQLRelation {
  /// True if the selection aggregates every row into one: an aggregate in a
  /// request of one table without GROUP BY.
  var selectsOneAggregateRow: Bool {
    // Guards, not `&&`: its autoclosures copy the relation in a debug build,
    // which the allocation tests count.
    guard joins.isEmpty, grouping.isEmpty else { return false }
    return selection.contains { $0.isAggregate }
  }

  /// The selection that counts the rows of a request of one table without
  /// GROUP BY, LIMIT nor join, as GRDB counts them, or nil when the request
  /// is counted as a subquery, `COUNT(*) FROM (request)`:
  ///
  /// - `COUNT(*)` when the selection does not change the number of rows
  ///   (`*`, columns, expressions of each row);
  /// - `COUNT(DISTINCT column)` for the distinct values of a column that
  ///   holds no NULL. GRDB counts any expression so, but COUNT leaves NULL
  ///   out, where the rows of the request count it as one value;
  /// - nil for DISTINCT on anything else, an aggregate, an alias or raw SQL
  ///   that a filter may name.
  func countingSelection(_ db: Database) throws -> [SQLSelection]? {
    if selection.count == 1 {
      switch selection[0].impl {
      case .allColumns, .allColumnsExcluding:
        return isDistinct ? nil : Self.countAllSelection
      case .expression(let expression), .aliased(let expression, _):
        if expression.isAggregate { return nil }
        guard isDistinct else { return Self.countAllSelection }
        guard try isNeverNull(expression, db) else { return nil }
        return [SQLExpression(.function("COUNT", [expression], distinct: true)).sqlSelection]
      case .literal:
        return nil
      }
    }
    if isDistinct { return nil }
    let countsRows = selection.allSatisfy { selection in
      switch selection.impl {
      case .allColumns, .allColumnsExcluding: true
      case .expression(let expression): !expression.isAggregate
      case .aliased, .literal: false
      }
    }
    return countsRows ? Self.countAllSelection : nil
  }

  /// `COUNT(*)`, made once: an array per count would be an allocation.
  private static let countAllSelection = [SQLExpression(.countAll).sqlSelection]

  /// True for a column of the request's table that holds no NULL: declared
  /// NOT NULL, or the rowid.
  private func isNeverNull(_ expression: SQLExpression, _ db: Database) throws -> Bool {
    guard case .column(let name, let columnAlias) = expression.impl,
      columnAlias == nil || columnAlias === alias,
      sourceCTE == nil, try db.tableExists(tableName)
    else { return false }
    if let rowIDColumn = try db.primaryKey(tableName).rowIDColumn, rowIDColumn.sameName(as: name) {
      return true
    }
    return try db.columns(in: tableName).contains { $0.name.sameName(as: name) && $0.isNotNull }
  }
}
