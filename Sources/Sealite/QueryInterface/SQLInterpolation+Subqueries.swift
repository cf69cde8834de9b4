// Interpolations of subqueries and common table expressions in SQL literals.
// A subquery is written without parentheses, as GRDB writes it: the literal
// says where they go (`WHERE score = (\(maximum))`, `WITH … \(cte.all())`).

extension SQL.StringInterpolation {
  /// A request, as a subquery without parentheses:
  ///
  ///     let maximum = Player.select(max(Column("score")))
  ///     let request: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(maximum))"
  public mutating func appendInterpolation(
    _ subquery: some SQLSubqueryable & SQLExpressible & SQLSelectable & SQLOrderingTerm
  ) {
    elements.append(.literal(subquery.sqlSubquery.sqlLiteral))
  }

  /// The quoted name of a common table expression: `"SELECT * FROM \(cte)"`.
  public mutating func appendInterpolation(_ cte: CommonTableExpression<some Any>) {
    elements.append(.identifier(cte.tableName))
  }

  /// The definition of a common table expression, for a `WITH` clause:
  ///
  ///     // WITH "cte"("name") AS (SELECT 'O''Brien') SELECT * FROM "cte"
  ///     let cte = CommonTableExpression(named: "cte", columns: ["name"], literal: "SELECT \("O'Brien")")
  ///     let request: SQLRequest<Row> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
  public mutating func appendInterpolation(definitionFor cte: CommonTableExpression<some Any>) {
    let definition = cte.cte
    elements.append(.generated { context in try definition.definitionSQL(context) })
  }
}
