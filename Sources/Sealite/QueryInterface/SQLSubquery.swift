/// A `SELECT` statement used inside another statement: as a value
/// (`score = (SELECT …)`), in `EXISTS (…)`, in `IN (…)`, or as the definition
/// of a ``CommonTableExpression``. Requests make one with their
/// ``SQLSubqueryable/sqlSubquery`` property.
public struct SQLSubquery: Sendable {
  indirect enum Impl: Sendable {
    /// An SQL literal, rendered as written.
    case literal(SQL)
    /// A query interface request's relation, rendered when the enclosing
    /// statement is.
    case relation(SQLRelation)
  }

  let impl: Impl

  init(_ impl: Impl) {
    self.impl = impl
  }

  /// The subquery's SQL, without parentheses, rendered in a context of its
  /// own whose enclosing context is `context`: columns of the enclosing
  /// query's tables are qualified with the names that query gives them.
  func sql(_ context: SQLGenerationContext) throws -> String {
    let nested = SQLGenerationContext.nested(in: context)
    let sql: String
    switch impl {
    case .literal(let literal):
      sql = try literal.sql(nested)
    case .relation(let relation):
      guard let db = context.db else {
        throw DatabaseError.misuse("a subquery needs a database connection to build its SQL")
      }
      sql = try relation.resolved(db).selectSQL(db, nested)
    }
    // The subquery's arguments sit where its text does in the enclosing SQL.
    try context.append(nested.arguments ?? StatementArguments())
    return sql
  }

  /// The number of columns the subquery selects: counted from a request's
  /// selection, or from the compiled statement of an SQL literal.
  func columnCount(_ db: Database) throws -> Int {
    switch impl {
    case .relation(let relation):
      return try relation.resolved(db).selectionWidth(db)
    case .literal(let literal):
      let (sql, _) = try literal.build(db)
      return try db.makeStatement(sql: sql).columnCount
    }
  }

  /// The subquery as a literal element of a larger SQL literal.
  var sqlLiteral: SQL {
    SQL(elements: [.generated { context in try self.sql(context) }])
  }
}

/// A type that can be used as a subquery: every ``FetchRequest``.
///
///     // SELECT * FROM player WHERE score = (SELECT MAX(score) FROM player)
///     let maximum = Player.select(max(Column("score")))
///     let leaders = Player.filter(Column("score") == maximum)
///
///     // SELECT * FROM team WHERE EXISTS (SELECT * FROM player WHERE teamID = team.id)
///     let teamAlias = TableAlias<Team>()
///     let player = Player.filter(Column("teamID") == teamAlias[Column("id")])
///     let teams = Team.aliased(teamAlias).filter(player.exists())
public protocol SQLSubqueryable: SQLSpecificExpressible {
  /// The subquery.
  var sqlSubquery: SQLSubquery { get }
}

extension SQLSubquery: SQLSubqueryable {
  /// The subquery itself.
  public var sqlSubquery: SQLSubquery { self }
}

extension SQLSubqueryable {
  /// The subquery as a value: `(SELECT …)`.
  public var sqlExpression: SQLExpression {
    SQLExpression(.subquery(sqlSubquery.sqlLiteral))
  }

  /// `element IN (subquery)`: true where the subquery selects `element`.
  ///
  ///     // SELECT * FROM player WHERE id IN (SELECT playerID FROM award)
  ///     let awarded = Award.select(Column("playerID"))
  ///     let players = Player.filter(awarded.contains(Column("id")))
  public func contains(_ element: some SQLExpressible) -> SQLExpression {
    SQLExpression(.inSubquery(element.sqlExpression, sqlSubquery.sqlLiteral, negated: false))
  }

  /// `EXISTS (subquery)`: true where the subquery selects a row.
  /// `!request.exists()` is `NOT EXISTS (subquery)`.
  public func exists() -> SQLExpression {
    SQLExpression(.exists(sqlSubquery.sqlLiteral, negated: false))
  }
}
