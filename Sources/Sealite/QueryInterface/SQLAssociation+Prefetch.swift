// `including(all:)`: to-many associations are fetched by a second query per
// association, whose rows are grouped by origin key and attached to the fetched
// origin rows (`row.prefetchedRows[key]`). The second query selects only the
// rows of the fetched origins, by key, in chunks SQLite accepts.

extension SQLRelation {
  /// Adds a to-many association fetched with a second query.
  mutating func addPrefetch(_ association: SQLAssociation) {
    prefetches.append(SQLPrefetch(association: association))
  }
}

/// The joined tables between the fetched rows and the relation that declares
/// a prefetch: the steps the prefetch follows from the fetched rows' keys (as
/// GRDB follows them), the keys of their scopes, and the scope the prefetched
/// rows attach to (that of the last included table, or the row itself).
struct SQLPrefetchPath: Sendable {
  var steps: [SQLAssociation.Step] = []
  var scopeKeys: [String] = []
  var attachKeys: [String] = []
}

extension SQLAssociation {
  /// The association followed from the start of `path` (itself for an empty
  /// path), under its own key.
  func following(_ path: [Step]) -> SQLAssociation {
    path.isEmpty ? self : SQLAssociation(steps: path + steps)
  }
}

extension SQLAssociation {
  /// The association seen from its destination: the destination table is the
  /// root, and intermediate tables are joined back toward the origin, ending
  /// with the first step's table, whose alias is returned. Prefetches and
  /// aggregates link that table to origin rows.
  func reversedRelation() -> (root: SQLRelation, firstAlias: SQLTableAlias) {
    var root = steps[steps.count - 1].relation.copiedAlias()
    var firstAlias = root.alias
    if steps.count > 1 {
      var inner: SQLJoin?
      for index in 0..<(steps.count - 1) {
        var relation = steps[index].relation.copiedAlias()
        if index == 0 { firstAlias = relation.alias }
        // A pivot is not selected; its ordering orders the destination rows
        // after their own (GRDB's rule).
        relation.edit { $0.selection = [] }
        if let inner { relation.edit { $0.joins.append(inner) } }
        let next = steps[index + 1]
        inner = SQLJoin(
          kind: .inner, relation: relation,
          condition: { db, parent, child in
            try next.condition(db, origin: child, destination: parent, originFirst: true)
          },
          isIncluded: false, key: "", isToMany: false)
      }
      if let inner { root.edit { $0.joins.append(inner) } }
    }
    return (root, firstAlias)
  }

  /// Parameters per query: below SQLite's historical limit of 999 variables.
  static let prefetchChunkSize = 500

  /// Fetches the association's rows for `originRows` and attaches each
  /// row's to it, or to its scope at `attachKeys`.
  func prefetch(
    _ db: Database, into originRows: [Row], watch: SupplementaryRequestWatch? = nil, attachKeys: [String] = []
  ) throws {
    guard !originRows.isEmpty else { return }
    let first = steps[0]
    let pairs = try first.columnPairs(db)
    let originColumns = pairs.map(\.0)
    let keyColumns = pairs.map(\.1)

    // Origin keys, in the order of the origin rows, without NULLs or repeats.
    var originKeys: [[DatabaseValue]] = []
    var seen: Set<[DatabaseValue]> = []
    for row in originRows {
      var key: [DatabaseValue] = []
      for column in originColumns {
        guard let index = row.index(forColumn: column) else {
          throw DatabaseError.misuse(
            "including(all: \(self.key.plural)) needs column \(column) of \(first.originTable) in the selection"
          )
        }
        key.append(row.databaseValue(atUncheckedIndex: index))
      }
      if key.contains(where: \.isNull) { continue }
      if seen.insert(key).inserted { originKeys.append(key) }
    }
    // One key column: its values sorted, as GRDB lists them (`IN (1, 2, 3)`).
    if originColumns.count == 1 { originKeys.sort { $0[0].precedesInSQLiteOrder($1[0]) } }

    var groups: [[DatabaseValue]: [Row]] = [:]
    var chunkStart = 0
    while chunkStart < originKeys.count {
      let chunk = Array(originKeys[chunkStart..<min(chunkStart + Self.prefetchChunkSize, originKeys.count)])
      chunkStart += Self.prefetchChunkSize
      for (key, row) in try fetchChunk(db, keys: chunk, keyColumns: keyColumns, watch: watch) {
        groups[key, default: []].append(row)
      }
    }
    for row in originRows {
      let key = originColumns.map { column in
        row.index(forColumn: column).map { row.databaseValue(atUncheckedIndex: $0) } ?? .null
      }
      let target = attachKeys.reduce(row as Row?) { $0?.scopes[$1] }
      target?.attachPrefetchedRows(self.key.plural, groups[key] ?? [])
    }
  }

