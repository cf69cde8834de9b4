/// A request from SQL, usually written as an interpolated literal:
///
///     let request: SQLRequest<Player> = "SELECT * FROM player WHERE name = \(name)"
///     let players = try request.fetchAll(db)
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
  /// The SQL literal.
  public let sqlLiteral: SQL
  /// The adapter of the fetched rows, if any.
  public var adapter: (any RowAdapter)?
  /// Whether the statement is taken from the connection's statement cache.
  let cached: Bool

  /// A request from raw SQL and arguments, whose rows are adapted by
  /// `adapter`.
  public init(
    sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
    as type: RowDecoder.Type = RowDecoder.self, cached: Bool = false
  ) {
    self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, as: type, cached: cached)
  }

  /// A request from an SQL literal, whose rows are adapted by `adapter`.
  public init(
    literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, as type: RowDecoder.Type = RowDecoder.self,
    cached: Bool = false
  ) {
    self.init(storing: sqlLiteral, adapter: adapter, cached: cached)
  }

  // The one initializer that stores: the public ones, generic and of rows,
  // only differ in how the type of the fetched values is told.
  private init(storing sqlLiteral: SQL, adapter: (any RowAdapter)?, cached: Bool) {
    self.sqlLiteral = sqlLiteral
    self.adapter = adapter
    self.cached = cached
  }

  public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
    -> PreparedRequest
  {
    let (sql, arguments) = try sqlLiteral.build(db)
    let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    try statement.setArguments(arguments)
    return PreparedRequest(statement: statement, adapter: adapter)
  }

  public func fetchCount(_ db: Database) throws -> Int {
    let (sql, arguments) = try sqlLiteral.build(db)
    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
  }
}

extension SQLRequest where RowDecoder == Row {
  /// A request of rows from raw SQL and arguments: `SQLRequest(sql: "SELECT …")`
  /// fetches ``Row``s.
  public init(
    sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil,
    as type: Row.Type = Row.self, cached: Bool = false
  ) {
    self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, as: type, cached: cached)
  }

  /// A request of rows from an SQL literal.
  public init(
    literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, as type: Row.Type = Row.self,
    cached: Bool = false
  ) {
    self.init(storing: sqlLiteral, adapter: adapter, cached: cached)
  }
}

extension SQLRequest: ExpressibleByStringInterpolation, ExpressibleByStringLiteral,
  ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral
{
  public init(stringLiteral value: String) {
    self.init(literal: SQL(sql: value))
  }

  public init(unicodeScalarLiteral value: String) {
    self.init(literal: SQL(sql: value))
  }

  public init(extendedGraphemeClusterLiteral value: String) {
    self.init(literal: SQL(sql: value))
  }

  public init(stringInterpolation: SQL.StringInterpolation) {
    self.init(literal: SQL(stringInterpolation: stringInterpolation))
  }
}
