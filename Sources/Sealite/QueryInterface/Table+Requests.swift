// The request builders of `Table` that GRDB gives it besides filters and
// orderings: each starts from `all()`, as those of record types do.

extension Table {
  /// Raw SQL selection, fetched as `type`:
  /// `Table("player").select(sql: "MAX(score)", as: Int.self)`.
  public func select<T>(
    sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self
  ) -> QueryInterfaceRequest<T> {
    all().select(sql: sql, arguments: arguments, as: type)
  }

  /// All rows, ordered by primary key (the rowid of a table without an
  /// explicit one).
  public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> {
    all().orderByPrimaryKey()
  }

  /// The primary key of every row, decoded as `PrimaryKey`: a value for a
  /// single-column primary key, a `Row` for a composite one.
  ///
  ///     let ids = try Table("player").selectPrimaryKey(as: Int64.self).fetchAll(db)
  public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
    -> QueryInterfaceRequest<PrimaryKey>
  {
    all().selectPrimaryKey(as: type)
  }

  /// All rows, with the table known to the rest of the request as `alias`.
  public func aliased(_ alias: TableAlias<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
    all().aliased(alias)
  }

  /// All rows, with the table known to the rest of the request as `alias`:
  /// `Table("player").aliased(TableAlias(name: "p"))`.
  public func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<RowDecoder> {
    all().aliased(alias)
  }

  /// Groups that match `predicate` (an association aggregate, or any
  /// expression).
  public func having(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> {
    all().having(predicate)
  }

  /// All rows with every associated row too (a second query).
  public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().including(all: association)
  }

  /// All rows with the associated row too, when present (LEFT JOIN).
  public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().including(optional: association)
  }

  /// The rows that have an associated row, with that row too (JOIN).
  public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().including(required: association)
  }

  /// All rows, joined to the associated table when it has a row, which is
  /// not fetched.
  public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().joining(optional: association)
  }

  /// The rows that have an associated row, which is not fetched.
  public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().joining(required: association)
  }

  /// All rows annotated with the selected columns of a required associated row.
  public func annotated<A: AssociationToOne>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().annotated(withRequired: association)
  }

  /// All rows annotated with the selected columns of an optional associated row.
  public func annotated<A: AssociationToOne>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder>
  where A.OriginRowDecoder == RowDecoder {
    all().annotated(withOptional: association)
  }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
  /// The `id` of every row, from the table's single-column primary key.
  public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
    all().selectID()
  }

  /// True if a row has the primary key `id`.
  public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
    try exists(db, key: id)
  }

  /// Deletes the row whose primary key is `id`; true if there was one.
  @discardableResult
  public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool {
    try deleteOne(db, key: id)
  }

  /// Deletes the rows whose primary keys are in `ids`; returns how many.
  @discardableResult
  public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int {
    try deleteAll(db, keys: ids)
  }
}
