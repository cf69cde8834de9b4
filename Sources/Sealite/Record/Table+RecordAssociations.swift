// Associations from a `Table` to a record type:
//
//     let books = Table<Book>("book")
//     let request = books.including(required: books.belongsTo(Author.self))

extension Table {
  /// An association to the `Destination` record a row of this table refers
  /// to: this table holds the foreign key. Its key defaults to the
  /// destination table name.
  public func belongsTo<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<RowDecoder, Destination> {
    BelongsToAssociation(
      sqlAssociation: SQLAssociation(
        .belongsTo, from: tableName, to: Destination.associationDestination, key: key, using: foreignKey))
  }

  /// An association to the one `Destination` record that refers to a row of
  /// this table. Its key defaults to the destination table name.
  public func hasOne<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasOneAssociation<RowDecoder, Destination> {
    HasOneAssociation(
      sqlAssociation: SQLAssociation(
        .hasOne, from: tableName, to: Destination.associationDestination, key: key, using: foreignKey))
  }

  /// An association to the `Destination` records that refer to a row of this
  /// table. Its key defaults to the plural of the destination table name.
  public func hasMany<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<RowDecoder, Destination> {
    HasManyAssociation(
      sqlAssociation: SQLAssociation(
        .hasMany, from: tableName, to: Destination.associationDestination, key: key, using: foreignKey))
  }
}
