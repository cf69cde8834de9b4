/// A request that can join and include associations:
/// ``QueryInterfaceRequest`` and associations (to chain associations).
public protocol JoinableRequest<RowDecoder>: TypedRequest {
  /// Includes every associated row; use `including(all:)`.
  func _including(all association: SQLAssociation) -> Self
  /// Includes the associated row when present; use `including(optional:)`.
  func _including(optional association: SQLAssociation) -> Self
  /// Includes the associated row, which must be present; use `including(required:)`.
  func _including(required association: SQLAssociation) -> Self
  /// Joins the associated table when it has a row; use `joining(optional:)`.
  func _joining(optional association: SQLAssociation) -> Self
  /// Joins the associated table, which must have a row; use `joining(required:)`.
  func _joining(required association: SQLAssociation) -> Self
}

extension JoinableRequest {
  /// Fetches every associated row too, with a second query: records decode
  /// them under the association key, as an array.
  public func including<A: AssociationToMany>(all association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    _including(all: association.sqlAssociation)
  }

  /// Fetches the associated row too, when present (LEFT JOIN): records decode
  /// it under the association key, as an optional.
  public func including<A: Association>(optional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    _including(optional: association.sqlAssociation)
  }

  /// Fetches the associated row too, and only origin rows that have one (JOIN).
  public func including<A: Association>(required association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    _including(required: association.sqlAssociation)
  }

  /// Joins the associated table without fetching it (LEFT JOIN), to filter or
  /// order by its columns.
  public func joining<A: Association>(optional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    _joining(optional: association.sqlAssociation)
  }

  /// Joins the associated table without fetching it, keeping only origin rows
  /// that have an associated row (JOIN).
  public func joining<A: Association>(required association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    _joining(required: association.sqlAssociation)
  }
}
