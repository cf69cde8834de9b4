// The tables a relation reads: what observation tracks, and what a prefetch
// of `including(all:)` reads in its second queries.
extension SQLRelation {
  /// The tables read by the second queries of `including(all:)`, at any depth.
  var prefetchedTableNames: [String] {
    prefetches.flatMap { $0.tableNames } + joins.flatMap { $0.relation.prefetchedTableNames }
  }

  /// This table, joined tables, and prefetched tables.
  var allTableNames: [String] {
    [tableName] + joins.flatMap { $0.relation.allTableNames } + prefetches.flatMap { $0.tableNames }
  }
}
