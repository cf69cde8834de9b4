/// The primary key of a table, as ``Database/primaryKey(_:in:)`` reports it.
///
/// Three kinds: the hidden rowid (no primary key declared: ``columns`` is
/// `["rowid"]`), a column that is the rowid (an `INTEGER PRIMARY KEY` of a
/// rowid table: ``rowIDColumn`` names it), or regular columns. In a
/// `WITHOUT ROWID` table, an `INTEGER` primary key is a regular column.
public struct PrimaryKeyInfo: Sendable, Hashable {
  enum Kind: Hashable, Sendable {
    case hiddenRowID
    case rowID(String)
    case regular([String], tableHasRowID: Bool)
  }

  let kind: Kind

  /// The primary key columns: never empty.
  public var columns: [String] {
    switch kind {
    case .hiddenRowID: return [Column.rowID.name]
    case .rowID(let column): return [column]
    case .regular(let columns, _): return columns
    }
  }

  /// The column that holds the rowid (an `INTEGER PRIMARY KEY`), if any.
  public var rowIDColumn: String? {
    if case .rowID(let column) = kind { return column }
    return nil
  }

  /// True if the primary key is the rowid, hidden or not.
  public var isRowID: Bool {
    switch kind {
    case .hiddenRowID, .rowID: return true
    case .regular: return false
    }
  }

  /// False for a `WITHOUT ROWID` table.
  public var tableHasRowID: Bool {
    if case .regular(_, let tableHasRowID) = kind { return tableHasRowID }
    return true
  }

  var isHiddenRowID: Bool { kind == .hiddenRowID }

  /// True if `columns` (in any order and case) hold every column of the key.
  /// Builds no array: a request's filters ask at each rendering.
  func isHeld(by columns: some Collection<String>) -> Bool {
    switch kind {
    case .hiddenRowID: return columns.contains { $0.sameName(as: Column.rowID.name) }
    case .rowID(let column): return columns.contains { $0.sameName(as: column) }
    case .regular(let keyColumns, _):
      return keyColumns.allSatisfy { key in columns.contains { $0.sameName(as: key) } }
    }
  }
}
