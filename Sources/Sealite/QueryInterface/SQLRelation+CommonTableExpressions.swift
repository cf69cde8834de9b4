// The WITH clause of a request: the common table expressions the request and
// its associations define. Those of joined tables are hoisted to the
// statement's WITH clause; a name defined twice keeps its first place and its
// last definition, as in GRDB.

/// Common table expressions in the order they were first defined, names
/// compared as SQLite compares them.
struct SQLCTEList: Sendable {
  private(set) var items: [SQLCTE] = []

  var isEmpty: Bool { items.isEmpty }

  /// Adds `cte`, or replaces the definition of the same name in place.
  mutating func define(_ cte: SQLCTE) {
    if let index = items.firstIndex(where: { $0.tableName.sameName(as: cte.tableName) }) {
      items[index] = cte
    } else {
      items.append(cte)
    }
  }

  /// Adds the definitions of `other`, which win over these.
  mutating func merge(_ other: SQLCTEList) {
    for cte in other.items { define(cte) }
  }
}

extension SQLRelation {
  /// The common table expressions of this relation and of its joined tables,
  /// at any depth (prefetched associations run queries of their own).
  var allCTEs: SQLCTEList {
    joins.reduce(into: ctes) { list, join in list.merge(join.relation.allCTEs) }
  }

  /// `WITH [RECURSIVE] "a" AS (…), "b" AS (…) `, or nothing.
  func withClause(_ context: SQLGenerationContext) throws -> String {
    let ctes = allCTEs.items
    guard !ctes.isEmpty else { return "" }
    var sql = "WITH "
    if ctes.contains(where: \.isRecursive) { sql += "RECURSIVE " }
    sql += try ctes.map { try $0.definitionSQL(context) }.joined(separator: ", ")
    return sql + " "
  }
}

extension SQLExpression {
  /// True for the empty AND, the condition of a join on nothing.
  var isEmptyConjunction: Bool {
    if case .associative(_, let expressions, _) = impl { return expressions.isEmpty }
    return false
  }
}
