// Joining and including associations in requests.

extension QueryInterfaceRequest {
  private func adding(_ association: SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) -> Self {
    var request = self
    request.relation.add(association, kind: kind, isIncluded: isIncluded)
    return request
  }

  /// Fetches the associated row too, when present (LEFT JOIN): records decode
  /// it under the association key, as an optional.
  public func including<A: Association>(optional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    adding(association.sqlAssociation, kind: .left, isIncluded: true)
  }

  /// Fetches the associated row too, and only origin rows that have one (JOIN).
  public func including<A: Association>(required association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    adding(association.sqlAssociation, kind: .inner, isIncluded: true)
  }

  /// Fetches every associated row too, with a second query: records decode
  /// them under the association key, as an array.
  public func including<A: AssociationToMany>(all association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    var request = self
    request.relation.addPrefetch(association.sqlAssociation)
    return request
  }

  /// Joins the associated table without fetching it (LEFT JOIN), to filter or
  /// order by its columns.
  public func joining<A: Association>(optional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    adding(association.sqlAssociation, kind: .left, isIncluded: false)
  }

  /// Joins the associated table without fetching it, keeping only origin rows
  /// that have an associated row (JOIN).
  public func joining<A: Association>(required association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    adding(association.sqlAssociation, kind: .inner, isIncluded: false)
  }

  /// Adds the selected columns of the associated row to the fetched rows, and
  /// keeps only origin rows that have an associated row:
  /// `Book.annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))`.
  public func annotated<A: AssociationToOne>(withRequired association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    var request = self
    request.relation.add(association.sqlAssociation, kind: .inner, isIncluded: false, isAnnotation: true)
    return request
  }

  /// Adds the selected columns of the associated row, NULL when there is none.
  public func annotated<A: AssociationToOne>(withOptional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    var request = self
    request.relation.add(association.sqlAssociation, kind: .left, isIncluded: false, isAnnotation: true)
    return request
  }

  /// Lets other parts of the request refer to the request's table through `alias`.
  public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
    var request = self
    request.relation.alias = alias.alias
    return request
  }
}
