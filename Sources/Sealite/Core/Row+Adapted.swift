// Statements and rows are layouts that row adapters resolve against; the
// adapted rows a cursor returns are built by RowAdaptation.

extension Statement: _RowLayout {
  public var _layoutColumns: [(Int, String)] { Array(layout.names.enumerated()) }
  public func _layoutIndex(ofColumn name: String) -> Int? { layout.index(of: name) }
}

extension Row: _RowLayout {
  public var _layoutColumns: [(Int, String)] { Array(layout.names.enumerated()) }
  public func _layoutIndex(ofColumn name: String) -> Int? { layout.index(of: name) }
}

extension Statement {
  /// The column values are read from when rows are adapted by `adapter`: the
  /// first of the adapted row (the first column without an adapter).
  func valueColumnIndex(adaptedBy adapter: (any RowAdapter)?) throws -> Int {
    try adapter?.baseColumnIndex(atIndex: 0, layout: self) ?? 0
  }
}

extension RowAdapter {
  /// The function that adapts each row of `statement`. Throws if the adapter
  /// names a column the statement does not have.
  func rowTransform(for statement: Statement) throws -> @Sendable (Row) -> Row {
    try RowAdaptation(_layoutedAdapter(from: statement)).transform(unadaptedLayout: statement.layout)
  }
}

extension Row {
  /// The row as fetched, before any adapter: the row itself if it was not
  /// adapted. For a row of included associations, the joined row.
  ///
  ///     let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: SuffixRowAdapter(fromIndex: 1))!
  ///     row            // [b: 2]
  ///     row.unadapted  // [a: 1, b: 2]
  public var unadapted: Row { extras?.unadaptedRow ?? self }

  /// The row without its scopes and prefetched rows: the row itself if it
  /// has none.
  ///
  ///     let bookRow = try Row.fetchOne(db, Book.including(required: Book.author))!
  ///     bookRow.unscoped  // [id: 42, title: "Moby-Dick", authorId: 1], without "author"
  public var unscoped: Row {
    guard let extras, !extras.scopes.isEmpty || !extras.prefetchedRows.isEmpty else { return self }
    let row = Row(layout: layout, values: ContiguousArray(databaseValues))
    if let unadapted = extras.unadapted {
      row.attachedExtras.unadapted = unadapted
    }
    return row
  }
}
