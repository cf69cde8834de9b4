// swift-format-ignore-file: AmbiguousTrailingClosureOverload
// (GRDB names both closure forms alike: `order { $0.score }` and
// `order { [$0.score, $0.name] }` are told apart by what the closure returns.)

// Requests built from a record type with closures that receive the record's
// database components, and requests by primary key: `Player.filter { $0.score
// > 100 }`, `Player.order(\.score.desc)`, `Player.orderByPrimaryKey()`.

extension TableRecord {
  /// Rows that match a predicate built from the record's columns:
  ///
  ///     let players = try Player.filter { $0.score > 100 }.fetchAll(db)
  public static func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().filter(predicate)
  }

  /// Rows ordered by a term built from the record's columns:
  ///
  ///     let players = try Player.order(\.score.desc).fetchAll(db)
  public static func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().order(ordering)
  }

  /// Rows ordered by terms built from the record's columns:
  ///
  ///     let players = try Player.order { [$0.score.desc, $0.name] }.fetchAll(db)
  public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().order(orderings)
  }

  /// A column or expression built from the record's columns:
  ///
  ///     let names = try Player.select(\.name, as: String.self).fetchAll(db)
  public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().select(selection)
  }

  /// Columns or expressions built from the record's columns.
  public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().select(selection)
  }

  /// A column or expression built from the record's columns, fetched as
  /// `type`: `Player.select(\.score, as: Int.self)`.
  public static func select<T>(
    _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self
  ) rethrows -> QueryInterfaceRequest<T> {
    try all().select(selection).asRequest(of: type)
  }

  /// The given columns or expressions, fetched as `type`.
  public static func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self)
    -> QueryInterfaceRequest<T>
  {
    all().select(selection, as: type)
  }

  /// All columns plus one built from the record's columns.
  public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().annotated(with: selection)
  }

  /// All columns plus those built from the record's columns.
  public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
    -> QueryInterfaceRequest<Self>
  {
    try all().annotated(with: selection)
  }

  /// All columns plus the given ones.
  public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
    all().annotated(with: selection)
  }

  /// All rows, ordered by primary key (the rowid of a table without an
  /// explicit one).
  public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
    all().orderByPrimaryKey()
  }

  /// The primary key of every row, decoded as `PrimaryKey`: a value for a
  /// single-column primary key, a `Row` for a composite one.
  ///
  ///     let ids = try Player.selectPrimaryKey(as: Int64.self).fetchAll(db)
  public static func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
    -> QueryInterfaceRequest<PrimaryKey>
  {
    all().selectPrimaryKey(as: type)
  }

  /// All rows, with the table known to the rest of the request as `alias`.
  public static func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<Self> {
    all().aliased(alias)
  }
}

extension TableRecord where Self: Identifiable {
  /// The `id` of every record, from the table's single-column primary key:
  ///
  ///     let ids: [Player.ID] = try Player.selectID().fetchAll(db)
  public static func selectID() -> QueryInterfaceRequest<Self.ID> {
    all().selectID()
  }
}
