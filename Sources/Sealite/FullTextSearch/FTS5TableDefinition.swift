/// The definition of an ``FTS5`` table, configured in the body of
/// ``Database/create(virtualTable:options:using:_:)``:
///
///     try db.create(virtualTable: "document", using: FTS5()) { t in
///       t.tokenizer = .unicode61()
///       t.prefixes = [2, 3]
///       t.column("title")
///       t.column("author").notIndexed()
///     }
///
/// See <https://www.sqlite.org/fts5.html#fts5_table_creation_and_initialization>.
public final class FTS5TableDefinition {
  /// Where the indexed text is stored.
  enum ContentMode {
    /// The `content` and `content_rowid` options, as the user set them.
    case raw(content: String?, contentRowID: String?)
    /// An external-content table kept in sync by triggers.
    case synchronized(contentTable: String)
  }

  let configuration: VirtualTableConfiguration
  private(set) var columns: [FTS5ColumnDefinition] = []
  private(set) var contentMode: ContentMode = .raw(content: nil, contentRowID: nil)

  /// The tokenizer of the table (the `tokenize` option); nil for FTS5's default,
  /// `unicode61`.
  public var tokenizer: FTS5TokenizerDescriptor?

  /// The `content` option: the table that holds the text (an external-content
  /// table), or `""` for a contentless table. Setting it ends a
  /// ``synchronize(withTable:)``.
  public var content: String? {
    get {
      switch contentMode {
      case .raw(let content, _): return content
      case .synchronized(let contentTable): return contentTable
      }
    }
    set {
      switch contentMode {
      case .raw(_, let contentRowID): contentMode = .raw(content: newValue, contentRowID: contentRowID)
      case .synchronized: contentMode = .raw(content: newValue, contentRowID: nil)
      }
    }
  }

  /// The `content_rowid` option: the column of the ``content`` table that
  /// gives the rowid of each indexed row. Setting it ends a
  /// ``synchronize(withTable:)``.
  public var contentRowID: String? {
    get {
      switch contentMode {
      case .raw(_, let contentRowID): return contentRowID
      case .synchronized: return nil
      }
    }
    set {
      switch contentMode {
      case .raw(let content, _): contentMode = .raw(content: content, contentRowID: newValue)
      case .synchronized: contentMode = .raw(content: nil, contentRowID: newValue)
      }
    }
  }

  /// The `prefix` option: the lengths of the prefixes that get an index of
  /// their own, for faster prefix queries.
  public var prefixes: Set<Int>?

  /// The `columnsize` option: 0 stores no token counts (smaller, but
  /// `bm25()` and the `xColumnSize` API get slower).
  public var columnSize: Int?

  /// The `detail` option: `"full"`, `"column"` or `"none"`.
  public var detail: String?

  init(configuration: VirtualTableConfiguration) {
    self.configuration = configuration
  }

  /// Adds a column, indexed unless you call ``FTS5ColumnDefinition/notIndexed()``.
  @discardableResult
  public func column(_ name: String) -> FTS5ColumnDefinition {
    let column = FTS5ColumnDefinition(name: name)
    columns.append(column)
    return column
  }

  /// Makes the table an index of `tableName` (an external-content table),
  /// kept in sync by triggers on `tableName` and filled with its current rows.
  /// Each column of the full-text table must be a column of `tableName`.
  ///
  /// The triggers are named after the full-text table; drop them with
  /// ``Database/dropFTS5SynchronizationTriggers(forTable:)`` when you drop it.
  public func synchronize(withTable tableName: String) {
    contentMode = .synchronized(contentTable: tableName)
  }
}

@available(*, unavailable, message: "a table definition is configured on one thread")
extension FTS5TableDefinition: Sendable {}

/// A column of an ``FTS5`` table, made by ``FTS5TableDefinition/column(_:)``.
public final class FTS5ColumnDefinition {
  let name: String
  private(set) var isIndexed = true

  init(name: String) {
    self.name = name
  }

  /// Excludes the column from the full-text index (`UNINDEXED`): its values are
  /// stored and returned, but never matched.
  @discardableResult
  public func notIndexed() -> Self {
    isIndexed = false
    return self
  }
}

@available(*, unavailable, message: "a column definition is configured on one thread")
extension FTS5ColumnDefinition: Sendable {}
