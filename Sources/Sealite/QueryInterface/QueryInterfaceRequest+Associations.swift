// Joining and including associations in requests.

extension QueryInterfaceRequest {
  private func adding(_ association: SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) -> Self {
    var request = self
    request.relation.edit { $0.add(association, kind: kind, isIncluded: isIncluded) }
    return request
  }

  public func _including(all association: SQLAssociation) -> Self {
    var request = self
    request.relation.edit { $0.addPrefetch(association) }
    return request
  }

  public func _including(optional association: SQLAssociation) -> Self {
    adding(association, kind: .left, isIncluded: true)
  }

  public func _including(required association: SQLAssociation) -> Self {
    adding(association, kind: .inner, isIncluded: true)
  }

  public func _joining(optional association: SQLAssociation) -> Self {
    adding(association, kind: .left, isIncluded: false)
  }

  public func _joining(required association: SQLAssociation) -> Self {
    adding(association, kind: .inner, isIncluded: false)
  }

  /// Adds the selected columns of the associated row to the fetched rows, and
  /// keeps only origin rows that have an associated row:
  /// `Book.annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))`.
  public func annotated<A: AssociationToOne>(withRequired association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    var request = self
    let association = association.sqlAssociation
    request.relation.edit { $0.add(association, kind: .inner, isIncluded: false, isAnnotation: true) }
    return request
  }

  /// Adds the selected columns of the associated row, NULL when there is none.
  public func annotated<A: AssociationToOne>(withOptional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    var request = self
    let association = association.sqlAssociation
    request.relation.edit { $0.add(association, kind: .left, isIncluded: false, isAnnotation: true) }
    return request
  }
}
