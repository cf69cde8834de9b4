/// A request that can be ordered: ``QueryInterfaceRequest`` and
/// associations.
public protocol OrderedRequest {
  /// Orders by the terms `orderings` builds when the request runs,
  /// replacing any previous ordering.
  func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self

  /// The request with its ordering reversed. An unordered request is then
  /// ordered by primary key, descending.
  func reversed() -> Self

  /// The request without any ordering.
  func unordered() -> Self

  /// The request with an ordering that is the same from one run to the
  /// next: its ordering, then the primary key (all columns, for a view
  /// without one).
  func withStableOrder() -> Self
}

extension OrderedRequest {
  /// Orders by the given terms, replacing any previous ordering:
  /// `order(Column("score").desc, Column("name"))`.
  public func order(_ orderings: any SQLOrderingTerm...) -> Self {
    order(orderings)
  }

  /// Orders by the given terms, replacing any previous ordering.
  public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
    let orderings = orderings.map(\.sqlOrdering)
    return orderWhenConnected { _ in orderings }
  }

  /// Orders by raw SQL: `order(sql: "score DESC")`.
  public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    order(SQL(sql: sql, arguments: arguments))
  }

  /// Orders by an SQL literal.
  public func order(literal: SQL) -> Self {
    order(literal)
  }
}
