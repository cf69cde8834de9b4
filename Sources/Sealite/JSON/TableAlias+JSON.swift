extension TableAlias {
  /// A JSON expression whose columns belong to the aliased table; it keeps the accessors
  /// of ``SQLJSONExpressible``:
  ///
  ///     let playerAlias = TableAlias<Player>()
  ///     // "player"."address" ->> 'city'
  ///     playerAlias[JSONColumn("address")]["city"]
  public subscript(_ expression: some SQLJSONExpressible) -> AnySQLJSONExpressible {
    AnySQLJSONExpressible(sqlExpression: expression.sqlExpression.qualified(with: alias))
  }

  /// A JSON column of the aliased table (``JSONColumn``), with the accessors of
  /// ``SQLJSONExpressible``.
  public subscript<T: ColumnExpression & SQLJSONExpressible>(_ column: T) -> AnySQLJSONExpressible {
    AnySQLJSONExpressible(sqlExpression: column.sqlExpression.qualified(with: alias))
  }
}
