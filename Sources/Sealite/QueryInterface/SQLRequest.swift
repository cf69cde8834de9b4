/// A request from SQL, usually written as an interpolated literal:
///
///     let request: SQLRequest<Player> = "SELECT * FROM player WHERE name = \(name)"
///     let players = try request.fetchAll(db)
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
  /// The SQL literal.
  public let sqlLiteral: SQL
  /// Whether the statement is taken from the connection's statement cache.
  let cached: Bool

  /// A request from raw SQL and arguments.
  public init(
    sql: String, arguments: StatementArguments = StatementArguments(),
    as type: RowDecoder.Type = RowDecoder.self,
    cached: Bool = false
  ) {
    self.init(literal: SQL(sql: sql, arguments: arguments), as: type, cached: cached)
  }

  /// A request from an SQL literal.
  public init(literal sqlLiteral: SQL, as type: RowDecoder.Type = RowDecoder.self, cached: Bool = false) {
    self.sqlLiteral = sqlLiteral
    self.cached = cached
  }

  public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws
    -> PreparedRequest
  {
    let (sql, arguments) = try sqlLiteral.build(db)
    let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    try statement.setArguments(arguments)
    return PreparedRequest(statement: statement)
  }

  public func fetchCount(_ db: Database) throws -> Int {
    let (sql, arguments) = try sqlLiteral.build(db)
    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
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
