// Selections and orderings by primary key, read from the schema when the
// request runs.

extension QueryInterfaceRequest {
  /// A request of the primary key of the selected rows, decoded as
  /// `PrimaryKey`: a single value for a single-column primary key
  /// (`Int64`, `String`…), or a `Row` of all its columns for a composite one.
  /// A table without an explicit primary key selects its rowid.
  ///
  ///     // SELECT id FROM player WHERE score > 100
  ///     let ids = try Player.filter(Column("score") > 100)
  ///       .selectPrimaryKey(as: Int64.self)
  ///       .fetchAll(db)
  public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
    -> QueryInterfaceRequest<PrimaryKey>
  {
    let tableName = databaseTableName
    return
      selectWhenConnected { db in
        try db.primaryKey(tableName).columns.map { Column($0) }
      }
      .asRequest(of: PrimaryKey.self)
  }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable {
  /// A request of the `id` of the selected records, read from the table's
  /// single-column primary key.
  ///
  ///     // SELECT id FROM player WHERE score > 100
  ///     let ids: [Player.ID] = try Player.filter(Column("score") > 100).selectID().fetchAll(db)
  ///
  /// A table with a composite primary key makes the request throw a misuse
  /// error when it runs (GRDB stops the program there).
  public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
    let tableName = databaseTableName
    return
      selectWhenConnected { db in
        let primaryKey = try db.primaryKey(tableName)
        guard primaryKey.columns.count == 1 else {
          throw DatabaseError.misuse(
            "selectID requires a single-column primary key in the table \(tableName), "
              + "which has (\(primaryKey.columns.joined(separator: ", ")))")
        }
        return [Column(primaryKey.columns[0])]
      }
      .asRequest(of: RowDecoder.ID.self)
  }
}
