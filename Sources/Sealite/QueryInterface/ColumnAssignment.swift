/// `column = value` in an `updateAll` request:
///
///     try Player.filter(Column("team") == "red").updateAll(db, Column("score").set(to: 0))
///     try Player.updateAll(db, Column("score") += 10)
public struct ColumnAssignment: Sendable {
  let columnName: String
  /// Nil for `noOverwrite`: an upsert leaves the column as it is.
  let value: SQLExpression?

  func sql(_ context: SQLGenerationContext) throws -> String {
    columnName.quotedDatabaseIdentifier + " = "
      + (try (value ?? SQLExpression(.column(columnName, alias: nil))).sql(context))
  }
}

extension ColumnExpression {
  /// `column = value`.
  public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
    ColumnAssignment(columnName: name, value: value?.sqlExpression ?? DatabaseValue.null.sqlExpression)
  }

}

extension ColumnExpression {
  /// In an upsert, keeps the stored value of the column when the row exists.
  public var noOverwrite: ColumnAssignment {
    ColumnAssignment(columnName: name, value: nil)
  }
}

/// `column = column + value`.
public func += (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
  column.set(to: column + value)
}

/// `column = column - value`.
public func -= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
  column.set(to: column - value)
}

/// `column = column * value`.
public func *= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
  column.set(to: column * value)
}

/// `column = column / value`.
public func /= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment {
  column.set(to: column / value)
}