  /// The destination rows of one chunk of origin keys, with their key. Each
  /// row ends with the key's columns, named `grdb_<column>` as GRDB names
  /// them: they stay in the rows, as in GRDB's prefetched rows.
  private func fetchChunk(
    _ db: Database, keys: [[DatabaseValue]], keyColumns: [String], watch: SupplementaryRequestWatch?
  ) throws -> [([DatabaseValue], Row)] {
    let reversed = reversedRelation()
    // Resolved first: the joins back toward the origin may wait in deferred
    // edits, and the keys filter one of them.
    var root = try reversed.root.resolved(db)
    let firstAlias = reversed.firstAlias
    root.edit {
      $0.selection += keyColumns.map { column in
        SQLSelection(impl: .aliased(SQLExpression(.column(column, alias: firstAlias)), "grdb_" + column))
      }
    }
    let keyExpressions = keyColumns.map { SQLExpression(.column($0, alias: firstAlias)) }
    let condition: SQLExpression
    if keyExpressions.count == 1 {
      condition = SQLExpression(
        .inList(keyExpressions[0], keys.map { SQLExpression(.value($0[0])) }, negated: false))
    } else {
      condition = SQLExpression(
        .associative(
          "OR",
          keys.map { key in
            SQLExpression(
              .associative(
                "AND",
                zip(keyExpressions, key).map { SQLExpression(.binary("=", $0, SQLExpression(.value($1)))) },
                empty: "1"))
          }, empty: "0"))
    }
    // Through several tables, the keys filter the first one, joined last: in
    // its ON clause, as GRDB writes it.
    root.appendFilter(.expression(condition), toTableAliased: firstAlias)

    let request = QueryInterfaceRequest<Row>(relation: root)
    if let watch { try watch.willExecute(request, watch.keyPath + [self.key.plural]) }
    let prepared = try request.makePreparedRequest(db, forSingleResult: false)
    let rows = try Row.collectAll(prepared.rowCursor())
    let keyCount = keyColumns.count
    let keyed: [([DatabaseValue], Row)] = rows.map { row in
      let keyStart = row.count - keyCount
      return ((keyStart..<row.count).map { row.databaseValue(atUncheckedIndex: $0) }, row)
    }
    // The nested prefetches run unwatched: a watcher that wants them (the
    // dump) runs `request` itself, and meets them as its own.
    try root.prefetch(db, into: rows)
    return keyed
  }
}

extension DatabaseValue {
  /// SQLite's order of values (NULL, numbers, text by its bytes, blobs by
  /// theirs), for listing keys in a stable, readable order.
  fileprivate func precedesInSQLiteOrder(_ other: DatabaseValue) -> Bool {
    func rank(_ value: DatabaseValue) -> Int {
      switch value.storage {
      case .null: 0
      case .int64, .double: 1
      case .string: 2
      case .blob: 3
      }
    }
    switch (storage, other.storage) {
    case (.int64(let a), .int64(let b)): return a < b
    case (.double(let a), .double(let b)): return a < b
    case (.int64(let a), .double(let b)): return Double(a) < b
    case (.double(let a), .int64(let b)): return a < Double(b)
    case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
    case (.blob(let a), .blob(let b)): return a.lexicographicallyPrecedes(b)
    default: return rank(self) < rank(other)
    }
  }
}
