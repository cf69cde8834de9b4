/// A request of one database table or view: ``QueryInterfaceRequest`` and
/// associations. It can filter by primary key, order and group by primary
/// key, and be aliased.
public protocol TableRequest {
  /// The name of the table or view the request selects from.
  var databaseTableName: String { get }

  /// The request with its table known as `alias`; use `aliased(_:)`.
  func _aliased(_ alias: TableAliasBase) -> Self
}

extension TableRequest where Self: TypedRequest {
  /// Lets other parts of the request refer to the request's table through
  /// `alias`:
  ///
  ///     let playerAlias = TableAlias<Player>(name: "p")
  ///     // SELECT p.* FROM player p
  ///     let request = Player.all().aliased(playerAlias)
  public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
    _aliased(alias.alias)
  }

  /// Lets other parts of the request refer to the request's table through
  /// an alias of any table: `Player.all().aliased(TableAlias(name: "p"))`.
  public func aliased(_ alias: TableAlias<Void>) -> Self {
    _aliased(alias.alias)
  }
}

extension TableRequest where Self: FilteredRequest, Self: TypedRequest {
  /// Keeps the row whose single-column primary key (or rowid) is `key`; a
  /// NULL key selects nothing.
  public func filter(key: some DatabaseValueConvertible) -> Self {
    let value = key.databaseValue
    if value.isNull { return none() }
    return filter(primaryKeyValues: [value])
  }

  /// Keeps the rows whose single-column primary keys (or rowids) are in
  /// `keys`. A table with a composite primary key throws a misuse error
  /// when the request runs: use key dictionaries there.
  ///
  /// Inlinable: the keys are converted where their type is known, not by an
  /// unspecialized map of any sequence (3,400 instructions for two keys).
  @inlinable
  public func filter<Keys: Sequence>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
    filter(primaryKeyValues: keys.map { $0.databaseValue })
  }

  /// `filter(keys:)` of values already converted: the key of `filter(key:)`
  /// does not go through the generic map of a sequence of keys (an
  /// unspecialized map and a lookup of its metadata, 2,000 instructions
  /// per request).
  @usableFromInline
  func filter(primaryKeyValues: [DatabaseValue]) -> Self {
    let values = SQLFilter.nonNullKeys(primaryKeyValues)
    if values.isEmpty { return none() }
    let tableName = databaseTableName
    return filterWhenConnected { db in
      try SQLFilter.primaryKeyCondition(db, tableName: tableName, values: values)
    }
  }

  /// Keeps the row whose columns have the given values:
  /// `filter(key: ["countryCode": "FR", "citizenId": 42])`. A nil key
  /// selects nothing.
  public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
    guard let key else { return none() }
    return filter(keys: [key])
  }

  /// Keeps the rows whose columns have one of the given sets of values:
  /// `filter(keys: [["countryCode": "FR", "citizenId": 42]])`. Each
  /// dictionary holds the primary key or a unique key of the table (and
  /// maybe other columns); a dictionary that does not throws a misuse error
  /// when the request runs (GRDB stops the program). The columns of each
  /// dictionary are compared in the order of the key they hold, the other
  /// columns after them, as GRDB writes them.
  public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
    if keys.isEmpty { return none() }
    let keys = keys.map { key in key.mapValues { $0?.databaseValue ?? .null } }
    let tableName = databaseTableName
    return filterWhenConnected { db in
      let conditions = try keys.map { key in
        try SQLExpression.uniqueKeyCondition(db, tableName: tableName, key: key)
      }
      return SQLExpression(.associative("OR", conditions, empty: "0"))
    }
  }
}

extension SQLExpression {
  /// `a = ? AND b = ?` for a key dictionary of `tableName`, its columns in
  /// the order of the unique key it holds (see `filter(keys:)`).
  static func uniqueKeyCondition(_ db: Database, tableName: String, key: [String: DatabaseValue]) throws
    -> SQLExpression
  {
    guard let keyColumns = try db.columnsForUniqueKey(key.keys, in: tableName) else {
      let kind = try db.viewExists(tableName) ? "database view" : "table"
      throw DatabaseError.misuse(
        "\(kind) \(tableName) has no unique key on column(s) \(key.keys.sorted().joined(separator: ", "))")
    }
    func position(_ column: String) -> Int {
      keyColumns.firstIndex { $0.sameName(as: column) } ?? keyColumns.count
    }
    let terms = key.sorted { (position($0.key), $0.key) < (position($1.key), $1.key) }.map { column, value in
      SQLExpression.equality(SQLExpression(.column(column, alias: nil)), value.sqlExpression, negated: false)
    }
    return SQLExpression(.associative("AND", terms, empty: "1"))
  }
}

extension TableRequest
where
  Self: FilteredRequest, Self: TypedRequest, RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible
{
  /// Keeps the row whose primary key is `id`.
  public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

  /// Keeps the rows whose primary keys are in `ids`.
  public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}

extension TableRequest where Self: OrderedRequest {
  /// Orders by primary key (the rowid of a table without an explicit one),
  /// replacing any previous ordering: `Player.all().orderByPrimaryKey()`.
  public func orderByPrimaryKey() -> Self {
    let tableName = databaseTableName
    return orderWhenConnected { db in
      try db.primaryKey(tableName).columns.map { SQLExpression(.column($0, alias: nil)) }
    }
  }
}

extension TableRequest where Self: AggregatingRequest {
  /// Groups by primary key: by its rowid column if it has one, the rowid
  /// of a table without an explicit primary key, or the primary key
  /// columns of a `WITHOUT ROWID` table.
  public func groupByPrimaryKey() -> Self {
    let tableName = databaseTableName
    return groupWhenConnected { db in
      let primaryKey = try db.primaryKey(tableName)
      if let rowIDColumn = primaryKey.rowIDColumn { return [Column(rowIDColumn)] }
      if primaryKey.tableHasRowID { return [Column.rowID] }
      return primaryKey.columns.map { Column($0) }
    }
  }
}
