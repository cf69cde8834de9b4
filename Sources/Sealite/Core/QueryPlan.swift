/// The plan SQLite chooses for a statement (`EXPLAIN QUERY PLAN`).
///
///     let plan = try db.explainQueryPlan(sql: "SELECT * FROM player WHERE email = ?", arguments: ["a@b.c"])
///     print(plan)  // SEARCH player USING INDEX player_email (email=?)
///     #expect(plan.usesIndex("player_email"))
public struct QueryPlan: Sendable, CustomStringConvertible {
  /// One step of the plan.
  public struct Step: Sendable, Equatable {
    /// The step's id.
    public let id: Int
    /// The id of the parent step (0 at the top level). SQLite before 3.24
    /// reports a flat list: every parent is 0.
    public let parent: Int
    /// What SQLite does, e.g. `SCAN player` or `SEARCH player USING INDEX …`.
    public let detail: String
  }

  /// The steps, in the order SQLite reports them.
  public let steps: [Step]
  /// The raw rows of `EXPLAIN QUERY PLAN`, whose columns differ across SQLite versions.
  public let rows: [Row]

  /// True if a step uses the named index.
  public func usesIndex(_ name: String) -> Bool {
    steps.contains { $0.detail.contains("INDEX \(name)") }
  }

  /// The steps, indented by depth.
  public var description: String {
    var depth: [Int: Int] = [0: -1]
    return steps.map { step in
      let level = (depth[step.parent] ?? -1) + 1
      depth[step.id] = level
      return String(repeating: "  ", count: level) + step.detail
    }.joined(separator: "\n")
  }
}

extension Database {
  /// The plan SQLite chooses for `sql` (`EXPLAIN QUERY PLAN`). The statement is
  /// compiled, not run.
  public func explainQueryPlan(sql: String, arguments: StatementArguments = StatementArguments()) throws
    -> QueryPlan
  {
    let rows = try Row.fetchAll(self, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
    let steps = rows.enumerated().map { offset, row -> QueryPlan.Step in
      // SQLite 3.24+: id, parent, notused, detail. Before: selectid, order, from, detail.
      let detail = (row["detail"] as String?) ?? ""
      if row.hasColumn("parent") {
        return QueryPlan.Step(id: row["id"] ?? offset + 1, parent: row["parent"] ?? 0, detail: detail)
      }
      return QueryPlan.Step(id: offset + 1, parent: 0, detail: detail)
    }
    return QueryPlan(steps: steps, rows: rows)
  }
}
