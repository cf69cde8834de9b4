// Aggregates with a filter (`FILTER (WHERE …)`, SQLite 3.30) or an ordering
// (`ORDER BY` inside the call, SQLite 3.44), as GRDB's SQLCipher builds spell
// them; the scalar MIN and MAX of several values; COALESCE of a list.

/// `AVG(value) FILTER (WHERE filter)`: the average of the values of the rows
/// that match `filter`.
///
///     Player.select(average(Column("score"), filter: Column("isActive")))
///
/// A filter needs SQLite 3.30: before, the request throws a
/// ``SQLiteFeatureError`` naming ``SQLiteFeatures/Capability/aggregateFilter``.
public func average(_ value: some SQLSpecificExpressible, filter: (any SQLSpecificExpressible)? = nil)
  -> SQLExpression
{
  .aggregate("AVG", value, filter: filter)
}

/// `MAX(value) FILTER (WHERE filter)`: the largest value of the rows that
/// match `filter` (SQLite 3.30).
public func max(_ value: some SQLSpecificExpressible, filter: (any SQLSpecificExpressible)? = nil)
  -> SQLExpression
{
  .aggregate("MAX", value, filter: filter)
}

/// `MIN(value) FILTER (WHERE filter)`: the smallest value of the rows that
/// match `filter` (SQLite 3.30).
public func min(_ value: some SQLSpecificExpressible, filter: (any SQLSpecificExpressible)? = nil)
  -> SQLExpression
{
  .aggregate("MIN", value, filter: filter)
}

/// `SUM(value ORDER BY ordering) FILTER (WHERE filter)`: the sum of the
/// values of the rows that match `filter`, added in the given order (which
/// matters for floating-point values).
///
///     Player.select(sum(Column("score"), filter: Column("teamId") == 1))
///
/// The ordering needs SQLite 3.44 and the filter SQLite 3.30; before, the
/// request throws a ``SQLiteFeatureError``.
public func sum(
  _ value: some SQLSpecificExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil,
  filter: (any SQLSpecificExpressible)? = nil
) -> SQLExpression {
  .aggregate("SUM", value, orderBy: ordering, filter: filter)
}

/// `TOTAL(value ORDER BY ordering) FILTER (WHERE filter)`: as ``sum(_:orderBy:filter:)``,
/// but 0.0 when no row matches.
public func total(
  _ value: some SQLSpecificExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil,
  filter: (any SQLSpecificExpressible)? = nil
) -> SQLExpression {
  .aggregate("TOTAL", value, orderBy: ordering, filter: filter)
}

/// `MAX(value1, value2, …)`: the largest of several values of one row (the
/// scalar function, NULL if any is NULL).
///
///     Player.select(max(Column("score"), Column("bonus"), 0))
public func max(
  _ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...
) -> SQLExpression {
  SQLExpression(
    .function(
      "MAX", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression), distinct: false))
}

/// `MIN(value1, value2, …)`: the smallest of several values of one row (the
/// scalar function, NULL if any is NULL).
public func min(
  _ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...
) -> SQLExpression {
  SQLExpression(
    .function(
      "MIN", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression), distinct: false))
}

/// `COALESCE(values…)`: the first non-NULL value. One value is itself, and no
/// value is NULL (SQLite's COALESCE wants two).
///
///     Player.select(coalesce([Column("nickname"), Column("name")]))
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
  guard let first = values.first else { return SQLExpression(sql: "NULL") }
  if values.count == 1 { return first.sqlExpression }
  return SQLExpression(.function("COALESCE", values.map(\.sqlExpression), distinct: false))
}

extension SQLExpression {
  fileprivate static func aggregate(
    _ name: String, _ value: some SQLSpecificExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)?
  ) -> SQLExpression {
    aggregate(name, [value.sqlExpression], orderBy: ordering, filter: filter)
  }

  /// `name(arguments ORDER BY ordering) FILTER (WHERE filter)`, or the plain call
  /// `name(arguments)` without ordering nor filter (valid on every SQLite).
  static func aggregate(
    _ name: String, _ arguments: [SQLExpression], orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)?
  ) -> SQLExpression {
    guard ordering != nil || filter != nil else {
      return SQLExpression(.function(name, arguments, distinct: false))
    }
    return SQLExpression(
      .aggregate(
        name, arguments, orderBy: ordering?.sqlOrdering.termExpression, filter: filter?.sqlExpression))
  }
}

extension SQLOrdering {
  /// The ordering as an expression that renders its `ORDER BY` term
  /// (`score DESC`), for the ordering of an aggregate.
  var termExpression: SQLExpression {
    switch impl {
    case .literal(let literal): return SQLExpression(literal: literal)
    case .expression(let expression, let direction):
      switch direction {
      case .none: return expression
      case .asc: return SQLExpression(.postfix(expression, "ASC"))
      case .desc: return SQLExpression(.postfix(expression, "DESC"))
      case .ascNullsLast: return SQLExpression(.postfix(expression, "ASC NULLS LAST"))
      case .descNullsFirst: return SQLExpression(.postfix(expression, "DESC NULLS FIRST"))
      }
    }
  }
}
