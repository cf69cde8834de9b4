// Fetching values from a table, as its first column:
//
//     let names = try Table<String>("player").select(Column("name")).fetchAll(db)
//     let ids = try Table<Int64>("player").fetchAll(db)  // SELECT * FROM player: the first column

extension Table where RowDecoder: DatabaseValueConvertible {
  /// A cursor over the values of the first column of every row.
  public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
    try all().fetchCursor(db)
  }

  /// The values of the first column of every row.
  public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

  /// The value of the first column of the first row, or nil if there is no
  /// row or the value is NULL.
  public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
  /// The distinct values of the first column.
  public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
  /// A cursor over the values of the first column of every row, read
  /// straight from SQLite.
  public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
    try all().fetchCursor(db)
  }

  /// The values of the first column of every row, read straight from SQLite.
  public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }

  /// The value of the first column of the first row, read straight from
  /// SQLite, or nil if there is no row or the value is NULL.
  public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
  /// The distinct values of the first column, read straight from SQLite.
  public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}
