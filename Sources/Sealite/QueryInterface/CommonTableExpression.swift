/// A common table expression: a named `SELECT`, defined in the `WITH` clause
/// of a request, that the request reads like a table.
///
///     // WITH RECURSIVE "counter"("x") AS (VALUES(0) UNION ALL SELECT x+1 FROM counter WHERE x < 10)
///     // SELECT * FROM "counter"
///     let counter = CommonTableExpression<Int>(
///       recursive: true, named: "counter", columns: ["x"],
///       literal: "VALUES(0) UNION ALL SELECT x+1 FROM counter WHERE x < 10")
///     let values = try counter.all().with(counter).fetchAll(db)
///
/// A request defines it with `with(_:)`; `all()` selects from it, and
/// `association(to:on:)` joins it to other tables.
public struct CommonTableExpression<RowDecoder>: Sendable {
  let cte: SQLCTE

  /// The name of the common table expression, the table name requests read.
  public var tableName: String { cte.tableName }

  // The one initializer that stores: the public ones differ in how the
  // definition and the fetched type are given.
  private init(recursive: Bool, named tableName: String, columns: [String]?, subquery: SQLSubquery) {
    cte = SQLCTE(tableName: tableName, columns: columns, subquery: subquery, isRecursive: recursive)
  }

  /// A common table expression defined by a request: a query interface
  /// request, an ``SQLRequest``, any subquery.
  public init(
    recursive: Bool = false, named tableName: String, columns: [String]? = nil,
    request: some SQLSubqueryable
  ) {
    self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
  }

  /// A common table expression defined by raw SQL.
  public init(
    recursive: Bool = false, named tableName: String, columns: [String]? = nil, sql: String,
    arguments: StatementArguments = StatementArguments()
  ) {
    self.init(
      recursive: recursive, named: tableName, columns: columns,
      subquery: SQLSubquery(.literal(SQL(sql: sql, arguments: arguments))))
  }

  /// A common table expression defined by an SQL literal.
  public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal: SQL) {
    self.init(
      recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(.literal(literal)))
  }
}

extension CommonTableExpression where RowDecoder == Row {
  /// A common table expression of rows defined by a request.
  public init(
    recursive: Bool = false, named tableName: String, columns: [String]? = nil,
    request: some SQLSubqueryable
  ) {
    self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
  }

  /// A common table expression of rows defined by raw SQL.
  public init(
    recursive: Bool = false, named tableName: String, columns: [String]? = nil, sql: String,
    arguments: StatementArguments = StatementArguments()
  ) {
    self.init(
      recursive: recursive, named: tableName, columns: columns,
      subquery: SQLSubquery(.literal(SQL(sql: sql, arguments: arguments))))
  }

  /// A common table expression of rows defined by an SQL literal.
  public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal: SQL) {
    self.init(
      recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(.literal(literal)))
  }
}

extension CommonTableExpression {
  /// The relation of every row and column of the common table expression.
  var relationForAll: SQLRelation {
    var relation = SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection])
    relation.sourceCTE = cte
    return relation
  }

  /// A request of every row of the common table expression. The request
  /// must define it: `cte.all().with(cte)`.
  public func all() -> QueryInterfaceRequest<RowDecoder> {
    QueryInterfaceRequest(relation: relationForAll)
  }

  /// `element IN cte`: true where the common table expression has a row
  /// of `element` (it must select one column).
  public func contains(_ element: some SQLExpressible) -> SQLExpression {
    SQLExpression(.postfix(element.sqlExpression, "IN " + tableName.quotedDatabaseIdentifier))
  }

  /// An association from this common table expression to another one,
  /// joined on `condition`, which gets the aliases of both tables.
  public func association<Destination>(
    to cte: CommonTableExpression<Destination>,
    on condition:
      @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) ->
      any SQLExpressible
  ) -> JoinAssociation<RowDecoder, Destination> {
    JoinAssociation(from: tableName, to: cte.relationForAll, on: condition)
  }

  /// An association from this common table expression to another one,
  /// without a join condition: every pair of rows.
  public func association<Destination>(to cte: CommonTableExpression<Destination>)
    -> JoinAssociation<RowDecoder, Destination>
  {
    JoinAssociation(from: tableName, to: cte.relationForAll, on: nil)
  }

  /// An association from this common table expression to a table, joined on
  /// `condition`.
  public func association<Destination>(
    to destination: Table<Destination>,
    on condition:
      @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) ->
      any SQLExpressible
  ) -> JoinAssociation<RowDecoder, Destination> {
    JoinAssociation(from: tableName, to: destination.associationDestination, on: condition)
  }

  /// An association from this common table expression to a table, without a
  /// join condition.
  public func association<Destination>(to destination: Table<Destination>)
    -> JoinAssociation<RowDecoder, Destination>
  {
    JoinAssociation(from: tableName, to: destination.associationDestination, on: nil)
  }
}

/// The definition of a common table expression, as a request holds it.
struct SQLCTE: Sendable {
  var tableName: String
  var columns: [String]?
  var subquery: SQLSubquery
  var isRecursive: Bool

  /// `"name"("a", "b") AS (SELECT …)`.
  func definitionSQL(_ context: SQLGenerationContext) throws -> String {
    var sql = tableName.quotedDatabaseIdentifier
    if let columns, !columns.isEmpty {
      sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
    }
    return sql + " AS (" + (try subquery.sql(context)) + ")"
  }

  /// The number of columns: those declared, or those the definition selects.
  func columnCount(_ db: Database) throws -> Int {
    if let columns, !columns.isEmpty { return columns.count }
    do {
      return try subquery.columnCount(db)
    } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
      // The definition may read another common table expression, which the
      // statement compiled here does not define: say how to avoid compiling.
      throw DatabaseError(
        resultCode: error.extendedResultCode,
        message: "Can't compute the number of columns in the \(String(reflecting: tableName)) common table "
          + "expression: \(error.message ?? "error"). Check the syntax of the SQL definition, or provide the "
          + "explicit list of selected columns with the `columns` parameter in the CommonTableExpression "
          + "initializer.",
        sql: error.sql, arguments: error.arguments)
    }
  }
}
