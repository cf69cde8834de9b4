/// The rows of associations attached to a row: to-one associations as scopes
/// (`row.scopes["author"]`), to-many ones as prefetched rows
/// (`row.prefetchedRows["books"]`).
final class RowExtras: @unchecked Sendable {
  // Sendable: written only by the request that fetches the row, on the
  // connection's queue, before the row is returned; only read afterwards, so
  // no two threads ever race on it.
  var scopes: [(String, Row)] = []
  var prefetchedRows: [String: [Row]] = [:]
  /// The joined row the row was cut from (its column names and values), for
  /// ``Row/debugDescription``: the values array is the one the adapter read,
  /// kept rather than copied.
  var unadapted: (layout: RowLayout, values: [DatabaseValue])?

  /// The joined row the row was cut from, if it differs from the row itself.
  var unadaptedRow: Row? {
    unadapted.map { Row(layout: $0.layout, values: ContiguousArray($0.values)) }
  }
}

/// The owner of a row that has extras, and its extras: a row keeps its extras
/// here rather than in a property of its own, which every row would pay for.
final class RowExtrasHolder {
  let owner: AnyObject
  let extras: RowExtras

  init(owner: AnyObject, extras: RowExtras) {
    self.owner = owner
    self.extras = extras
  }
}

extension Row {
  /// The scopes of a row (rows of included to-one associations, or of a
  /// ``ScopeAdapter``), by name; a collection of `(name, row)` pairs.
  public struct ScopesView: Sendable, Collection {
    let row: Row

    /// The scope names, in the order of the request (of their names, for
    /// the scopes of an adapter).
    public var names: [String] { row.extras?.scopes.map(\.0) ?? [] }

    /// The row of a scope, or nil.
    public subscript(_ name: String) -> Row? {
      row.extras?.scopes.first { $0.0 == name }?.1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { row.extras?.scopes.count ?? 0 }
    public func index(after index: Int) -> Int { index + 1 }

    /// The scope at `position`: its name and its row.
    public subscript(position: Int) -> (name: String, row: Row) {
      let scope = row.extras!.scopes[position]
      return (scope.0, scope.1)
    }
  }

  /// The rows of included to-one associations.
  public var scopes: ScopesView { ScopesView(row: self) }

  /// The rows of included to-one associations at any depth, found breadth
  /// first: `row.scopesTree["country"]` finds a country included through an author.
  public struct ScopesTreeView: Sendable {
    let row: Row

    /// Every scope name in the tree (a set, as GRDB gives them).
    public var names: Set<String> {
      var result: Set<String> = []
      var queue = [row]
      while !queue.isEmpty {
        let current = queue.removeFirst()
        for (name, scope) in current.extras?.scopes ?? [] {
          result.insert(name)
          queue.append(scope)
        }
      }
      return result
    }

    /// The nearest scope with this name, or nil.
    public subscript(_ name: String) -> Row? {
      var queue = [row]
      while !queue.isEmpty {
        let current = queue.removeFirst()
        for (scopeName, scope) in current.extras?.scopes ?? [] {
          if scopeName == name { return scope }
          queue.append(scope)
        }
      }
      return nil
    }
  }

  /// The rows of included to-one associations at any depth.
  public var scopesTree: ScopesTreeView { ScopesTreeView(row: self) }

  /// The rows of to-many associations included with `including(all:)`, this
  /// row's own and those of the included to-one associations it scopes, at
  /// any depth, as GRDB finds them: `authorRow.prefetchedRows["awards"]`
  /// finds the awards of `Book.including(required: Book.author.including(all: Author.awards))`.
  public struct PrefetchedRowsView: Sendable {
    let row: Row

    /// The association keys, at any depth.
    public var keys: Set<String> {
      var result: Set<String> = []
      forEachLevel { level in
        result.formUnion(level.keys)
        return false
      }
      return result
    }

    /// Whether no rows were prefetched, at any depth.
    public var isEmpty: Bool {
      var isEmpty = true
      forEachLevel { level in
        isEmpty = level.isEmpty
        return !isEmpty
      }
      return isEmpty
    }

