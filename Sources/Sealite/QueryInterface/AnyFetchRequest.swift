/// A type-erased ``FetchRequest``: it runs the request it wraps, so that
/// requests of different kinds can be stored or returned as one type.
///
///     // AnyFetchRequest<Player>
///     let request = condition
///       ? AnyFetchRequest(Player.order(Column("score").desc))
///       : AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player ORDER BY name"))
///     let players = try request.fetchAll(db)
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
  // The wrapped request keeps its own type (and so its own SQL, adapter and
  // prefetches); only the fetched type is erased, and `asRequest(of:)`
  // changes it.
  private let base: any FetchRequest

  private init(base: any FetchRequest) {
    self.base = base
  }

  /// A request that runs `request`.
  public init(_ request: some FetchRequest<RowDecoder>) {
    self.init(base: request)
  }

  /// The same request, fetching another type:
  ///
  ///     // AnyFetchRequest<Row>
  ///     let rowRequest = playerRequest.asRequest(of: Row.self)
  public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
    AnyFetchRequest<T>(base: base)
  }

  /// The wrapped request's subquery (FetchRequest+Subquery.swift).
  var wrappedSubquery: SQLSubquery { base.sqlSubquery }

  /// The number of values the wrapped request fetches.
  public func fetchCount(_ db: Database) throws -> Int {
    try base.fetchCount(db)
  }

  /// The prepared statement of the wrapped request.
  public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
    -> PreparedRequest
  {
    try base.makePreparedRequest(db, forSingleResult: singleResult)
  }
}
