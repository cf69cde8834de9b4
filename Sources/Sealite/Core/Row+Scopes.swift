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

extension Row {
  /// The rows of included to-one associations, by association key.
  public struct ScopesView: Sendable {
    let row: Row

    /// The scope names, in the order of the request.
    public var names: [String] { row.extras?.scopes.map(\.0) ?? [] }

    /// The row of an included association, or nil.
    public subscript(_ name: String) -> Row? {
      row.extras?.scopes.first { $0.0 == name }?.1
    }
  }

  /// The rows of included to-one associations.
  public var scopes: ScopesView { ScopesView(row: self) }

  /// The rows of included to-one associations at any depth, found breadth
  /// first: `row.scopesTree["country"]` finds a country included through an author.
  public struct ScopesTreeView: Sendable {
    let row: Row

    /// Every scope name in the tree, breadth first.
    public var names: [String] {
      var result: [String] = []
      var queue = [row]
      while !queue.isEmpty {
        let current = queue.removeFirst()
        for (name, scope) in current.extras?.scopes ?? [] {
          result.append(name)
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

  /// The rows of to-many associations included with `including(all:)`.
  public struct PrefetchedRowsView: Sendable {
    let row: Row

    /// The association keys.
    public var keys: [String] { row.extras.map { Array($0.prefetchedRows.keys) } ?? [] }

    /// The rows of an association, or nil if it was not prefetched.
    public subscript(_ key: String) -> [Row]? {
      row.extras?.prefetchedRows[key]
    }
  }

  /// The rows of to-many associations included with `including(all:)`.
  public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(row: self) }

  func attachScope(_ name: String, _ scope: Row) {
    if extras == nil { extras = RowExtras() }
    extras!.scopes.append((name, scope))
  }

  func attachPrefetchedRows(_ key: String, _ rows: [Row]) {
    if extras == nil { extras = RowExtras() }
    extras!.prefetchedRows[key] = rows
  }
}

/// How the columns of a joined row split into the base row and the scopes of
/// included associations.
struct RowScopeLayout: Sendable {
  /// Columns of the base row, from `start`.
  var start: Int
  var width: Int
  var scopes: [(key: String, layout: RowScopeLayout)]

  /// A function that turns a joined row into the structured row (base
  /// columns, with scopes attached). Column layouts are built once, here.
  func makeAdapter(columnNames names: [String]) -> @Sendable (Row) -> Row {
    let node = AdapterNode(self, names: names)
    let unadaptedLayout = RowLayout(names: names)
    return { row in
      let values = row.databaseValues
      return node.build(values, unadapted: (unadaptedLayout, values))
    }
  }
}

private final class AdapterNode: Sendable {
  let range: Range<Int>
  let layout: RowLayout
  let scopes: [(String, AdapterNode)]

  init(_ scopeLayout: RowScopeLayout, names: [String]) {
    let end = min(scopeLayout.start + scopeLayout.width, names.count)
    let start = min(scopeLayout.start, end)
    range = start..<end
    layout = RowLayout(names: Array(names[range]))
    scopes = scopeLayout.scopes.map { ($0.key, AdapterNode($0.layout, names: names)) }
  }

  func build(_ values: [DatabaseValue], unadapted: (RowLayout, [DatabaseValue])) -> Row {
    let row = Row(layout: layout, values: ContiguousArray(values[range]))
    for (key, node) in scopes { row.attachScope(key, node.build(values, unadapted: unadapted)) }
    if row.extras == nil { row.extras = RowExtras() }
    row.extras!.unadapted = unadapted
    return row
  }
}
