// SQL functions and aggregates, with GRDB's names.

/// `ABS(value)`.
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("ABS", [value.sqlExpression], distinct: false))
}

/// `LENGTH(value)`.
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("LENGTH", [value.sqlExpression], distinct: false))
}

/// `COUNT(value)`: the number of non-null values.
public func count(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("COUNT", [value.sqlExpression], distinct: false))
}

/// `COUNT(DISTINCT value)`.
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("COUNT", [value.sqlExpression], distinct: true))
}

/// `SUM(value)`: NULL for no rows.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("SUM", [value.sqlExpression], distinct: false))
}

/// `TOTAL(value)`: 0.0 for no rows.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("TOTAL", [value.sqlExpression], distinct: false))
}

/// `AVG(value)`.
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("AVG", [value.sqlExpression], distinct: false))
}

/// `MIN(value)` (the aggregate).
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("MIN", [value.sqlExpression], distinct: false))
}

/// `MAX(value)` (the aggregate).
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.function("MAX", [value.sqlExpression], distinct: false))
}

/// `CAST(value AS storageClass)`, as GRDB spells it.
///
///     Player.select(cast(Column("score"), as: .text))
public func cast(_ value: some SQLSpecificExpressible, as storageClass: Database.StorageClass)
  -> SQLExpression
{
  SQLExpression(.cast(value.sqlExpression, storageClass.rawValue))
}

/// `CAST(value AS type)`, with any column type (`.double`, `.numeric`, …);
/// the names of storage classes go to the overload that takes a
/// `Database.StorageClass`.
@_disfavoredOverload
public func cast(_ value: some SQLSpecificExpressible, as type: Database.ColumnType) -> SQLExpression {
  SQLExpression(.cast(value.sqlExpression, type.rawValue))
}
