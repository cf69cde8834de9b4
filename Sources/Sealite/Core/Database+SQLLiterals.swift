// Statements from SQL literals, whose interpolated values become arguments.

extension Database {
  /// A new compiled statement from an SQL literal, with the literal's
  /// arguments set:
  ///
  ///     let statement = try db.makeStatement(literal: "SELECT * FROM player WHERE id = \(id)")
  ///     let player = try Player.fetchOne(statement)
  public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
    let (sql, arguments) = try sqlLiteral.build(self)
    let statement = try makeStatement(sql: sql)
    try statement.setArguments(arguments)
    return statement
  }

  /// The cached statement of an SQL literal (see ``cachedStatement(sql:)``),
  /// with the literal's arguments set.
  public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
    let (sql, arguments) = try sqlLiteral.build(self)
    let statement = try cachedStatement(sql: sql)
    try statement.setArguments(arguments)
    return statement
  }
}
