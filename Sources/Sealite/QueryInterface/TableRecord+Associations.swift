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

/// English plurals and singulars for default association keys and aggregate names.
enum Inflections {
  private static let irregular: [(String, String)] = [
    ("person", "people"), ("child", "children"), ("man", "men"), ("woman", "women"), ("mouse", "mice"),
    ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"),
  ]

  static func pluralize(_ word: String) -> String {
    let lower = word.lowercased()
    for (singular, plural) in irregular where lower.hasSuffix(singular) {
      return String(word.dropLast(singular.count))
        + matchCase(plural, of: String(word.suffix(singular.count)))
    }
    if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
      || lower.hasSuffix("sh")
    {
      return word + "es"
    }
    if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
      return word.dropLast() + "ies"
    }
    return word + "s"
  }

  static func singularize(_ word: String) -> String {
    let lower = word.lowercased()
    for (singular, plural) in irregular where lower.hasSuffix(plural) {
      return String(word.dropLast(plural.count)) + matchCase(singular, of: String(word.suffix(plural.count)))
    }
    if lower.hasSuffix("ies") { return word.dropLast(3) + "y" }
    for suffix in ["ches", "shes", "sses", "xes", "zes"] where lower.hasSuffix(suffix) {
      return String(word.dropLast(2))
    }
    if lower.hasSuffix("s") && !lower.hasSuffix("ss") { return String(word.dropLast()) }
    return word
  }

  private static func matchCase(_ replacement: String, of original: String) -> String {
    guard let first = original.first, first.isUppercase else { return replacement }
    return replacement.prefix(1).uppercased() + replacement.dropFirst()
  }
}
