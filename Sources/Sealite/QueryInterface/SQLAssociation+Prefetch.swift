// `including(all:)`: to-many associations are fetched by a second query per
// association, whose rows are grouped by origin key and attached to the fetched
// origin rows (`row.prefetchedRows[key]`). The second query selects only the
// rows of the fetched origins, by key, in chunks SQLite accepts.

extension SQLRelation {
  /// Adds a to-many association fetched with a second query.
  mutating func addPrefetch(_ association: SQLAssociation) {
    prefetches.append(
      SQLPrefetch(
        fetch: { db, rows, watch in try association.prefetch(db, into: rows, watch: watch) },
        tableNames: association.steps.flatMap { $0.relation.allTableNames }))
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
        relation.edit {
          $0.selection = []
          $0.ordering = []
        }
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

  func prefetch(_ db: Database, into originRows: [Row], watch: SupplementaryRequestWatch? = nil) throws {
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
      row.attachPrefetchedRows(self.key.plural, groups[key] ?? [])
    }
  }

  /// The destination rows of one chunk of origin keys, with their key.
  private func fetchChunk(
    _ db: Database, keys: [[DatabaseValue]], keyColumns: [String], watch: SupplementaryRequestWatch?
  ) throws -> [([DatabaseValue], Row)] {
    var (root, firstAlias) = reversedRelation()
    // The key columns come right after the destination's own columns, and are
    // removed from the fetched rows.
    let keyNames = keyColumns.indices.map { "sealite_prefetch_key_\($0)" }
    let keySelection = zip(keyColumns, keyNames).map { column, name in
      SQLSelection(impl: .aliased(SQLExpression(.column(column, alias: firstAlias)), name))
    }
    root.edit { $0.selection += keySelection }
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
    root.filters.append(.expression(condition))
    root = try root.resolved(db)

    let request = QueryInterfaceRequest<Row>(relation: root)
    if let watch { try watch.willExecute(request, watch.keyPath + [self.key.plural]) }
    let prepared = try request.makePreparedRequest(db, forSingleResult: false)
    let rows = try Row.collectAll(prepared.rowCursor())
    let keyCount = keyColumns.count
    let stripped: [([DatabaseValue], Row)] = rows.map { row in
      let values = row.databaseValues
      let key = Array(values.suffix(keyCount))
      let base = Row(
        layout: RowLayout(names: Array(row.columnNames.dropLast(keyCount)), isFetched: true),
        values: ContiguousArray(values.dropLast(keyCount)))
      base.extras = row.extras
      return (key, base)
    }
    // The nested prefetches run unwatched: a watcher that wants them (the
    // dump) runs `request` itself, and meets them as its own.
    try root.prefetch(db, into: stripped.map(\.1))
    return stripped
  }
}
