/// A row adapter presents the rows of a statement as other rows: some of
/// their columns, under other names, with scopes (rows of their own, named,
/// that records decode as nested records).
///
/// Adapters are given to the fetching methods and requests (`adapter:`):
///
///     // SELECT player.*, team.* FROM player JOIN team ON …
///     let adapters = splittingRowAdapters(columnCounts: [3])
///     let adapter = ScopeAdapter(["player": adapters[0], "team": adapters[1]])
///     let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
///     row.scopes["team"]   // [id: 42, name: "Reds"]
///
/// Sealite's adapters are ``ColumnMapping``, ``SuffixRowAdapter``,
/// ``RangeRowAdapter``, ``EmptyRowAdapter``, ``RenameColumnAdapter`` and
/// ``ScopeAdapter``. The requirement, underscored as in GRDB, is how an
/// adapter resolves against the columns of a statement, once per statement.
public protocol RowAdapter: Sendable {
  /// The adapter, resolved for the columns of `layout`. It throws when the
  /// adapter names a column the layout does not have.
  func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter
}

/// The columns an adapter resolves against: a statement, a row, or the
/// columns another adapter produced.
public protocol _RowLayout {
  /// The columns, as (index in the base row, name) pairs.
  var _layoutColumns: [(Int, String)] { get }
  /// The position in ``_layoutColumns`` of the leftmost column named `name`
  /// (ASCII letters compared without case, as SQLite does).
  func _layoutIndex(ofColumn name: String) -> Int?
}

/// An adapter resolved for one layout: which base columns it presents, and
/// its scopes.
public protocol _LayoutedRowAdapter: Sendable {
  /// The columns of the adapted row.
  var _mapping: _LayoutedColumnMapping { get }
  /// The scopes of the adapted row, by name.
  var _scopes: [String: any _LayoutedRowAdapter] { get }
}

/// The columns of an adapted row: for each, its index in the base row and
/// its name.
public struct _LayoutedColumnMapping: _LayoutedRowAdapter, _RowLayout, Sendable {
  /// (index in the base row, name) pairs, in the order of the adapted row.
  public let _layoutColumns: [(Int, String)]

  /// A mapping of these (index in the base row, name) pairs.
  public init(layoutColumns: some Sequence<(Int, String)>) {
    _layoutColumns = Array(layoutColumns)
  }

  public var _mapping: _LayoutedColumnMapping { self }
  public var _scopes: [String: any _LayoutedRowAdapter] { [:] }

  public func _layoutIndex(ofColumn name: String) -> Int? {
    _layoutColumns.firstIndex { $0.1.sameName(as: name) }
  }
}

extension RowAdapter {
  /// This adapter, with scopes added (`self` when `scopes` is empty).
  public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
    scopes.isEmpty ? self : ScopeAdapter(base: self, scopes: scopes)
  }

  /// The index in the base row of the adapted row's column `index`: where a
  /// value fetched through the adapter is read.
  func baseColumnIndex(atIndex index: Int, layout: some _RowLayout) throws -> Int {
    let columns = try _layoutedAdapter(from: layout)._mapping._layoutColumns
    guard index < columns.count else {
      throw DatabaseError.misuse(
        "the adapted row has \(columns.count) column(s): column \(index) does not exist")
    }
    return columns[index].0
  }
}

/// Adapters that split a row into consecutive chunks of `columnCounts`
/// columns, plus one for the columns left on the right:
///
///     // SELECT player.*, team.* FROM …, where player has 3 columns
///     let adapters = splittingRowAdapters(columnCounts: [3])
///     let adapter = ScopeAdapter(["player": adapters[0], "team": adapters[1]])
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
  var start = 0
  var adapters: [any RowAdapter] = []
  for count in columnCounts {
    adapters.append(RangeRowAdapter(start..<(start + count)))
    start += count
  }
  adapters.append(SuffixRowAdapter(fromIndex: start))
  return adapters
}
