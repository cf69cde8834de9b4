extension TableRequest where Self: FilteredRequest {
  /// Keeps the rows that match an ``FTS5`` pattern; a nil pattern keeps none.
  ///
  ///     // SELECT * FROM book WHERE book MATCH 'sqlite OR database'
  ///     let pattern = FTS5Pattern(matchingAnyTokenIn: "SQLite Database")
  ///     let request = Book.all().matching(pattern)
  public func matching(_ pattern: FTS5Pattern?) -> Self {
    guard let pattern else { return none() }
    // The hidden column named after the table matches every column. As a
    // column of the request's table, it is qualified with the table's alias
    // where the request joins others.
    let table = SQLExpression(.column(databaseTableName, alias: nil))
    return filter(SQLExpression(.binary("MATCH", table, pattern.sqlExpression)))
  }
}

extension TableRecord {
  /// A request of the records that match an ``FTS5`` pattern; a nil pattern
  /// matches none.
  ///
  ///     // SELECT * FROM book WHERE book MATCH 'sqlite OR database'
  ///     let pattern = FTS5Pattern(matchingAnyTokenIn: "SQLite Database")
  ///     let request = Book.matching(pattern)
  public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
    all().matching(pattern)
  }
}

extension ColumnExpression {
  /// The column matches an ``FTS5`` pattern: `content MATCH 'sqlite'`.
  ///
  ///     Book.filter(Column("title").match(pattern))
  public func match(_ pattern: FTS5Pattern) -> SQLExpression {
    SQLExpression(.binary("MATCH", sqlExpression, pattern.sqlExpression))
  }
}

extension Column {
  /// The `rank` column of an ``FTS5`` table, for ordering matches by relevance:
  ///
  ///     let request = Book.matching(pattern).order(Column.rank)
  public static let rank = Column("rank")
}
