// Declaring associations on a `Table`, for databases without record types
// (the forms whose destination is a record type are in the Record layer,
// Record/Table+RecordAssociations.swift):
//
//     let authors = Table("author")
//     let books = Table("book")
//     let request = books.including(required: books.belongsTo(authors))

extension Table {
  /// The relation of this table as an association's destination: all its
  /// columns.
  var associationDestination: SQLRelation {
    SQLRelation(tableName: tableName, selection: [AllColumns().sqlSelection])
  }

  /// An association to the row of `destination` a row of this table refers
  /// to: this table holds the foreign key. Its key defaults to the
  /// destination table name.
  public func belongsTo<Destination>(
    _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<RowDecoder, Destination> {
    BelongsToAssociation(
      sqlAssociation: SQLAssociation(
        .belongsTo, from: tableName, to: destination.associationDestination, key: key, using: foreignKey))
  }

  /// An association to the one row of `destination` that refers to a row of
  /// this table. Its key defaults to the destination table name.
  public func hasOne<Destination>(
    _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasOneAssociation<RowDecoder, Destination> {
    HasOneAssociation(
      sqlAssociation: SQLAssociation(
        .hasOne, from: tableName, to: destination.associationDestination, key: key, using: foreignKey))
  }

  /// An association to the rows of `destination` that refer to a row of this
  /// table. Its key defaults to the plural of the destination table name.
  public func hasMany<Destination>(
    _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<RowDecoder, Destination> {
    HasManyAssociation(
      sqlAssociation: SQLAssociation(
        .hasMany, from: tableName, to: destination.associationDestination, key: key, using: foreignKey))
  }

  /// An association to many rows reached through another association:
  ///
  ///     let authors = Table("author"), books = Table("book")
  ///     let tags = authors.hasMany(
  ///       Row.self, through: authors.hasMany(books), using: books.hasMany(Table("tag")))
  public func hasMany<Pivot: Association, Target: Association>(
    _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
  ) -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
  where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder {
    HasManyThroughAssociation(
      sqlAssociation: SQLAssociation(through: pivot.sqlAssociation, using: target.sqlAssociation, key: key))
  }

  /// An association to one row reached through to-one associations.
  public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
    _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
  ) -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
  where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder {
    HasOneThroughAssociation(
      sqlAssociation: SQLAssociation(through: pivot.sqlAssociation, using: target.sqlAssociation, key: key))
  }
}
