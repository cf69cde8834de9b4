// swift-format-ignore-file: AmbiguousTrailingClosureOverload
// (GRDB gives each aggregate an expression form and a closure form.)

// Aggregates of associated records, with the expression built from the
// destination record's columns:
//
//     let averageScore = Team.players.average { $0.score }

extension AssociationToMany where RowDecoder: TableRecord {
  /// The average of the expression over the associated records.
  public func average(
    _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
  ) rethrows -> AssociationAggregate<OriginRowDecoder> {
    try average(expression(RowDecoder.databaseComponents))
  }

  /// The sum of the expression over the associated records (NULL when there
  /// is none).
  public func sum(
    _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
  ) rethrows -> AssociationAggregate<OriginRowDecoder> {
    try sum(expression(RowDecoder.databaseComponents))
  }

  /// The total of the expression over the associated records (0 when there
  /// is none).
  public func total(
    _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
  ) rethrows -> AssociationAggregate<OriginRowDecoder> {
    try total(expression(RowDecoder.databaseComponents))
  }

  /// The minimum of the expression over the associated records.
  public func min(
    _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
  ) rethrows -> AssociationAggregate<OriginRowDecoder> {
    try min(expression(RowDecoder.databaseComponents))
  }

  /// The maximum of the expression over the associated records.
  public func max(
    _ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible
  ) rethrows -> AssociationAggregate<OriginRowDecoder> {
    try max(expression(RowDecoder.databaseComponents))
  }
}
