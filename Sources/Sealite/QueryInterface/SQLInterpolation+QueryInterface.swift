// Interpolations of query interface values in SQL literals: coding keys,
// orderings and tables (requests and common table expressions: see
// SQLInterpolation+Subqueries.swift). Values still become bound
// arguments and names quoted identifiers.

extension SQL.StringInterpolation {
  /// The quoted column of a coding key: `"\(CodingKeys.score)"`.
  public mutating func appendInterpolation(_ codingKey: some CodingKey) {
    elements.append(.identifier(codingKey.stringValue))
  }

  /// A coding key that names a column by itself too (`enum CodingKeys:
  /// String, CodingKey, ColumnExpression`): its quoted column.
  public mutating func appendInterpolation(_ codingKey: some CodingKey & SQLSpecificExpressible) {
    elements.append(.identifier(codingKey.stringValue))
  }

  /// The quoted column of a coding key known at run time only.
  @_disfavoredOverload
  public mutating func appendInterpolation(_ codingKey: any CodingKey) {
    elements.append(.identifier(codingKey.stringValue))
  }

  /// A selection: `"SELECT \(AllColumns()) FROM player"`, `"SELECT \(Column("a").forKey("b"))"`.
  public mutating func appendInterpolation(_ selection: some SQLSelectable) {
    let selection = selection.sqlSelection
    elements.append(.generated { context in try selection.sql(context) })
  }

  /// A selection of a type known at run time only; nil is `NULL`.
  @_disfavoredOverload
  public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
    guard let selection = selection?.sqlSelection else {
      return elements.append(.sql("NULL", StatementArguments()))
    }
    elements.append(.generated { context in try selection.sql(context) })
  }

  /// An ordering term: `"ORDER BY \(Column("score").desc)"`.
  public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
    let ordering = orderingTerm.sqlOrdering
    elements.append(.generated { context in try ordering.sql(context) })
  }

  /// An ordering term of a type known at run time only.
  @_disfavoredOverload
  public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
    let ordering = orderingTerm.sqlOrdering
    elements.append(.generated { context in try ordering.sql(context) })
  }

  /// A comma-separated, parenthesized list of expressions:
  /// `"IN \([Column("a"), Column("b")])"` → `IN ("a","b")`; an empty list is a subquery of no
  /// row, `(SELECT NULL WHERE NULL)`, as in GRDB.
  public mutating func appendInterpolation(_ expressions: some Sequence<some SQLSpecificExpressible>) {
    appendList(expressions.map(\.sqlExpression))
  }

  /// A comma-separated, parenthesized list of expressions of types known at
  /// run time only.
  public mutating func appendInterpolation(_ expressions: some Sequence<any SQLExpressible>) {
    appendList(expressions.map(\.sqlExpression))
  }

  /// The quoted name of a table: `"SELECT * FROM \(Table("player"))"`.
  @_disfavoredOverload
  public mutating func appendInterpolation<T>(_ table: Table<T>) {
    elements.append(.identifier(table.tableName))
  }
}