    /// The rows of an association, or nil if it was not prefetched. This
    /// row's own come first, then the scopes', breadth first.
    public subscript(_ key: String) -> [Row]? {
      var result: [Row]?
      forEachLevel { level in
        result = level[key]
        return result != nil
      }
      return result
    }

    /// Hands `body` the prefetched rows of this row, then of its scopes,
    /// breadth first, until `body` returns true.
    private func forEachLevel(_ body: ([String: [Row]]) -> Bool) {
      guard let extras = row.extras else { return }
      if body(extras.prefetchedRows) { return }
      var queue = extras.scopes.map(\.1)
      while !queue.isEmpty {
        let current = queue.removeFirst()
        guard let extras = current.extras else { continue }
        if body(extras.prefetchedRows) { return }
        queue += extras.scopes.map(\.1)
      }
    }
  }

  /// The rows of to-many associations included with `including(all:)`.
  public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(row: self) }

  func attachScope(_ name: String, _ scope: Row) {
    attachedExtras.scopes.append((name, scope))
  }

  func attachPrefetchedRows(_ key: String, _ rows: [Row]) {
    attachedExtras.prefetchedRows[key] = rows
  }

  /// The row's extras, attached first if it has none.
  var attachedExtras: RowExtras {
    if let extras { return extras }
    let extras = RowExtras()
    self.extras = extras
    return extras
  }
}

/// How the columns of a joined row split into the base row and the scopes of
/// included associations: the row adapter of a request with `including(…)`.
struct RowScopeLayout: RowAdapter {
  /// Columns of the base row, from `start`.
  var start: Int
  var width: Int
  var scopes: [(key: String, layout: RowScopeLayout)]

  func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
    let columns = layout._layoutColumns
    let end = min(start + width, columns.count)
    return LayoutedOrderedScopes(
      _mapping: _LayoutedColumnMapping(layoutColumns: columns[min(start, end)..<end]),
      orderedScopes: try scopes.map { ($0.key, try $0.layout._layoutedAdapter(from: layout)) })
  }
}

/// A resolved adapter whose scopes have an order: the included associations
/// of a request, in the order the request names them.
struct LayoutedOrderedScopes: _LayoutedRowAdapter {
  let _mapping: _LayoutedColumnMapping
  let orderedScopes: [(String, any _LayoutedRowAdapter)]

  var _scopes: [String: any _LayoutedRowAdapter] {
    Dictionary(orderedScopes, uniquingKeysWith: { first, _ in first })
  }
}

/// How the rows of one statement are adapted: the columns of the adapted row
/// (their indexes in the base row) and its scopes, with column layouts built
/// once per statement. Each row is then cut from the base row's values. Row
/// adapters and included associations both run through it.
final class RowAdaptation: Sendable {
  let indexes: [Int]
  let layout: RowLayout
  let scopes: [(String, RowAdaptation)]

  /// The adaptation of a row adapter resolved for a statement. Scopes are
  /// attached in the order of the request's associations, or else of their
  /// names (an adapter's scopes are a dictionary).
  init(_ adapter: any _LayoutedRowAdapter) {
    let columns = adapter._mapping._layoutColumns
    indexes = columns.map(\.0)
    // Adaptations are resolved for the rows of statements.
    layout = RowLayout(names: columns.map(\.1), isFetched: true)
    let scopes =
      (adapter as? LayoutedOrderedScopes)?.orderedScopes
      ?? adapter._scopes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    self.scopes = scopes.map { ($0.0, RowAdaptation($0.1)) }
  }

  /// The function that adapts each row of a statement whose columns are
  /// `unadaptedLayout`.
  func transform(unadaptedLayout: RowLayout) -> @Sendable (Row) -> Row {
    { row in
      let values = row.databaseValues
      return self.build(values, unadapted: (unadaptedLayout, values))
    }
  }

  private func build(_ values: [DatabaseValue], unadapted: (RowLayout, [DatabaseValue])) -> Row {
    let row = Row(layout: layout, values: ContiguousArray(indexes.lazy.map { values[$0] }))
    for (key, node) in scopes { row.attachScope(key, node.build(values, unadapted: unadapted)) }
    row.attachedExtras.unadapted = unadapted
    return row
  }
}
