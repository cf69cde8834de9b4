// Fetching rows and values from SQL or from a prepared statement. Every fetch
// goes through a cursor, so that one mechanism checks arguments, access and
// errors; `fetchAll`, `fetchOne` and `fetchSet` drain it.

extension Row {
  /// A cursor over the rows of a prepared statement.
  public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws
    -> RowCursor
  {
    try RowCursor(statement: statement, arguments: arguments)
  }

  /// All rows of a prepared statement.
  public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
    try collectAll(RowCursor(statement: statement, arguments: arguments))
  }

  /// The rows of `cursor`, each copied.
  static func collectAll(_ cursor: RowCursor) throws -> [Row] {
    var rows: [Row] = []
    var copier = RowCopier()
    while let row = try cursor.next() { rows.append(copier.copy(row)) }
    return rows
  }

  /// The first row of a prepared statement, or nil.
  public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
    try RowCursor(statement: statement, arguments: arguments).next()?.copy()
  }

  /// The distinct rows of a prepared statement.
  public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Row>
  {
    let cursor = try RowCursor(statement: statement, arguments: arguments)
    var rows: Set<Row> = []
    var copier = RowCopier()
    while let row = try cursor.next() { rows.insert(copier.copy(row)) }
    return rows
  }

  /// A cursor over the rows of an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> RowCursor
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// All rows of an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> [Row]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// The first row of an SQL query, or nil.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> Row?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// The distinct rows of an SQL query.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> Set<Row>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible {
  /// A cursor over the values of the first column of a prepared statement.
  public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws
    -> DatabaseValueCursor<Self>
  {
    try DatabaseValueCursor(statement: statement, arguments: arguments)
  }

  /// All values of the first column of a prepared statement. A NULL is an error
  /// unless `Self` is optional.
  public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
    try Array(fetchCursor(statement, arguments: arguments))
  }

  /// The value of the first column of the first row, or nil if there is no row
  /// or the value is NULL.
  public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
    try Optional<Self>.fetchCursor(statement, arguments: arguments).next() ?? nil
  }

  /// A cursor over the values of the first column of an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> DatabaseValueCursor<Self>
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// All values of the first column of an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> [Self]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// The value of the first column of the first row of an SQL query, or nil.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> Self?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible where Self: Hashable {
  /// The distinct values of the first column of a prepared statement.
  public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<
    Self
  > {
    try Set(fetchCursor(statement, arguments: arguments))
  }

  /// The distinct values of the first column of an SQL query.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> Set<Self>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
  /// A cursor over the values of the first column of a prepared statement,
  /// read straight from SQLite.
  public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws
    -> FastDatabaseValueCursor<Self>
  {
    try FastDatabaseValueCursor(statement: statement, arguments: arguments)
  }

  /// All values of the first column of a prepared statement.
  public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
    try Array(fetchCursor(statement, arguments: arguments))
  }

  /// The value of the first column of the first row, read straight from
  /// SQLite, or nil if there is no row or the value is NULL.
  public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
    try FastDatabaseValueCursor<Self?>(statement: statement, arguments: arguments).next() ?? nil
  }

  /// A cursor over the values of the first column of an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> FastDatabaseValueCursor<Self>
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// The value of the first column of the first row of an SQL query, read
  /// straight from SQLite, or nil.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> Self?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments)
  }

  /// All values of the first column of an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> [Self]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
  /// The distinct values of the first column of a prepared statement, read
  /// straight from SQLite.
  public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<
    Self
  > {
    try Set(fetchCursor(statement, arguments: arguments))
  }

  /// The distinct values of the first column of an SQL query, read straight
  /// from SQLite.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  )
    throws -> Set<Self>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments)
  }
}
