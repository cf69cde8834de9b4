/// A database table, for the query interface without a record type:
///
///     let playerTable = Table("player")
///     let count = try playerTable.filter(Column("score") > 10).fetchCount(db)
///     let names = try Table<Player>("player").order(Column("name")).fetchAll(db)
public struct Table<RowDecoder>: Sendable {
  /// The table name.
  public let tableName: String

  /// A table whose rows are fetched as `RowDecoder`.
  public init(_ tableName: String) {
    self.tableName = tableName
  }

  /// All rows.
  public func all() -> QueryInterfaceRequest<RowDecoder> {
    QueryInterfaceRequest(relation: SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection]))
  }

  /// No rows.
  public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }
  /// Rows that match `predicate`.
  public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(predicate)
  }
  /// Rows that match raw SQL.
  public func filter(sql: String, arguments: StatementArguments = StatementArguments())
    -> QueryInterfaceRequest<RowDecoder>
  {
    all().filter(sql: sql, arguments: arguments)
  }
  /// Rows that match an SQL literal.
  public func filter(literal: SQL) -> QueryInterfaceRequest<RowDecoder> { all().filter(literal: literal) }
  /// Rows ordered by the given terms.
  public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
    all().order(orderings)
  }
  /// Rows in reverse primary key order.
  public func reversed() -> QueryInterfaceRequest<RowDecoder> { all().reversed() }
  /// The given columns or expressions.
  public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
    all().select(selection)
  }
  /// The given columns or expressions, fetched as `type`.
  public func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
    all().select(selection, as: type)
  }
  /// All columns plus the given ones.
  public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
    all().annotated(with: selection)
  }
  /// Distinct rows.
  public func distinct() -> QueryInterfaceRequest<RowDecoder> { all().distinct() }
  /// Rows grouped by the given expressions.
  public func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<RowDecoder> {
    all().group(expressions)
  }
  /// At most `limit` rows, after skipping `offset`.
  public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
    all().limit(limit, offset: offset)
  }
  /// The number of rows.
  public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }
  /// True if the table has no rows.
  public func isEmpty(_ db: Database) throws -> Bool { try all().isEmpty(db) }
  /// Deletes every row; returns how many.
  @discardableResult
  public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }
  /// Updates every row; returns how many.
  @discardableResult
  public func updateAll(_ db: Database, _ assignments: ColumnAssignment...) throws -> Int {
    try all().updateAll(db, assignments)
  }
}

extension Table where RowDecoder == Row {
  /// A table whose rows are fetched as ``Row``.
  public init(_ tableName: String) {
    self.tableName = tableName
  }
}
