// Associations from a record type to a table that has no record type:
//
//     struct Author: TableRecord {
//       static let books = hasMany(Table("book"))
//     }

extension TableRecord {
  /// An association to the row of `destination` that a row of this record's
  /// table refers to: this table holds the foreign key. Its key defaults to
  /// the destination table name.
  public static func belongsTo<Destination>(
    _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<Self, Destination> {
    BelongsToAssociation(
      sqlAssociation: SQLAssociation(
        .belongsTo, from: databaseTableName, to: destination.associationDestination, key: key,
        using: foreignKey))
  }

  /// An association to the one row of `destination` that refers to a row of
  /// this record's table. Its key defaults to the destination table name.
  public static func hasOne<Destination>(
    _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasOneAssociation<Self, Destination> {
    HasOneAssociation(
      sqlAssociation: SQLAssociation(
        .hasOne, from: databaseTableName, to: destination.associationDestination, key: key,
        using: foreignKey))
  }

  /// An association to the rows of `destination` that refer to a row of this
  /// record's table. Its key defaults to the plural of the destination table
  /// name.
  public static func hasMany<Destination>(
    _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<Self, Destination> {
    HasManyAssociation(
      sqlAssociation: SQLAssociation(
        .hasMany, from: databaseTableName, to: destination.associationDestination, key: key,
        using: foreignKey))
  }
}
