// Rows read by column: `row[Column("score")]`, `row.decode(Int.self, forColumn: Column("score"))`.
// Each form reads the column of the expression's name, as its String form does.

extension Row {
  /// The value of the leftmost column named as `column`, or nil if the value is
  /// NULL or there is no such column.
  ///
  ///     let score = row[Column("score")]  // any DatabaseValueConvertible
  public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
    self[column.name]
  }

  /// The value of the leftmost column named as `column`. Stops the program if
  /// the value can not be converted, or if there is no such column and `Value`
  /// is not optional; use `decode(_:forColumn:)` to get an error instead.
  ///
  ///     let score: Int = row[Column("score")]
  public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
    self[column.name]
  }

  /// The value of the leftmost column named as `column`, read straight from
  /// the statement when possible.
  @inlinable
  public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ column: some ColumnExpression
  ) -> Value {
    self[column.name]
  }

  /// The value of the leftmost column named as `column`; throws if the value
  /// can not be converted, or if there is no such column (an optional `Value`
  /// is then nil).
  ///
  ///     let score = try row.decode(Int.self, forColumn: Column("score"))
  public func decode<Value: DatabaseValueConvertible>(
    _ type: Value.Type = Value.self, forColumn column: some ColumnExpression
  ) throws -> Value {
    try decode(Value.self, forColumn: column.name)
  }

  /// The value of the leftmost column named as `column`, read straight from
  /// the statement when possible.
  @inlinable
  public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type = Value.self, forColumn column: some ColumnExpression
  ) throws -> Value {
    try decode(Value.self, forColumn: column.name)
  }

}
