// Common table expressions and record types: defining one in a request of the
// record's table, associating the record with one, and one with a record.

extension TableRecord {
  /// A request of every record, with `cte` in its `WITH` clause.
  public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
    all().with(cte)
  }

  /// An association from this record type to a common table expression,
  /// joined on `condition`, which gets the aliases of both tables:
  ///
  ///     let latestPost = Chat.association(to: latestPostCTE) { chat, post in
  ///       chat[Column("id")] == post[Column("chatID")]
  ///     }
  public static func association<Destination>(
    to cte: CommonTableExpression<Destination>,
    on condition:
      @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) ->
      any SQLExpressible
  ) -> JoinAssociation<Self, Destination> {
    JoinAssociation(from: databaseTableName, to: cte.relationForAll, on: condition)
  }

  /// An association from this record type to a common table expression,
  /// without a join condition: its key is the common table expression's name.
  public static func association<Destination>(to cte: CommonTableExpression<Destination>)
    -> JoinAssociation<Self, Destination>
  {
    JoinAssociation(from: databaseTableName, to: cte.relationForAll, on: nil)
  }
}

extension CommonTableExpression {
  /// An association from this common table expression to a record type,
  /// joined on `condition`.
  public func association<Destination: TableRecord>(
    to destination: Destination.Type,
    on condition:
      @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) ->
      any SQLExpressible
  ) -> JoinAssociation<RowDecoder, Destination> {
    JoinAssociation(from: tableName, to: Destination.associationDestination, on: condition)
  }

  /// An association from this common table expression to a record type,
  /// without a join condition.
  public func association<Destination: TableRecord>(to destination: Destination.Type)
    -> JoinAssociation<RowDecoder, Destination>
  {
    JoinAssociation(from: tableName, to: Destination.associationDestination, on: nil)
  }
}
