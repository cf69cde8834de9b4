/// The definition of an FTS4 table, configured in the body of
/// ``Database/create(virtualTable:options:using:_:)``:
///
///     try db.create(virtualTable: "book", using: FTS4()) { t in
///       t.synchronize(withTable: "bookContent")
///       t.prefixes = [2, 4]
///       t.column("title")
///     }
///
/// See <https://www.sqlite.org/fts3.html#fts4_options> for the options.
public final class FTS4TableDefinition {
  /// Where the table's content lives.
  enum ContentMode {
    /// In the FTS table itself (nil), or in the table named by the `content` option.
    case raw(content: String?)
    /// In a content table that triggers keep the index in step with.
    case synchronized(contentTable: String)
  }

  let configuration: VirtualTableConfiguration
  /// The columns, in order.
  var columns: [FTS4ColumnDefinition] = []
  var contentMode: ContentMode = .raw(content: nil)

  /// The tokenizer; nil uses SQLite's default (`simple`).
  public var tokenizer: FTS3TokenizerDescriptor?

  /// The `content` option: `""` makes a contentless table, a table name an
  /// external content table that the application keeps in step with the index.
  /// Setting it ends a previous ``synchronize(withTable:)``; after one, it
  /// reads the synchronized table.
  public var content: String? {
    get {
      switch contentMode {
      case .raw(let content): return content
      case .synchronized(let contentTable): return contentTable
      }
    }
    set { contentMode = .raw(content: newValue) }
  }

  /// The `compress` option: the name of a custom SQL function that compresses
  /// the stored content.
  public var compress: String?

  /// The `uncompress` option: the name of the custom SQL function that undoes
  /// ``compress``.
  public var uncompress: String?

  /// The `matchinfo` option (`"fts3"` saves space in the index).
  public var matchinfo: String?

  /// The `prefix` option: the lengths of the prefixes the index also holds,
  /// which make prefix queries faster.
  public var prefixes: Set<Int>?

  init(configuration: VirtualTableConfiguration) {
    self.configuration = configuration
  }

  /// Adds a column, whose options the returned definition sets:
  /// `t.column("isbn").notIndexed()`.
  @discardableResult
  public func column(_ name: String) -> FTS4ColumnDefinition {
    let column = FTS4ColumnDefinition(name: name)
    columns.append(column)
    return column
  }

  /// Makes `tableName` the content of the table, kept in step by triggers:
  /// each insert, update and delete in `tableName` updates the index, and the
  /// rows it already holds are indexed when the table is created. The FTS
  /// columns are the content table's columns of the same names. Not for
  /// temporary tables: SQLite can not rebuild their index.
  ///
  /// ``Database/dropFTS4SynchronizationTriggers(forTable:)`` removes the
  /// triggers after the FTS table is dropped.
  public func synchronize(withTable tableName: String) {
    contentMode = .synchronized(contentTable: tableName)
  }

  /// The content table, if the index is synchronized with one.
  var synchronizedContentTable: String? {
    if case .synchronized(let contentTable) = contentMode { return contentTable }
    return nil
  }
}

// A mutable class, used in the body of one table creation: not Sendable, as in GRDB.
@available(*, unavailable)
extension FTS4TableDefinition: Sendable {}

/// A column of an FTS4 table, returned by ``FTS4TableDefinition/column(_:)``.
public final class FTS4ColumnDefinition {
  let name: String
  var isIndexed = true
  var isLanguageId = false

  init(name: String) {
    self.name = name
  }

  /// Keeps the column out of the index (`notindexed=`): stored, never matched.
  @discardableResult
  public func notIndexed() -> Self {
    isIndexed = false
    return self
  }

  /// Makes the column the language id of the rows (`languageid=`): a
  /// `MATCH` only finds rows of the language id its query restricts to
  /// (`WHERE t MATCH ? AND lid = 1`), 0 without one.
  @discardableResult
  public func asLanguageId() -> Self {
    isLanguageId = true
    return self
  }
}

// A mutable class, used in the body of one table creation: not Sendable, as in GRDB.
@available(*, unavailable)
extension FTS4ColumnDefinition: Sendable {}
