// The requests of a record type that include or join its associations:
// `Player.including(required: Player.team)`.

extension TableRecord {
  /// Fetches the associated row too, when present.
  public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
  where A.OriginRowDecoder == Self {
    all().including(optional: association)
  }

  /// Fetches the associated row too, and only rows that have one.
  public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
  where A.OriginRowDecoder == Self {
    all().including(required: association)
  }

  /// Fetches every associated row too.
  public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
  where A.OriginRowDecoder == Self {
    all().including(all: association)
  }

  /// Joins the associated table without fetching it, when present.
  public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
  where A.OriginRowDecoder == Self {
    all().joining(optional: association)
  }

  /// Joins the associated table without fetching it, keeping only rows that have one.
  public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
  where A.OriginRowDecoder == Self {
    all().joining(required: association)
  }

  /// Rows annotated with the selected columns of a required associated row.
  public static func annotated<A: AssociationToOne>(withRequired association: A) -> QueryInterfaceRequest<
    Self
  >
  where A.OriginRowDecoder == Self {
    all().annotated(withRequired: association)
  }

  /// Rows annotated with the selected columns of an optional associated row.
  public static func annotated<A: AssociationToOne>(withOptional association: A) -> QueryInterfaceRequest<
    Self
  >
  where A.OriginRowDecoder == Self {
    all().annotated(withOptional: association)
  }

  /// All rows, with the table known to the rest of the request as `alias`.
  public static func aliased(_ alias: TableAlias<Self>) -> QueryInterfaceRequest<Self> {
    all().aliased(alias)
  }

  /// Rows that match `predicate` on an association aggregate or any expression.
  public static func having(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
    all().having(predicate)
  }
}
