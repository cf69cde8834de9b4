// The rows a request selects, when its filters name them by rowid: an
// observation of `Player.filter(id: 1)`, of `Player.filter(Column("id") == 1)`
// or of `Player.filter(keys: [1, 2])` then ignores the changes of other rows,
// as GRDB's does. Derived from the filter expressions, whatever built them.

extension SQLRelation {
  /// The rows of the relation's table its filters can select, or nil when
  /// they may select any row. Nil for a view, whose rows have no rowid.
  func selectedRowIDs(_ db: Database) throws -> RowIDRestriction? {
    guard !filters.isEmpty, try db.tableExists(tableName) else { return nil }
    let primaryKey = try db.primaryKey(tableName)
    var result: Set<Int64>?
    for filter in filters {
      guard let rowIDs = try filter.resolve(db).identifyingRowIDs(alias: alias, primaryKey: primaryKey) else {
        continue
      }
      // Filters combine with AND.
      result = result.map { $0.intersection(rowIDs) } ?? rowIDs
    }
    return result.map { RowIDRestriction(table: tableName, rowIDs: $0) }
  }
}

extension SQLExpression {
  /// The rowids a filter can select, or nil when it may select any row:
  ///
  ///     1, id > 1, name = 'x'            nil
  ///     0, NULL, id IS NULL              []
  ///     id = 1, 1 = id, id IS 1          [1]
  ///     id = 1 AND score > 0             [1]
  ///     id = 1 OR id = 2, id IN (1, 2)   [1, 2]
  ///     id = '1', id = 1.0               nil
  ///
  /// A value that is not an integer may still equal a rowid (SQLite compares
  /// `'1'` and `1.0` with the rowid 1 as numbers): such a filter may select
  /// any row, where GRDB would take it to select none and miss changes.
  ///
  /// `alias` is the relation's table: a column qualified with another
  /// table's alias is not its rowid.
  func identifyingRowIDs(alias: SQLTableAlias, primaryKey: PrimaryKeyInfo) -> Set<Int64>? {
    switch impl {
    case .value(let value):
      // WHERE NULL and WHERE 0 select no row.
      if value.isNull || value == false.databaseValue { return [] }
      return nil
    case .associative(let op, let expressions, _) where op == "AND":
      var result: Set<Int64>?
      for expression in expressions {
        guard let rowIDs = expression.identifyingRowIDs(alias: alias, primaryKey: primaryKey) else {
          continue
        }
        result = result.map { $0.intersection(rowIDs) } ?? rowIDs
      }
      return result
    case .associative(let op, let expressions, _) where op == "OR":
      var result: Set<Int64> = []
      for expression in expressions {
        guard let rowIDs = expression.identifyingRowIDs(alias: alias, primaryKey: primaryKey) else {
          return nil
        }
        result.formUnion(rowIDs)
      }
      return result
    case .inList(let expression, let list, negated: false):
      guard expression.isRowID(of: alias, primaryKey: primaryKey) else { return nil }
      var result: Set<Int64> = []
      for element in list {
        // Another expression, or a value that is no integer, may select any row.
        guard case .value(let value) = element.impl, let rowID = Int64.rowID(value) else { return nil }
        result.insert(rowID)
      }
      return result
    case .binary(let op, let lhs, let rhs) where op == "=" || op == "IS":
      for (column, other) in [(lhs, rhs), (rhs, lhs)] where column.isRowID(of: alias, primaryKey: primaryKey)
      {
        guard case .value(let value) = other.impl else { return nil }
        if value.isNull { return [] }
        return Int64.rowID(value).map { [$0] }
      }
      return nil
    case .postfix(let expression, "IS NULL") where expression.isRowID(of: alias, primaryKey: primaryKey):
      return []
    case .collate(let expression, _):
      return expression.identifyingRowIDs(alias: alias, primaryKey: primaryKey)
    default:
      return nil
    }
  }

  /// True for a column of the relation's table that is its rowid: its
  /// `INTEGER PRIMARY KEY`, or `rowid`, `_rowid_` and `oid` of a rowid table.
  private func isRowID(of alias: SQLTableAlias, primaryKey: PrimaryKeyInfo) -> Bool {
    guard case .column(let name, let columnAlias) = impl else { return false }
    if let columnAlias, columnAlias !== alias { return false }
    if let rowIDColumn = primaryKey.rowIDColumn, name.sameName(as: rowIDColumn) { return true }
    return primaryKey.tableHasRowID && ["rowid", "_rowid_", "oid"].contains { name.sameName(as: $0) }
  }
}

extension Int64 {
  /// The rowid a value compares equal to, if it is an integer.
  ///
  /// Not inlined: Swift 6.3's optimizer, inlining it into the loops above,
  /// breaks its own ownership rules and crashes in release builds.
  @inline(never)
  fileprivate static func rowID(_ value: DatabaseValue) -> Int64? {
    if case .int64(let integer) = value.storage { return integer }
    return nil
  }
}
