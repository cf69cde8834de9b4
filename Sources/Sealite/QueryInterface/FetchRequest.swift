/// A request that fetches values of type `RowDecoder`: rows, plain values or
/// records. ``QueryInterfaceRequest`` and ``SQLRequest`` are fetch requests.
/// Every fetch request is also a subquery (``SQLSubqueryable``).
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, Sendable {
  /// What the request fetches.
  associatedtype RowDecoder

  /// The prepared statement that runs the request.
  func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

  /// The number of values the request fetches.
  func fetchCount(_ db: Database) throws -> Int
}

/// A request ready to run: its statement, and what to fetch afterwards for
/// `including(all:)` associations. It describes one run: a statement from the
/// connection's cache, with this run's arguments and restriction.
public struct PreparedRequest {
  /// The statement to run, with its arguments bound.
  public var statement: Statement
  /// Fetches and attaches the rows of to-many associations.
  var supplementaryFetch: SupplementaryFetch?
  /// The adapter of the fetched rows: the scopes of included associations,
  /// or the adapter an SQL request was given.
  public var adapter: (any RowAdapter)?
  /// The only rows this run can select, when the filters name them by rowid.
  var restriction: RowIDRestriction?
  /// The most rows this run returns, when the request has a LIMIT: a fetch of
  /// many makes room for them at once.
  var rowCountLimit: Int?

  init(
    statement: Statement, supplementaryFetch: SupplementaryFetch? = nil,
    adapter: (any RowAdapter)? = nil, restriction: RowIDRestriction? = nil, rowCountLimit: Int? = nil
  ) {
    self.statement = statement
    self.supplementaryFetch = supplementaryFetch
    self.adapter = adapter
    self.restriction = restriction
    self.rowCountLimit = rowCountLimit
  }

  /// The room a fetch of every row makes at once: the LIMIT, when it is
  /// small (a larger one may be far above the rows there are).
  var expectedRowCapacity: Int {
    guard let rowCountLimit, rowCountLimit > 0 else { return 0 }
    return min(rowCountLimit, 64)
  }

  /// A cursor over the statement's rows, adapted.
  func rowCursor() throws -> RowCursor {
    try RowCursor(statement: statement, adapter: rowTransform(), restriction: restriction)
  }

  /// The function that adapts each row, if the request has an adapter.
  func rowTransform() throws -> (@Sendable (Row) -> Row)? {
    try adapter?.rowTransform(for: statement)
  }

  /// A cursor over the values of the statement's first column.
  func valueCursor<Value: DatabaseValueConvertible>(of type: Value.Type) throws -> DatabaseValueCursor<Value>
  {
    try DatabaseValueCursor(
      statement: statement, columnIndex: statement.valueColumnIndex(adaptedBy: adapter),
      restriction: restriction)
  }

  /// A cursor over the values of the statement's first column, read straight
  /// from SQLite.
  func valueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>(of type: Value.Type) throws
    -> FastDatabaseValueCursor<Value>
  {
    try FastDatabaseValueCursor(
      statement: statement, columnIndex: statement.valueColumnIndex(adaptedBy: adapter),
      restriction: restriction)
  }

  /// All rows, adapted, with to-many associations attached.
  func fetchRows(_ db: Database) throws -> [Row] {
    let rows =
      try adapter == nil
      ? Row.collectAll(statement, in: db, restriction: restriction) : Row.collectAll(rowCursor())
    try supplementaryFetch?(db, rows, nil)
    return rows
  }

  /// The first row, adapted, with to-many associations attached.
  func fetchFirstRow(_ db: Database) throws -> Row? {
    guard let row = try rowCursor().next()?.copy() else { return nil }
    try supplementaryFetch?(db, [row], nil)
    return row
  }
}

extension FetchRequest {
  /// True if the request fetches nothing.
  public func isEmpty(_ db: Database) throws -> Bool {
    try fetchCount(db) == 0
  }
}

// MARK: - Fetching rows

extension FetchRequest where RowDecoder == Row {
  /// A cursor over the fetched rows.
  public func fetchCursor(_ db: Database) throws -> RowCursor {
    try Row.fetchCursor(db, self)
  }

