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
    // As GRDB writes it: `"t"."id" IS NOT NULL`, and `"t"."id" IS NULL` once
    // negated; several columns are ORed (ANDed once negated).
    SQLExpression(.negatable(existence(negated: false), negation: existence(negated: true)))
  }

  private func existence(negated: Bool) -> SQLExpression {
    SQLExpression(
      .dependent(alias) { context, alias, wrapped in
        guard let db = context.db, let tableName = context.tableName(of: alias) else {
          throw DatabaseError.misuse("TableAlias.exists is used outside of a request that joins its table")
        }
        let tests = try db.existenceCheckColumns(in: tableName).map {
          SQLExpression(
            .postfix(SQLExpression(.column($0, alias: alias)), negated ? "IS NULL" : "IS NOT NULL"))
        }
        return try SQLExpression(.associative(negated ? "AND" : "OR", tests, empty: negated ? "1" : "0"))
          .sql(context, wrapped: wrapped)
      })
  }
}

extension Database {
  /// The columns that are NULL in a row of an outer join that found no row
  /// of `tableName`: the rowid (by the name of the column that stands for it,
  /// if any), the primary key of a WITHOUT ROWID table, every column of a
  /// view without a primary key.
  fileprivate func existenceCheckColumns(in tableName: String) throws -> [String] {
    if try viewExists(tableName), (try? primaryKey(tableName)) == nil {
      return try columns(in: tableName).map(\.name)
    }
    let primaryKey = try primaryKey(tableName)
    if let rowIDColumn = primaryKey.rowIDColumn { return [rowIDColumn] }
    if primaryKey.tableHasRowID { return ["rowid"] }
    return primaryKey.columns
  }

}
