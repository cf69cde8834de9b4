extension TableAlias where RowDecoder: TableRecord {
  /// The columns and other components of the aliased record type.
  public typealias DatabaseComponents = RowDecoder.DatabaseComponents

  /// A column of the aliased table, named by the record's components:
  ///
  ///     let authorAlias = TableAlias<Author>()
  ///     let request = Book
  ///       .joining(required: Book.author.aliased(authorAlias))
  ///       .order(authorAlias.name, Column("title"))
  public subscript<T: SQLSpecificExpressible>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>)
    -> SQLExpression
  {
    self[RowDecoder.databaseComponents[keyPath: keyPath]]
  }
}

extension TableAlias where RowDecoder: TableRecord {
  /// A JSON column of the aliased table, named by the record's components, with the
  /// accessors of ``SQLJSONExpressible``:
  ///
  ///     let playerAlias = TableAlias<Player>()
  ///     // "player"."address" ->> 'city'
  ///     playerAlias.address["city"]
  public subscript<T: SQLJSONExpressible>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>)
    -> AnySQLJSONExpressible
  {
    self[RowDecoder.databaseComponents[keyPath: keyPath]]
  }
}
