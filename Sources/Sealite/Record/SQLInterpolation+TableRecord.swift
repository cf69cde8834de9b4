extension SQL.StringInterpolation {
  /// The quoted table name of a record type: `"SELECT * FROM \(Player.self)"`.
  public mutating func appendInterpolation<T: TableRecord>(_ table: T.Type) {
    let name = T.databaseTableName
    elements.append(.identifier(name))
  }

  /// The quoted table name of a record type known at run time only.
  @_disfavoredOverload
  public mutating func appendInterpolation(_ table: any TableRecord.Type) {
    elements.append(.identifier(table.databaseTableName))
  }

  /// The quoted table name of a record's type:
  /// `"DELETE FROM \(tableOf: player) WHERE …"`.
  public mutating func appendInterpolation(tableOf record: some TableRecord) {
    appendInterpolation(type(of: record))
  }

  /// The quoted table name of a record's type, for a record whose type is
  /// only known at run time.
  @_disfavoredOverload
  public mutating func appendInterpolation(tableOf record: any TableRecord) {
    elements.append(.identifier(type(of: record).databaseTableName))
  }

  /// The columns a record type selects (its ``TableRecord/databaseSelection``),
  /// qualified with its table name or with `tableAlias`:
  ///
  ///     // SELECT "p".* FROM player p
  ///     let request: SQLRequest<Player> = "SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p"
  ///
  /// A selection of named columns gives each of them (`"p"."id", "p"."name"`),
  /// so that several tables can be selected side by side in one literal.
  public mutating func appendInterpolation(
    columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil
  ) {
    let tableName = recordType.databaseTableName
    let selection = recordType.databaseSQLSelection
    elements.append(
      .generated { context in
        // A context of its own, so that the alias keeps its name whatever
        // names the enclosing request gave its own tables; the alias knows
        // its table, which `allColumns(excluding:)` reads.
        let alias = SQLTableAlias(
          name: tableAlias ?? tableName, tableName: tableName, forcesQualification: true)
        let nested = SQLGenerationContext.nested(in: context)
        let columns = try selection.map { try $0.qualified(with: alias).sql(nested) }
        try context.append(nested.arguments ?? StatementArguments())
        return columns.joined(separator: ", ")
      })
  }
}
