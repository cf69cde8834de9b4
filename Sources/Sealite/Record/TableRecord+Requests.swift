// Requests built from a record type: `Player.filter(…)`, `Player.order(…)`, …
// Each starts from `all()`, which selects `databaseSelection` from the table.

extension TableRecord {
  /// All rows of the table.
  public static func all() -> QueryInterfaceRequest<Self> {
    QueryInterfaceRequest(
      relation: SQLRelation(tableName: databaseTableName, selection: databaseSQLSelection))
  }

  /// No rows.
  public static func none() -> QueryInterfaceRequest<Self> { all().none() }

  /// Rows that match `predicate`.
  public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
    all().filter(predicate)
  }

  /// Rows that match raw SQL.
  public static func filter(sql: String, arguments: StatementArguments = StatementArguments())
    -> QueryInterfaceRequest<Self>
  {
    all().filter(sql: sql, arguments: arguments)
  }

  /// Rows that match an SQL literal.
  public static func filter(literal: SQL) -> QueryInterfaceRequest<Self> { all().filter(literal: literal) }

  /// Rows ordered by the given terms.
  public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
    all().order(orderings)
  }

  /// Rows ordered by the given terms.
  public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
    all().order(orderings)
  }

  /// Rows ordered by raw SQL.
  public static func order(sql: String, arguments: StatementArguments = StatementArguments())
    -> QueryInterfaceRequest<Self>
  {
    all().order(sql: sql, arguments: arguments)
  }

  /// Rows in reverse primary key order.
  public static func reversed() -> QueryInterfaceRequest<Self> { all().reversed() }

  /// The given columns or expressions.
  public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
    all().select(selection)
  }

  /// The given columns or expressions.
  public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
    all().select(selection)
  }

  /// The given columns or expressions, fetched as `type`.
  public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self)
    -> QueryInterfaceRequest<T>
  {
    all().select(selection, as: type)
  }

  /// Raw SQL selection.
  public static func select(sql: String, arguments: StatementArguments = StatementArguments())
    -> QueryInterfaceRequest<Self>
  {
    all().select(sql: sql, arguments: arguments)
  }

  /// Raw SQL selection, fetched as `type`.
  public static func select<T>(
    sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
  ) -> QueryInterfaceRequest<T> {
    all().select(sql: sql, arguments: arguments, as: type)
  }

  /// An SQL literal selection.
  public static func select(literal: SQL) -> QueryInterfaceRequest<Self> { all().select(literal: literal) }

  /// An SQL literal selection, fetched as `type`.
  public static func select<T>(literal: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
    all().select(literal: literal, as: type)
  }

  /// Rows ordered by an SQL literal.
  public static func order(literal: SQL) -> QueryInterfaceRequest<Self> { all().order(literal: literal) }

  /// All columns plus the given ones.
  public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
    all().annotated(with: selection)
  }

  /// Distinct rows.
  public static func distinct() -> QueryInterfaceRequest<Self> { all().distinct() }

  /// Rows grouped by the given expressions.
  public static func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<Self> {
    all().group(expressions)
  }

  /// At most `limit` rows, after skipping `offset`.
  public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
    all().limit(limit, offset: offset)
  }

  /// The number of rows in the table.
  public static func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

  /// Deletes every row of the table; returns how many.
  @discardableResult
  public static func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }
}

// MARK: - Keys

extension TableRecord {
  /// The row whose single-column primary key (or rowid) is `key`.
  public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
    all().filter(key: key)
  }

  /// The rows whose single-column primary keys (or rowids) are in `keys`.
  public static func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<Self>
  where Keys.Element: DatabaseValueConvertible {
    all().filter(keys: keys)
  }

  /// The row whose columns have the given values (a primary or unique key).
  public static func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<Self> {
    all().filter(key: key)
  }

  /// The rows whose columns have one of the given sets of values.
  public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self>
  {
    all().filter(keys: keys)
  }

  /// True if a row has the primary key `key`.
  public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
    // The SELECT the connection keeps for the table's key: the request
    // `filter(key:)` would build would be rendered again at each call.
    let value = try PrimaryKeyEncoding.value(db, key, recordType: Self.self, tableName: databaseTableName)
    if value.isNull { return false }
    return try db.singleKeyStatements(databaseTableName).rowExists(db, key: value)
  }

  /// True if a row has the given key values.
  public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
    try !filter(key: key).isEmpty(db)
  }

  /// Deletes the row with primary key `key`; returns whether one was deleted.
  @discardableResult
  public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
    // The DELETE the connection keeps for the table's key (see exists(_:key:)).
    let value = try PrimaryKeyEncoding.value(db, key, recordType: Self.self, tableName: databaseTableName)
    if value.isNull { return false }
    return try db.singleKeyStatements(databaseTableName).deleteRow(db, key: value)
  }

  /// Deletes the row with the given key values; returns whether one was deleted.
  @discardableResult
  public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool
  {
    try filter(key: key).deleteAll(db) > 0
  }

  /// Deletes the rows with the given primary keys; returns how many.
  @discardableResult
  public static func deleteAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> Int
  where Keys.Element: DatabaseValueConvertible {
    try filter(keys: keys).deleteAll(db)
  }

  /// Deletes the rows with the given key values; returns how many.
  @discardableResult
  public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
    -> Int
  {
    try filter(keys: keys).deleteAll(db)
  }
}

// MARK: - Identifiable

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
  /// The row whose primary key is `id`.
  public static func filter(id: ID) -> QueryInterfaceRequest<Self> { all().filter(key: id) }

  /// The rows whose primary keys are in `ids`.
  public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> {
    all().filter(keys: ids)
  }

  /// True if a row has the primary key `id`.
  public static func exists(_ db: Database, id: ID) throws -> Bool { try exists(db, key: id) }

  /// Deletes the row with primary key `id`; returns whether one was deleted.
  @discardableResult
  public static func deleteOne(_ db: Database, id: ID) throws -> Bool { try deleteOne(db, key: id) }

  /// Deletes the rows with the given primary keys; returns how many.
  @discardableResult
  public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
    try deleteAll(db, keys: ids)
  }
}
