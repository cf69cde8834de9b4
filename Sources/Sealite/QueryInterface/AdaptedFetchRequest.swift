/// A request whose rows are adapted by a row adapter, made with
/// ``FetchRequest/adapted(_:)``.
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
  public typealias RowDecoder = Base.RowDecoder

  let base: Base
  let adapter: @Sendable (Database) throws -> any RowAdapter

  public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
    -> PreparedRequest
  {
    var prepared = try base.makePreparedRequest(db, forSingleResult: singleResult)
    let adapter = try self.adapter(db)
    // The base's own adapter (included associations, an SQL request's) comes
    // first: this one adapts the rows it presents.
    prepared.adapter = prepared.adapter.map { ChainedAdapter(first: $0, second: adapter) } ?? adapter
    return prepared
  }

  public func fetchCount(_ db: Database) throws -> Int {
    try base.fetchCount(db)
  }
}

extension FetchRequest {
  /// This request, with its rows adapted by the adapter `adapter` returns:
  ///
  ///     let request = SQLRequest<PlayerInfo>(sql: "SELECT player.*, team.* FROM …")
  ///       .adapted { db in
  ///         let adapters = splittingRowAdapters(columnCounts: [3])
  ///         return ScopeAdapter(["player": adapters[0], "team": adapters[1]])
  ///       }
  public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter)
    -> AdaptedFetchRequest<Self>
  {
    AdaptedFetchRequest(base: self, adapter: adapter)
  }
}
