// The second queries of `including(all:)` run inside a fetch, out of sight of
// its caller. `Database.dumpRequest` prints them too: it fetches with a watch,
// which hears of each query, with the key of its association, before it runs.

/// What fetches the rows of to-many associations and attaches them to the
/// fetched rows, hearing of its queries through the watch, if any.
typealias SupplementaryFetch = (Database, [Row], SupplementaryRequestWatch?) throws -> Void

/// Hears of each second query of `including(all:)` before it runs.
struct SupplementaryRequestWatch {
  /// The keys of the included associations the watched queries are reached
  /// through (`["team"]` for the to-many associations of an included team).
  var keyPath: [String] = []

  /// Called with the query, and the key path of its association
  /// (`["team", "players"]`).
  let willExecute: (QueryInterfaceRequest<Row>, [String]) throws -> Void

  /// The watch of the associations reached through the included `key`.
  func appending(_ key: String) -> Self {
    var watch = self
    watch.keyPath.append(key)
    return watch
  }
}
