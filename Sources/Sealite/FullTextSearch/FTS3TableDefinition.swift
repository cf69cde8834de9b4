/// The definition of an FTS3 table, configured in the body of
/// ``Database/create(virtualTable:options:using:_:)``:
///
///     try db.create(virtualTable: "book", using: FTS3()) { t in
///       t.tokenizer = .porter
///       t.column("title")
///     }
public final class FTS3TableDefinition {
  /// The names of the columns, in order.
  var columns: [String] = []

  /// The tokenizer; nil uses SQLite's default (`simple`).
  public var tokenizer: FTS3TokenizerDescriptor?

  init() {}

  /// Adds a column. FTS3 columns have no type nor constraint.
  public func column(_ name: String) {
    columns.append(name)
  }
}

// A mutable class, used in the body of one table creation: not Sendable, as in GRDB.
@available(*, unavailable)
extension FTS3TableDefinition: Sendable {}
