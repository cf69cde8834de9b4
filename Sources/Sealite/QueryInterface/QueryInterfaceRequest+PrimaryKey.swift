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

// A request's filters by primary key keep their values as they are, not in
// a closure that builds the condition when the request runs: the request's
// SQL is then found by its shape with nothing built first, nor a copy of the
// request's relation (see `SQLFilter.primaryKey`). Associations filter by
// key through `filterWhenConnected` (TableRequest.swift).
extension QueryInterfaceRequest {
  /// Keeps the row whose single-column primary key (or rowid) is `key`; a
  /// NULL key selects nothing. A table with a composite primary key throws
  /// a misuse error when the request runs: use key dictionaries there.
  public consuming func filter<Key: DatabaseValueConvertible>(key: Key) -> Self {
    if Self._encodesKeys(of: Key.self) { return filteredByEncodedPrimaryKeys([key]) }
    return filteredByPrimaryKey([key.databaseValue])
  }

  /// Keeps the rows whose single-column primary keys (or rowids) are in
  /// `keys`; NULL keys select nothing. Inlinable: the keys are converted
  /// where their type is known.
  @inlinable
  public consuming func filter<Keys: Sequence>(keys: Keys) -> Self
  where Keys.Element: DatabaseValueConvertible {
    if Self._encodesKeys(of: Keys.Element.self) {
      return filteredByEncodedPrimaryKeys(keys.map { $0 as any DatabaseValueConvertible })
    }
    return filteredByPrimaryKey(keys.map { $0.databaseValue })
  }

  /// The request restricted to the rows whose primary key is one of `keys`.
  @usableFromInline
  consuming func filteredByPrimaryKey(_ keys: [DatabaseValue]) -> Self {
    let values = SQLFilter.nonNullKeys(keys)
    if values.isEmpty { return none() }
    var request = self
    request.relation.filters.append(.primaryKey(tableName: request.databaseTableName, values: values))
    return request
  }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
  /// Keeps the row whose primary key is `id`.
  public consuming func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

  /// Keeps the rows whose primary keys are in `ids`.
  public consuming func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}
