/// An association joined on a condition of the program's rather than on a
/// foreign key: the association to a ``CommonTableExpression``, or from one.
///
///     let latestPost = CommonTableExpression(named: "latestPost", request: latestPostRequest)
///     let association = Chat.association(to: latestPost) { chat, post in
///       chat[Column("id")] == post[Column("chatID")]
///     }
///     let request = Chat.with(latestPost).including(optional: association)
///
/// Its key is the destination's table name; it is an association to one row.
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
  /// The origin type.
  public typealias OriginRowDecoder = Origin
  /// The destination type.
  public typealias RowDecoder = Destination
  /// The association's path; not for direct use.
  public var sqlAssociation: SQLAssociation
}

extension JoinAssociation {
  /// An association from the table `originTable` to `destination`, joined
  /// on `condition` (on nothing when nil: every pair of rows).
  init(
    from originTable: String, to destination: SQLRelation,
    on condition: (@Sendable (TableAlias<Origin>, TableAlias<Destination>) -> any SQLExpressible)?
  ) {
    let join = condition.map { condition in
      { @Sendable (origin: SQLTableAlias, destination: SQLTableAlias) -> SQLExpression in
        condition(TableAlias(alias: origin), TableAlias(alias: destination)).sqlExpression
      }
    }
    sqlAssociation = SQLAssociation(steps: [
      .init(
        kind: .join(join), originTable: originTable, relation: destination, foreignKey: nil,
        key: .inflected(destination.tableName))
    ])
  }
}
