/// A request that can be filtered: ``QueryInterfaceRequest`` and
/// associations.
///
/// Write reusable filters once, for both:
///
///     extension FilteredRequest {
///       func active() -> Self { filter(Column("isActive")) }
///     }
///     let players = try Player.all().active().fetchAll(db)
///     let teams = try Team.including(all: Team.players.active()).fetchAll(db)
public protocol FilteredRequest {
  /// Keeps the rows that match the predicate `predicate` builds when the
  /// request runs (it may read the schema).
  func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension FilteredRequest {
  /// Keeps the rows that match `predicate`: `filter(Column("score") > 100)`.
  public func filter(_ predicate: some SQLExpressible) -> Self {
    let predicate = predicate.sqlExpression
    return filterWhenConnected { _ in predicate }
  }

  /// Keeps the rows that match raw SQL: `filter(sql: "score > ?", arguments: [100])`.
  public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    filter(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Keeps the rows that match an SQL literal: `filter(literal: "score > \(100)")`.
  public func filter(literal: SQL) -> Self {
    filter(SQLExpression(literal: literal))
  }

  /// A request that selects no row.
  public func none() -> Self {
    filterWhenConnected { _ in false }
  }

  /// The request itself: `Player.all()` reads well in chains.
  public func all() -> Self { self }
}
