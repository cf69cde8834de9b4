/// A request that can be grouped: ``QueryInterfaceRequest`` and
/// associations.
public protocol AggregatingRequest {
  /// Groups by the expressions `expressions` builds when the request runs,
  /// replacing any previous grouping.
  func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible])
    -> Self

  /// Keeps the groups that match the predicate `predicate` builds when the
  /// request runs.
  func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension AggregatingRequest {
  /// Groups by the given expressions.
  public func group(_ expressions: [any SQLExpressible]) -> Self {
    let expressions = expressions.map(\.sqlExpression)
    return groupWhenConnected { _ in expressions }
  }

  /// Groups by the given expressions: `group(Column("teamId"))`.
  public func group(_ expressions: any SQLExpressible...) -> Self {
    group(expressions)
  }

  /// Groups by raw SQL.
  public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    group(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Groups by an SQL literal.
  public func group(literal: SQL) -> Self {
    group(SQLExpression(literal: literal))
  }

  /// Keeps the groups that match `predicate`: `having(count(Column("id")) > 2)`.
  public func having(_ predicate: some SQLExpressible) -> Self {
    let predicate = predicate.sqlExpression
    return havingWhenConnected { _ in predicate }
  }

  /// Keeps the groups that match raw SQL.
  public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    having(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Keeps the groups that match an SQL literal.
  public func having(literal: SQL) -> Self {
    having(SQLExpression(literal: literal))
  }
}
