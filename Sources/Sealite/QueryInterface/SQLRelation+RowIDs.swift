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

extension SQLRelation {
  /// True if the filters select at most one row, as GRDB judges it: they fix
  /// every column of the primary key or of a unique index with `=`, in a
  /// request of one table. A single result then needs no `LIMIT 1` (which
  /// changes no result: a single result reads the first row only).
  ///
  /// Asked each time the SQL is rendered: a key's filter answers without
  /// building its condition.
  func filtersSelectOneRow(_ db: Database) throws -> Bool {
    guard joins.isEmpty, !filters.isEmpty else { return false }
    var columns: [String] = []
    for filter in filters {
      switch filter {
      case .primaryKey(_, let values): if values.count == 1 { return true }
      case .expression(let expression): expression.collectIdentifyingColumns(alias: alias, into: &columns)
      case .deferred: try filter.resolve(db).collectIdentifyingColumns(alias: alias, into: &columns)
      }
    }
    // A view has no key that SQLite enforces.
    guard !columns.isEmpty, try db.tableExists(tableName) else { return false }
    return try db.table(tableName, hasUniqueKey: columns)
  }
}

extension SQLExpression {
  /// Adds the columns of the relation's table that the filter fixes with `=`
  /// or `IS` to a value, through `AND`: `id = 1 AND name = 'x'` fixes `id`
  /// and `name`. Not `IS NULL` (a unique index holds many NULLs), nor a
  /// comparison under another collation (`'x' COLLATE NOCASE` matches `'X'`
  /// too).
  func collectIdentifyingColumns(alias: SQLTableAlias, into columns: inout [String]) {
    switch impl {
    case .associative("AND", let expressions, _):
      for expression in expressions { expression.collectIdentifyingColumns(alias: alias, into: &columns) }
    case .associative(_, let expressions, _) where expressions.count == 1:
      // One term alone (the `OR` of one key dictionary) is that term.
      expressions[0].collectIdentifyingColumns(alias: alias, into: &columns)
    case .binary(let op, let lhs, let rhs) where op == "=" || op == "IS":
      for (column, other) in [(lhs, rhs), (rhs, lhs)] {
        guard case .column(let name, let columnAlias) = column.impl,
          columnAlias == nil || columnAlias === alias,
          case .value(let value) = other.impl, !value.isNull
        else { continue }
        columns.append(name)
      }
    default:
      break
    }
  }

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
