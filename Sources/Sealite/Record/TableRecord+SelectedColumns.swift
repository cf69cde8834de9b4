extension TableRecord {
  /// The number of columns that ``databaseSelection`` selects, as SQLite
  /// counts them (`*` counts every column of the table).
  ///
  ///     struct Player: TableRecord { }  // SELECT * FROM player
  ///     struct PartialPlayer: TableRecord {
  ///       static let databaseTableName = "player"
  ///       static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
  ///     }
  ///     // With a table player(id, name, score):
  ///     try Player.numberOfSelectedColumns(db)         // 3
  ///     try PartialPlayer.numberOfSelectedColumns(db)  // 2
  ///
  /// Useful to split a row that joins several tables (see ``ScopeAdapter``
  /// and ``RangeRowAdapter``). Throws if the table does not exist or the
  /// selection names an unknown column.
  public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
    let context = SQLGenerationContext(db: db)
    let selection = try databaseSelection.map { try $0.sqlSelection.sql(context) }
    guard !selection.isEmpty else { return 0 }
    let sql = "SELECT \(selection.joined(separator: ", ")) FROM \(databaseTableName.quotedDatabaseIdentifier)"
    return try db.cachedStatement(sql: sql).columnCount
  }
}
