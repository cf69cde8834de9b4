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
  public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<
    T
  > {
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
}

extension Table where RowDecoder == Row {
  /// A table whose rows are fetched as ``Row``.
  public init(_ tableName: String) {
    self.tableName = tableName
  }
}

extension Table {
  /// The row whose single-column primary key (or rowid) is `key`.
  public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(key: key)
  }

  /// The rows whose single-column primary keys (or rowids) are in `keys`.
  public func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<RowDecoder>
  where Keys.Element: DatabaseValueConvertible {
    all().filter(keys: keys)
  }

  /// The row whose columns have the given values.
  public func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(key: key)
  }

  /// The rows whose columns have one of the given sets of values.
  public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(keys: keys)
  }

  /// True if a row has the primary key `key`.
  public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
    // A NULL key selects no row: the database is not asked, as in GRDB.
    if key.databaseValue.isNull { return false }
    return try !filter(key: key).isEmpty(db)
  }

  /// True if a row has the given key values.
  public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
    try !filter(key: key).isEmpty(db)
  }

  /// Deletes the row with primary key `key`; returns whether one was deleted.
  @discardableResult
  public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
    if key.databaseValue.isNull { return false }
    return try filter(key: key).deleteAll(db) > 0
  }

  /// Deletes the row with the given key values; returns whether one was deleted.
  @discardableResult
  public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
    try filter(key: key).deleteAll(db) > 0
  }

  /// Deletes the rows with the given primary keys; returns how many.
  @discardableResult
  public func deleteAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> Int
  where Keys.Element: DatabaseValueConvertible {
    try filter(keys: keys).deleteAll(db)
  }

  /// Orders rows by raw SQL.
  public func order(sql: String, arguments: StatementArguments = StatementArguments())
    -> QueryInterfaceRequest<RowDecoder>
  {
    all().order(sql: sql, arguments: arguments)
  }

  /// Orders rows by an SQL literal.
  public func order(literal: SQL) -> QueryInterfaceRequest<RowDecoder> { all().order(literal: literal) }

  /// Selects raw SQL.
  public func select(sql: String, arguments: StatementArguments = StatementArguments())
    -> QueryInterfaceRequest<RowDecoder>
  {
    all().select(sql: sql, arguments: arguments)
  }

  /// Selects an SQL literal.
  public func select(literal: SQL) -> QueryInterfaceRequest<RowDecoder> { all().select(literal: literal) }

  /// Selects an SQL literal, fetched as `type`.
  public func select<T>(literal: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
    all().select(literal: literal, as: type)
  }
}

extension Table where RowDecoder == Row {
  /// A cursor over every row.
  public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
  /// Every row.
  public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }
  /// The first row.
  public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
  /// The distinct rows.
  public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }
  /// The row with the single-column primary key `key`.
  public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Row? {
    try filter(key: key).fetchOne(db)
  }
  /// The row with the given key values.
  public func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Row? {
    try filter(key: key).fetchOne(db)
  }
  /// The rows with the given primary keys.
  public func fetchAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> [Row]
  where Keys.Element: DatabaseValueConvertible {
    try filter(keys: keys).fetchAll(db)
  }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
  /// The row whose primary key is `id`.
  public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: id) }
  /// The rows whose primary keys are in `ids`.
  public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> {
    all().filter(keys: ids)
  }
}
