extension TableRecord where Self: EncodableRecord {
  /// The rows associated with this record:
  ///
  ///     let books = try author.request(for: Author.books).order(Column("year")).fetchAll(db)
  public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder>
  where A.OriginRowDecoder == Self {
    let sqlAssociation = association.sqlAssociation
    // A record that can not encode itself has no key: the request then fetches nothing.
    guard let container = try? persistenceContainer() else {
      return QueryInterfaceRequest(relation: sqlAssociation.destination).none()
    }
    let reversed = sqlAssociation.reversedRelation()
    var root = reversed.root
    let firstAlias = reversed.firstAlias
    let first = sqlAssociation.steps[0]
    let linkToRecord = SQLFilter.deferred { db in
      var terms: [SQLExpression] = []
      for (originColumn, destinationColumn) in try first.columnPairs(db) {
        let value = container.databaseValue(forColumn: originColumn) ?? .null
        // A NULL key is linked to no row (`WHERE 0`, as GRDB writes it),
        // where `column IS NULL` would select the rows without a key.
        if value.isNull { return SQLExpression(.constant(0.databaseValue)) }
        terms.append(
          SQLExpression.equality(
            SQLExpression(.column(destinationColumn, alias: firstAlias)), value.sqlExpression,
            negated: false))
      }
      return SQLExpression(.associative("AND", terms, empty: "1"))
    }
    // Through several tables, the link filters the first one, joined last:
    // in its ON clause, as GRDB writes it.
    root.appendFilter(linkToRecord, toTableAliased: firstAlias)
    return QueryInterfaceRequest(relation: root)
  }
}
