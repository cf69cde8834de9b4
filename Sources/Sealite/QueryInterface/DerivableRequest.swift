/// What ``QueryInterfaceRequest`` and associations can both do: filter,
/// order, select, group, join. Extend it to write a refinement once for
/// requests and associations alike:
///
///     extension DerivableRequest<Player> {
///       func bestFirst() -> Self { order(Column("score").desc) }
///     }
///     let players = try Player.all().bestFirst().fetchAll(db)
///     let teams = try Team.including(all: Team.players.bestFirst()).fetchAll(db)
public protocol DerivableRequest<RowDecoder>:
  AggregatingRequest, FilteredRequest, JoinableRequest, OrderedRequest, SelectionRequest, TableRequest
{
  /// The request without duplicate rows.
  func distinct() -> Self

  /// The request with `cte` in its `WITH` clause (a definition of the same
  /// name is replaced).
  func with<T>(_ cte: CommonTableExpression<T>) -> Self
}
