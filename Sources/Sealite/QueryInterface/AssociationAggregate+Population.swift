/// The rows an association aggregate is computed on, as the first rendering
/// of its request noted them.
///
/// GRDB computes the aggregates of a request on joins, and joins of one
/// association key are one join: two aggregates of one key count the rows
/// that pass the filters of both (`Author.books.filter(a).count` and
/// `Author.books.filter(b).count` both count the books that are `a` and
/// `b`); distinct keys (`forKey(_:)`) keep them apart. Sealite's aggregates
/// are correlated subqueries, and give the same values by sharing those
/// filters.
struct AggregatePopulation {
  let key: String
  let tableName: String
  let alias: SQLTableAlias
  let filters: [SQLFilter]
}

extension SQLRelation {
  /// Adds to this relation, the root of an aggregate's subquery, the filters
  /// of the other aggregates of the same key in the request being rendered.
  mutating func shareFilters(ofAggregatesKeyed key: String, _ db: Database, _ context: SQLGenerationContext)
    throws
  {
    guard let notes = context.renderingNotes else { return }
    if notes.isRecording {
      notes.record(AggregatePopulation(key: key, tableName: tableName, alias: alias, filters: filters))
      return
    }
    let own = notes.nextIndex()
    var seen = Set(try filters.map { try $0.fingerprint(db, alias) })
    for (index, entry) in notes.entries.enumerated() where index != own {
      guard let other = entry as? AggregatePopulation, other.key == key, other.tableName == tableName else {
        continue
      }
      for filter in other.filters {
        let moved = filter.replacingAlias(other.alias, with: alias)
        if seen.insert(try moved.fingerprint(db, alias)).inserted { filters.append(moved) }
      }
    }
  }
}

extension SQLFilter {
  /// The filter's SQL and arguments, to tell equal filters apart from
  /// different ones. Never shown.
  func fingerprint(_ db: Database, _ alias: SQLTableAlias) throws -> String {
    let context = SQLGenerationContext(db: db)
    let sql = try resolve(db).qualified(with: alias).sql(context)
    return sql + "\u{0}" + String(describing: context.arguments?.values ?? [])
  }
}
