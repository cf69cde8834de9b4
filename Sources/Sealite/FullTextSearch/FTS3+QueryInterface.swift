// Full-text matching of FTS3 and FTS4 tables in the query interface. The
// table side of `MATCH` is the request's own table, under the name the request
// gives it, known only when SQL is generated (as in GRDB, an alias name).

extension TableRequest where Self: FilteredRequest {
  /// Keeps the rows of the request's FTS3 or FTS4 table that match `pattern`;
  /// a nil pattern matches nothing. SQLite takes only the table's own name
  /// on the left of `MATCH`, not an alias name given with `TableAlias(name:)`:
  ///
  ///     // SELECT * FROM "book" WHERE "book" MATCH ?
  ///     let request = Book.all().matching(FTS3Pattern(matchingAllTokensIn: "moby dick"))
  ///
  /// On an association, it filters the joined table:
  /// `Author.joining(required: Author.books.matching(pattern))`.
  public func matching(_ pattern: FTS3Pattern?) -> Self {
    guard let pattern else { return none() }
    let match = SQLExpression(.binary("MATCH", FTS3MatchedTable.expression, pattern.sqlExpression))
    // Built when the request runs, as other deferred filters: the expression
    // then takes the relation's alias, without making the request qualify
    // all its columns as an association aggregate would.
    return filterWhenConnected { _ in match }
  }
}

extension TableRecord {
  /// A request of the rows of the record's FTS3 or FTS4 table that match
  /// `pattern`; a nil pattern matches nothing:
  ///
  ///     let books = try Book.matching(FTS3Pattern(matchingPhrase: "moby dick")).fetchAll(db)
  public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
    all().matching(pattern)
  }
}

extension ColumnExpression {
  /// `column MATCH pattern`: a column of an FTS3 or FTS4 table, or the hidden
  /// column named after the table, that matches `pattern`. A nil pattern
  /// matches nothing (`MATCH NULL`):
  ///
  ///     // SELECT * FROM "book" WHERE "author" MATCH ?
  ///     let request = Book.filter(Column("author").match(pattern))
  public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
    SQLExpression(.binary("MATCH", sqlExpression, pattern?.sqlExpression ?? FTS3NullPattern.expression))
  }
}

/// The table side of a request's `MATCH`: the name the request gives its
/// table, once the relation has qualified the expression with its alias.
private enum FTS3MatchedTable {
  static let expression = SQLExpression(
    .dependent(nil) { context, alias, _ in context.name(of: alias).quotedDatabaseIdentifier })
}

/// A missing pattern: GRDB writes the bare `NULL` keyword (`"title" MATCH NULL`),
/// neither a bound value nor a parenthesized literal. An empty list of terms
/// renders its `empty` text as it is.
private enum FTS3NullPattern {
  static let expression = SQLExpression(.associative("AND", [], empty: "NULL"))
}
