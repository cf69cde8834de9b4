// Interpolations of query interface values in SQL literals: coding keys,
// orderings and requests (as subqueries). Values still become bound
// arguments and names quoted identifiers.

extension SQL.StringInterpolation {
  /// The quoted column of a coding key: `"\(CodingKeys.score)"`.
  public mutating func appendInterpolation(_ codingKey: some CodingKey) {
    elements.append(.identifier(codingKey.stringValue))
  }

  /// An ordering term: `"ORDER BY \(Column("score").desc)"`.
  public mutating func appendInterpolation(_ ordering: SQLOrdering) {
    elements.append(.generated { context in try ordering.sql(context) })
  }

  /// A query interface request, as a parenthesized subquery:
  /// `"SELECT * FROM player WHERE score = \(Player.select(max(Column("score"))))"`.
  public mutating func appendInterpolation<T>(_ request: QueryInterfaceRequest<T>) {
    let relation = request.relation
    elements.append(
      .generated { context in
        guard let db = context.db else {
          throw DatabaseError.misuse(
            "a request interpolated in SQL needs a database connection to build its SQL")
        }
        let nested = SQLGenerationContext.nested(in: context)
        let sql = try relation.selectSQL(db, nested)
        try context.append(nested.arguments ?? StatementArguments())
        return "(" + sql + ")"
      })
  }

  /// An SQL request, as a parenthesized subquery: `"… WHERE score = \(maximumRequest)"`.
  /// Extra parentheses around it are harmless.
  public mutating func appendInterpolation<T>(_ request: SQLRequest<T>) {
    let literal = request.sqlLiteral
    elements.append(.generated { context in "(" + (try literal.sql(context)) + ")" })
  }
}
