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
    root.filters.append(
      .deferred { db in
        let terms = try first.columnPairs(db).map { originColumn, destinationColumn in
          SQLExpression.equality(
            SQLExpression(.column(destinationColumn, alias: firstAlias)),
            (container.databaseValue(forColumn: originColumn) ?? .null).sqlExpression, negated: false)
        }
        return SQLExpression(.associative("AND", terms, empty: "1"))
      })
    return QueryInterfaceRequest(relation: root)
  }
}
