// The row adapters of GRDB: each picks or renames columns of the layout it is
// resolved against; ScopeAdapter adds scopes.

/// An adapter that presents no column: a row of nothing, which scopes can
/// complete (`EmptyRowAdapter().addingScopes([...])`).
public struct EmptyRowAdapter: RowAdapter {
  /// The adapter.
  public init() {}

  public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    _LayoutedColumnMapping(layoutColumns: [])
  }
}

/// An adapter that presents columns under new names, from a dictionary of
/// new name to base column name:
///
///     // SELECT 'Arthur' AS firstName
///     let adapter = ColumnMapping(["name": "firstName"])
///     try Row.fetchOne(db, sql: "SELECT 'Arthur' AS firstName", adapter: adapter)!  // [name: "Arthur"]
///
/// The columns keep the order of the base row. A base column that does not
/// exist is an error, when the adapter meets the statement.
public struct ColumnMapping: RowAdapter {
  let mapping: [String: String]

  /// An adapter from a dictionary of new names to base column names.
  public init(_ mapping: [String: String]) {
    self.mapping = mapping
  }

  public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    let columns = layout._layoutColumns
    let mapped = try mapping.map { name, baseName -> (Int, String) in
      guard let index = layout._layoutIndex(ofColumn: baseName) else {
        throw DatabaseError.misuse(
          "Mapping references missing column \(baseName). "
            + "Valid column names are: \(columns.map(\.1).joined(separator: ", ")).")
      }
      return (columns[index].0, name)
    }
    // The order of the base row, then of the names (two names for one column).
    return _LayoutedColumnMapping(layoutColumns: mapped.sorted { ($0.0, $0.1) < ($1.0, $1.1) })
  }
}

/// An adapter that presents the columns from `index` on.
public struct SuffixRowAdapter: RowAdapter {
  let index: Int

  /// An adapter of the columns from `index` (zero or more) on.
  public init(fromIndex index: Int) {
    precondition(index >= 0, "Negative column index is out of range")
    self.index = index
  }

  public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    _LayoutedColumnMapping(layoutColumns: layout._layoutColumns.dropFirst(index))
  }
}

/// An adapter that presents the columns of a range of indexes.
public struct RangeRowAdapter: RowAdapter {
  let range: Range<Int>

  /// An adapter of the columns in `range`.
  public init(_ range: Range<Int>) {
    precondition(range.lowerBound >= 0, "Negative column index is out of range")
    self.range = range
  }

  /// An adapter of the columns in `range`.
  public init(_ range: ClosedRange<Int>) {
    self.init(range.lowerBound..<(range.upperBound + 1))
  }

  public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    let columns = layout._layoutColumns
    guard range.upperBound <= columns.count else {
      throw DatabaseError.misuse(
        "the range \(range) of the adapter is out of the \(columns.count) columns of the row")
    }
    return _LayoutedColumnMapping(layoutColumns: columns[range])
  }
}

/// An adapter that renames every column with a function.
public struct RenameColumnAdapter: RowAdapter {
  let transform: @Sendable (String) -> String

  /// An adapter whose column names are `transform` of the base names.
  public init(_ transform: @escaping @Sendable (String) -> String) {
    self.transform = transform
  }

  public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    _LayoutedColumnMapping(layoutColumns: layout._layoutColumns.map { ($0.0, transform($0.1)) })
  }
}

/// An adapter that defines scopes: named rows, each adapted from the base
/// row by an adapter of its own, that records decode as nested records
/// (`row.scopes["team"]`).
///
///     let adapter = ScopeAdapter([
///       "player": RangeRowAdapter(0..<3),
///       "team": SuffixRowAdapter(fromIndex: 3),
///     ])
///
/// The adapted row has the columns of `base` (all columns by default). The
/// scopes' adapters resolve against the base row, not against `base`.
public struct ScopeAdapter: RowAdapter {
  let base: any RowAdapter
  let scopes: [String: any RowAdapter]

  /// An adapter of every column, with these scopes.
  public init(_ scopes: [String: any RowAdapter]) {
    self.init(base: SuffixRowAdapter(fromIndex: 0), scopes: scopes)
  }

  /// An adapter of the columns of `base`, with these scopes (they replace
  /// scopes of `base` with the same name).
  public init(base: some RowAdapter, scopes: [String: any RowAdapter]) {
    self.base = base
    self.scopes = scopes
  }

  public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    let layoutedBase = try base._layoutedAdapter(from: layout)
    var layoutedScopes = layoutedBase._scopes
    for (name, adapter) in scopes {
      layoutedScopes[name] = try adapter._layoutedAdapter(from: layout)
    }
    return LayoutedScopeAdapter(_mapping: layoutedBase._mapping, _scopes: layoutedScopes)
  }
}

/// A ``ScopeAdapter`` resolved for one layout.
struct LayoutedScopeAdapter: _LayoutedRowAdapter {
  let _mapping: _LayoutedColumnMapping
  let _scopes: [String: any _LayoutedRowAdapter]
}

/// Two adapters in a row: `second` resolves against the columns `first`
/// presents (an adapted request adapted again).
struct ChainedAdapter: RowAdapter {
  let first: any RowAdapter
  let second: any RowAdapter

  func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    try second._layoutedAdapter(from: first._layoutedAdapter(from: layout)._mapping)
  }
}
