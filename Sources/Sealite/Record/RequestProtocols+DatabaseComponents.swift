// swift-format-ignore-file: AmbiguousTrailingClosureOverload
// (GRDB names both closure forms alike: `order { $0.score }` and
// `order { [$0.score, $0.name] }` are told apart by what the closure returns.)

// The closures of the request protocols receive the record's database
// components (`$0.score` in `filter { $0.score > 100 }`). They live in the
// Record layer, which declares `TableRecord`.

extension FilteredRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
  /// The columns and other components of the fetched record type.
  public typealias DatabaseComponents = RowDecoder.DatabaseComponents

  /// Keeps the rows that match the predicate built from the record's
  /// columns: `Player.all().filter { $0.score > 100 }`.
  public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self
  {
    try filter(predicate(RowDecoder.databaseComponents).sqlExpression)
  }
}

extension OrderedRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
  /// The columns and other components of the fetched record type.
  public typealias DatabaseComponents = RowDecoder.DatabaseComponents

  /// Orders by a term built from the record's columns:
  /// `Player.all().order(\.score.desc)`.
  public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
    try order([ordering(RowDecoder.databaseComponents)])
  }

  /// Orders by terms built from the record's columns:
  /// `Player.all().order { [$0.score.desc, $0.name] }`.
  public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
    try order(orderings(RowDecoder.databaseComponents))
  }
}

extension SelectionRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
  /// The columns and other components of the fetched record type.
  public typealias DatabaseComponents = RowDecoder.DatabaseComponents

  /// Selects a column or expression built from the record's columns:
  /// `Player.all().select { $0.name }`.
  public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
    try select([selection(RowDecoder.databaseComponents)])
  }

  /// Selects columns or expressions built from the record's columns:
  /// `Player.all().select { [$0.id, $0.name] }`.
  public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
    try select(selection(RowDecoder.databaseComponents))
  }

  /// Appends a column or expression built from the record's columns.
  public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
    try annotated(with: [selection(RowDecoder.databaseComponents)])
  }

  /// Appends columns or expressions built from the record's columns.
  public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
    try annotated(with: selection(RowDecoder.databaseComponents))
  }
}

extension AggregatingRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
  /// The columns and other components of the fetched record type.
  public typealias DatabaseComponents = RowDecoder.DatabaseComponents

  /// Groups by an expression built from the record's columns:
  /// `Player.all().group { $0.teamId }`.
  public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
    try group([expression(RowDecoder.databaseComponents)])
  }

  /// Groups by expressions built from the record's columns.
  public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
    try group(expressions(RowDecoder.databaseComponents))
  }

  /// Keeps the groups that match a predicate built from the record's columns.
  public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
    try having(predicate(RowDecoder.databaseComponents).sqlExpression)
  }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
  /// Selects a column or expression built from the record's columns, and
  /// fetches it as `type`: `Player.order(\.id).select(\.name, as: String.self)`.
  public func select<T>(
    _ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self
  )
    rethrows -> QueryInterfaceRequest<T>
  {
    try select(selection).asRequest(of: type)
  }
}
