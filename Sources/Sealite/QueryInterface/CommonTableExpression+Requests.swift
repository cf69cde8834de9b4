// Defining common table expressions in requests, associations and tables
// (the forms of record types are in Record/TableRecord+CommonTableExpressions.swift),
// and associating tables with them.

extension QueryInterfaceRequest {
  /// The request with `cte` in its `WITH` clause; a definition of the same
  /// name is replaced.
  ///
  ///     // WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "player" WHERE "score" = (SELECT * FROM "answer")
  ///     let answer = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
  ///     let request = Player.filter(Column("score") == answer.all()).with(answer)
  public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
    var request = self
    request.relation.ctes.define(cte.cte)
    return request
  }
}

extension Association {
  /// The association with `cte` defined in the `WITH` clause of the
  /// requests that use it.
  public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
    var association = self
    association.sqlAssociation.destination.ctes.define(cte.cte)
    return association
  }
}

extension Table {
  /// A request of every row of the table, with `cte` in its `WITH` clause.
  public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
    all().with(cte)
  }

  /// An association from this table to a common table expression, joined
  /// on `condition`, which gets the aliases of both tables.
  public func association<Destination>(
    to cte: CommonTableExpression<Destination>,
    on condition:
      @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) ->
      any SQLExpressible
  ) -> JoinAssociation<RowDecoder, Destination> {
    JoinAssociation(from: tableName, to: cte.relationForAll, on: condition)
  }

  /// An association from this table to a common table expression, without
  /// a join condition: its key is the common table expression's name.
  public func association<Destination>(to cte: CommonTableExpression<Destination>)
    -> JoinAssociation<RowDecoder, Destination>
  {
    JoinAssociation(from: tableName, to: cte.relationForAll, on: nil)
  }
}
