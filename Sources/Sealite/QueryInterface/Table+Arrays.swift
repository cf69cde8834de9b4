// The array forms of `Table`'s request builders, as GRDB has them:
//
//     let columns = [Column("id"), Column("name")]
//     let request = Table("player").select(columns).order([Column("name")])

extension Table {
  /// The given columns or expressions.
  public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
    all().select(selection)
  }

  /// The given columns or expressions, fetched as `type`:
  /// `Table("player").select([Column("name")], as: String.self)`.
  public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<
    T
  > {
    all().select(selection, as: type)
  }

  /// All columns plus the given ones.
  public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
    all().annotated(with: selection)
  }

  /// Rows in the given order.
  public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> {
    all().order(orderings)
  }

  /// Deletes the rows with the given keys (each a dictionary of column
  /// values that identify one row); returns how many.
  @discardableResult
  public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
    try filter(keys: keys).deleteAll(db)
  }
}
