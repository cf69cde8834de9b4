// Declaring associations on record types, with GRDB's names and default keys.

extension TableRecord {
  static func associationRelation<Destination: TableRecord>(_ destination: Destination.Type) -> SQLRelation {
    SQLRelation(
      tableName: Destination.databaseTableName,
      selection: Destination.databaseSelection.map { $0.sqlSelection })
  }

  /// An association to the row this record refers to: this record's table
  /// holds the foreign key. Its key defaults to the destination table name.
  public static func belongsTo<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<Self, Destination> {
    BelongsToAssociation(
      sqlAssociation: SQLAssociation(
        steps: [
          .init(
            kind: .belongsTo, originTable: databaseTableName, relation: associationRelation(destination),
            foreignKey: foreignKey)
        ], key: key.map { .fixed($0) } ?? .inflected(Destination.databaseTableName)))
  }

  /// An association to the one row that refers to this record. Its key
  /// defaults to the destination table name.
  public static func hasOne<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasOneAssociation<Self, Destination> {
    HasOneAssociation(
      sqlAssociation: SQLAssociation(
        steps: [
          .init(
            kind: .hasOne, originTable: databaseTableName, relation: associationRelation(destination),
            foreignKey: foreignKey)
        ], key: key.map { .fixed($0) } ?? .inflected(Destination.databaseTableName)))
  }

  /// An association to the rows that refer to this record. Its key defaults
  /// to the plural of the destination table name (`book` → `books`).
  public static func hasMany<Destination: TableRecord>(
    _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<Self, Destination> {
    HasManyAssociation(
      sqlAssociation: SQLAssociation(
        steps: [
          .init(
            kind: .hasMany, originTable: databaseTableName, relation: associationRelation(destination),
            foreignKey: foreignKey)
        ], key: key.map { .fixed($0) } ?? .inflected(Destination.databaseTableName)))
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
      sqlAssociation: SQLAssociation(
        steps: pivot.sqlAssociation.steps + target.sqlAssociation.steps,
        key: key.map { .fixed($0) } ?? target.sqlAssociation.key
      ))
  }

  /// An association to one row reached through to-one associations.
  public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
    _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
  ) -> HasOneThroughAssociation<Self, Target.RowDecoder>
  where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
    HasOneThroughAssociation(
      sqlAssociation: SQLAssociation(
        steps: pivot.sqlAssociation.steps + target.sqlAssociation.steps,
        key: key.map { .fixed($0) } ?? target.sqlAssociation.key
      ))
  }
}