  /// All fetched rows.
  public func fetchAll(_ db: Database) throws -> [Row] {
    try Row.fetchAll(db, self)
  }

  /// The first fetched row.
  public func fetchOne(_ db: Database) throws -> Row? {
    try Row.fetchOne(db, self)
  }

  /// The distinct fetched rows.
  public func fetchSet(_ db: Database) throws -> Set<Row> {
    try Row.fetchSet(db, self)
  }
}

extension Row {
  /// A cursor over the rows of a request.
  public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
    let prepared = try request.makePreparedRequest(db, forSingleResult: false)
    guard prepared.supplementaryFetch == nil else {
      throw DatabaseError.misuse(
        "a request that includes to-many associations can not be iterated with a cursor")
    }
    return try prepared.rowCursor()
  }

  /// All rows of a request.
  public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
    try request.makePreparedRequest(db, forSingleResult: false).fetchRows(db)
  }

  /// The first row of a request.
  public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
    try request.makePreparedRequest(db, forSingleResult: true).fetchFirstRow(db)
  }

  /// The distinct rows of a request.
  public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
    try Set(fetchAll(db, request))
  }
}

// MARK: - Fetching values

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
  /// A cursor over the fetched values.
  public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
    try RowDecoder.fetchCursor(db, self)
  }

  /// All fetched values.
  public func fetchAll(_ db: Database) throws -> [RowDecoder] {
    try RowDecoder.fetchAll(db, self)
  }

  /// The first fetched value, or nil if there is none or it is NULL.
  public func fetchOne(_ db: Database) throws -> RowDecoder? {
    try RowDecoder.fetchOne(db, self)
  }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
  /// The distinct fetched values.
  public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
    try RowDecoder.fetchSet(db, self)
  }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
  /// A cursor over the fetched values, read straight from SQLite.
  public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
    try RowDecoder.fetchCursor(db, self)
  }

  /// All fetched values, read straight from SQLite.
  public func fetchAll(_ db: Database) throws -> [RowDecoder] {
    try RowDecoder.fetchAll(db, self)
  }

  /// The first fetched value, read straight from SQLite, or nil if there is
  /// none or it is NULL.
  public func fetchOne(_ db: Database) throws -> RowDecoder? {
    try RowDecoder.fetchOne(db, self)
  }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
  /// The distinct fetched values, read straight from SQLite.
  public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
    try RowDecoder.fetchSet(db, self)
  }
}

extension DatabaseValueConvertible {
  /// A cursor over the values of a request's first column.
  public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<
    Self
  > {
    try request.makePreparedRequest(db, forSingleResult: false).valueCursor(of: Self.self)
  }

  /// All values of a request's first column.
  public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
    try Array(request.makePreparedRequest(db, forSingleResult: false).valueCursor(of: Self.self))
  }

  /// The value of the first row of a request, or nil.
  public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
    try request.makePreparedRequest(db, forSingleResult: true).valueCursor(of: Self?.self).next() ?? nil
  }
}

extension DatabaseValueConvertible where Self: Hashable {
  /// The distinct values of a request's first column.
  public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
    try Set(request.makePreparedRequest(db, forSingleResult: false).valueCursor(of: Self.self))
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
  /// A cursor over the values of a request's first column, read straight from SQLite.
  public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws
    -> FastDatabaseValueCursor<Self>
  {
    try request.makePreparedRequest(db, forSingleResult: false).valueCursor(of: Self.self)
  }

  /// All values of a request's first column, read straight from SQLite.
  public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
    try Array(request.makePreparedRequest(db, forSingleResult: false).valueCursor(of: Self.self))
  }

  /// The value of the first row of a request, read straight from SQLite, or nil.
  public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
    try request.makePreparedRequest(db, forSingleResult: true).valueCursor(of: Self?.self).next() ?? nil
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
  /// The distinct values of a request's first column, read straight from SQLite.
  public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
    try Set(request.makePreparedRequest(db, forSingleResult: false).valueCursor(of: Self.self))
  }
}
