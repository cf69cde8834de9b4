extension TableAlias {
  /// True where the aliased table has a row: with an optional join, it tells
  /// the rows that have an associated row from those that have none.
  ///
  ///     // Books without an author
  ///     let authorAlias = TableAlias<Author>()
  ///     let request = Book
  ///       .joining(optional: Book.author.aliased(authorAlias))
  ///       .filter(!authorAlias.exists)
  ///
  /// It tests the primary key columns of a table (its rowid when it has no
  /// explicit primary key), and every column of a view (unless the schema
  /// source gives the view a primary key).
  public var exists: SQLExpression {
    SQLExpression(
      .dependent(alias) { context, alias in
        guard let db = context.db, let tableName = context.tableName(of: alias) else {
          throw DatabaseError.misuse("TableAlias.exists is used outside of a request that joins its table")
        }
        let columns: [String]
        if try db.viewExists(tableName), (try? db.primaryKey(tableName)) == nil {
          columns = try db.columns(in: tableName).map(\.name)
        } else {
          columns = try db.primaryKey(tableName).columns
        }
        let tests = columns.map { context.qualifiedColumn($0, alias: alias) + " IS NOT NULL" }
        return "(" + tests.joined(separator: " OR ") + ")"
      })
  }
}
