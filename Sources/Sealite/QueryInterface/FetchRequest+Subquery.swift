// The subqueries of the fetch requests: a query interface request renders its
// relation in the enclosing statement, an SQL request its literal, and the
// wrappers the request they wrap (an adapter changes rows, not SQL).

extension QueryInterfaceRequest {
  /// The request as a subquery.
  public var sqlSubquery: SQLSubquery { SQLSubquery(.relation(relation)) }
}

extension SQLRequest {
  /// The request's SQL as a subquery.
  public var sqlSubquery: SQLSubquery { SQLSubquery(.literal(sqlLiteral)) }
}

extension AdaptedFetchRequest {
  /// The adapted request's subquery.
  public var sqlSubquery: SQLSubquery { base.sqlSubquery }
}

extension AnyFetchRequest {
  /// The wrapped request's subquery.
  public var sqlSubquery: SQLSubquery { wrappedSubquery }
}
