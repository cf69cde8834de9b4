// Declaring associations on record types, with GRDB's names and default keys.

extension TableRecord {
  /// The relation of an association's destination record type: its table,
  /// and the columns the record selects.
  static var associationDestination: SQLRelation {
    SQLRelation(tableName: databaseTableName, selection: databaseSQLSelection)
  }

  /// An association to the row this record refers to: this record's table
  /// holds the foreign key. Its key defaults to the destination table name.
  public static func belongsTo<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<Self, Destination> {
    BelongsToAssociation(
      sqlAssociation: SQLAssociation(
        .belongsTo, from: databaseTableName, to: Destination.associationDestination, key: key,
        using: foreignKey))
  }

  /// An association to the one row that refers to this record. Its key
  /// defaults to the destination table name.
  public static func hasOne<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasOneAssociation<Self, Destination> {
    HasOneAssociation(
      sqlAssociation: SQLAssociation(
        .hasOne, from: databaseTableName, to: Destination.associationDestination, key: key,
        using: foreignKey))
  }

  /// An association to the rows that refer to this record. Its key defaults
  /// to the plural of the destination table name (`book` → `books`).
  public static func hasMany<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<Self, Destination> {
    HasManyAssociation(
      sqlAssociation: SQLAssociation(
        .hasMany, from: databaseTableName, to: Destination.associationDestination, key: key,
        using: foreignKey))
  }

  /// An association to many rows reached through another association:
  ///
  ///     static let books = hasMany(Book.self)
  ///     static let tags = hasMany(Tag.self, through: books, using: Book.tags)
  public static func hasMany<Pivot: Association, Target: Association>(
    _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
  ) -> HasManyThroughAssociation<Self, Target.RowDecoder>
  where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
    HasManyThroughAssociation(
      sqlAssociation: SQLAssociation(through: pivot.sqlAssociation, using: target.sqlAssociation, key: key))
  }

  /// An association to one row reached through to-one associations.
  public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
    _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
  ) -> HasOneThroughAssociation<Self, Target.RowDecoder>
  where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
    HasOneThroughAssociation(
      sqlAssociation: SQLAssociation(through: pivot.sqlAssociation, using: target.sqlAssociation, key: key))
  }
}
