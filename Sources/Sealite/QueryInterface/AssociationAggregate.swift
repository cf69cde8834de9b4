/// A value computed from the rows of a to-many association, for each origin
/// row: `Author.books.count`, `Author.books.max(Column("year"))`.
///
///     let request = Author.annotated(with: Author.books.count)   // bookCount
///     let prolific = Author.having(Author.books.count > 10)
///
/// Each aggregate is a correlated subquery, so several aggregates never
/// multiply each other's rows.
public struct AssociationAggregate<RowDecoder>: SQLSpecificExpressible, Sendable {
  let expression: SQLExpression
  /// The column name under which `annotated(with:)` selects the value.
  public let key: String

  public var sqlExpression: SQLExpression { expression }
  public var sqlSelection: SQLSelection { SQLSelection(impl: .aliased(expression, key)) }

  /// The aggregate, selected under another name.
  public func forKey(_ key: String) -> AssociationAggregate {
    AssociationAggregate(expression: expression, key: key)
  }

  /// The aggregate, selected under another name.
  public func aliased(_ name: String) -> AssociationAggregate { forKey(name) }
}

extension AssociationToMany {
  private var singularKey: String { sqlAssociation.key.singular }

  private func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

  private func aggregate(
    _ key: String, _ build: @escaping @Sendable (Database, SQLTableAlias) throws -> SQLExpression
  )
    -> AssociationAggregate<OriginRowDecoder>
  {
    let association = sqlAssociation
    let expression = SQLExpression(
      .dependent(
        nil,
        { context, origin, _ in try association.correlatedSubquery(context, origin: origin, selection: build)
        },
        isAggregate: true))
    return AssociationAggregate(expression: expression, key: key)
  }

  /// The number of associated rows (`bookCount`).
  public var count: AssociationAggregate<OriginRowDecoder> {
    let association = sqlAssociation
    return aggregate(singularKey + "Count") { db, alias in
      // Through several tables, one destination row can be reached by several
      // paths: count it once, by rowid or single-column primary key.
      guard association.steps.count > 1 else { return SQLExpression(.countAll) }
      let table = association.destination.tableName
      let primaryKey = try db.recordPrimaryKey(table)
      let keyColumn =
        primaryKey.isWithoutRowID ? (primaryKey.columns.count == 1 ? primaryKey.columns[0] : nil) : "rowid"
      guard let keyColumn else { return SQLExpression(.countAll) }
      return SQLExpression(
        .function("COUNT", [SQLExpression(.column(keyColumn, alias: alias))], distinct: true))
    }
  }

  /// True when there is no associated row (`hasNoBook`).
  public var isEmpty: AssociationAggregate<OriginRowDecoder> {
    let count = self.count
    return AssociationAggregate(
      expression: SQLExpression(.binary("=", count.expression, SQLExpression(.value(0)))),
      key: "hasNo" + capitalized(singularKey))
  }

  private func columnName(_ value: some SQLSpecificExpressible) -> String {
    capitalized(value.sqlExpression.columnName ?? "value")
  }

  /// The average of a value over the associated rows (`averageBookPrice`).
  public func average(_ value: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
    let expression = value.sqlExpression
    return aggregate("average" + capitalized(singularKey) + columnName(value)) { _, alias in
      SQLExpression(.function("AVG", [expression.qualified(with: alias)], distinct: false))
    }
  }

  /// The sum of a value over the associated rows, NULL for none (`bookPriceSum`).
  public func sum(_ value: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
    let expression = value.sqlExpression
    return aggregate(singularKey + columnName(value) + "Sum") { _, alias in
      SQLExpression(.function("SUM", [expression.qualified(with: alias)], distinct: false))
    }
  }

  /// The sum of a value over the associated rows, 0 for none (`bookPriceSum`).
  public func total(_ value: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
    let expression = value.sqlExpression
    return aggregate(singularKey + columnName(value) + "Sum") { _, alias in
      SQLExpression(.function("TOTAL", [expression.qualified(with: alias)], distinct: false))
    }
  }

  /// The minimum of a value over the associated rows (`minBookYear`).
  public func min(_ value: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
    let expression = value.sqlExpression
    return aggregate("min" + capitalized(singularKey) + columnName(value)) { _, alias in
      SQLExpression(.function("MIN", [expression.qualified(with: alias)], distinct: false))
    }
  }

  /// The maximum of a value over the associated rows (`maxBookYear`).
  public func max(_ value: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
    let expression = value.sqlExpression
    return aggregate("max" + capitalized(singularKey) + columnName(value)) { _, alias in
      SQLExpression(.function("MAX", [expression.qualified(with: alias)], distinct: false))
    }
  }
}

extension SQLAssociation {
  /// `(SELECT aggregate FROM destination … WHERE <linked to origin>)`.
  func correlatedSubquery(
    _ context: SQLGenerationContext, origin: SQLTableAlias,
    selection: @Sendable (Database, SQLTableAlias) throws -> SQLExpression
  ) throws -> String {
    guard let db = context.db else {
      throw DatabaseError.misuse("an association aggregate needs a database connection to build its SQL")
    }
    let (unresolved, firstAlias) = reversedRelation()
    var root = try unresolved.resolved(db)
    try root.shareFilters(ofAggregatesKeyed: key.singular, db, context)
    let first = steps[0]
    let correlatedAlias = firstAlias
    root.filters.append(
      .deferred { db in try first.condition(db, origin: origin, destination: correlatedAlias) })
    root.selection = [SQLSelection(impl: .expression(try selection(db, root.alias)))]
    root.ordering = []
    root.prefetches = []
    // A pivot's ordering (kept in prefetches) orders nothing here.
    root.joins = root.joins.map { join in
      var join = join.unordered()
      join.isIncluded = false
      return join
    }
    context.qualifiesColumns = true
    return "(" + (try root.selectSQL(db, context)) + ")"
  }
}
