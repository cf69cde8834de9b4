// Fetching rows and values from SQL or from a prepared statement. Every fetch
// steps its statement as a cursor does, so that one mechanism checks
// arguments, access and errors; `fetchOne` and `fetchSet` drain a cursor, and
// `fetchAll` of plain rows steps the statement without a cursor object.

extension Row {
  /// A cursor over the rows of a prepared statement.
  public static func fetchCursor(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws
    -> RowCursor
  {
    try RowCursor(statement: statement, arguments: arguments, adapter: adapter?.rowTransform(for: statement))
  }

  /// All rows of a prepared statement.
  public static func fetchAll(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> [Row] {
    if let adapter { return try collectAll(fetchCursor(statement, arguments: arguments, adapter: adapter)) }
    let db = try statement.requireDatabase()
    if let arguments { try statement.setArguments(arguments) }
    return try collectAll(statement, in: db)
  }

  /// The rows of `cursor`, each copied.
  static func collectAll(_ cursor: RowCursor) throws -> [Row] {
    var rows: [Row] = []
    var copier = RowCopier()
    while let row = try cursor.next() { rows.append(copier.copy(row)) }
    return rows
  }

  /// The rows of a run of `statement`, each copied, without a cursor object
  /// (see `Statement.forEachStep`).
  static func collectAll(_ statement: Statement, in db: Database, restriction: RowIDRestriction? = nil) throws
    -> [Row]
  {
    var rows: [Row] = []
    var copier = RowCopier()
    let row = Row(statement: statement)
    try statement.forEachStep(in: db, restriction: restriction) { rows.append(copier.copy(row)) }
    return rows
  }

  /// The first row of a prepared statement, or nil.
  public static func fetchOne(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Row? {
    try fetchCursor(statement, arguments: arguments, adapter: adapter).next()?.copy()
  }

  /// The distinct rows of a prepared statement.
  public static func fetchSet(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Set<Row> {
    let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
    var rows: Set<Row> = []
    var copier = RowCopier()
    while let row = try cursor.next() { rows.insert(copier.copy(row)) }
    return rows
  }

  /// A cursor over the rows of an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> RowCursor
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// All rows of an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> [Row]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// The first row of an SQL query, or nil.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Row?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// The distinct rows of an SQL query.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Set<Row>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }
}

extension DatabaseValueConvertible {
  /// A cursor over the values of the first column of a prepared statement.
  public static func fetchCursor(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws
    -> DatabaseValueCursor<Self>
  {
    try DatabaseValueCursor(
      statement: statement, arguments: arguments,
      columnIndex: statement.valueColumnIndex(adaptedBy: adapter))
  }

  /// All values of the first column of a prepared statement. A NULL is an error
  /// unless `Self` is optional.
  public static func fetchAll(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> [Self] {
    try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
  }

  /// The value of the first column of the first row, or nil if there is no row
  /// or the value is NULL.
  public static func fetchOne(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Self? {
    try Optional<Self>.fetchCursor(statement, arguments: arguments, adapter: adapter).next() ?? nil
  }

  /// A cursor over the values of the first column of an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> DatabaseValueCursor<Self>
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// All values of the first column of an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> [Self]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// The value of the first column of the first row of an SQL query, or nil.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Self?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }
}

extension DatabaseValueConvertible where Self: Hashable {
  /// The distinct values of the first column of a prepared statement.
  public static func fetchSet(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Set<
    Self
  > {
    try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
  }

  /// The distinct values of the first column of an SQL query.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Set<Self>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
  /// A cursor over the values of the first column of a prepared statement,
  /// read straight from SQLite.
  public static func fetchCursor(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws
    -> FastDatabaseValueCursor<Self>
  {
    try FastDatabaseValueCursor(
      statement: statement, arguments: arguments,
      columnIndex: statement.valueColumnIndex(adaptedBy: adapter))
  }

  /// All values of the first column of a prepared statement.
  public static func fetchAll(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> [Self] {
    try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
  }

  /// The value of the first column of the first row, read straight from
  /// SQLite, or nil if there is no row or the value is NULL.
  public static func fetchOne(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Self? {
    try Optional<Self>.fetchCursor(statement, arguments: arguments, adapter: adapter).next() ?? nil
  }

  /// A cursor over the values of the first column of an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> FastDatabaseValueCursor<Self>
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// The value of the first column of the first row of an SQL query, read
  /// straight from SQLite, or nil.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Self?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// All values of the first column of an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> [Self]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
  /// The distinct values of the first column of a prepared statement, read
  /// straight from SQLite.
  public static func fetchSet(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Set<
    Self
  > {
    try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
  }

  /// The distinct values of the first column of an SQL query, read straight
  /// from SQLite.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Set<Self>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }
}
