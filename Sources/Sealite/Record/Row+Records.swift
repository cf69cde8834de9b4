// Reading records from the scopes and prefetched rows of a fetched row:
// `let author: Author = try row.decode(forKey: "author")`, `let books: [Book]
// = row["books"]`. The subscripts stop the program where the throwing
// methods throw, as GRDB's do.

extension Row {
  /// The record decoded from the scope `scope` (searched at any depth).
  /// Throws when there is no such scope, or it holds only NULL values (an
  /// optional association that matched no row: decode an optional then).
  ///
  ///     let request = Book.including(required: Book.author)
  ///     for row in try Row.fetchAll(db, request) {
  ///       let author = try row.decode(Author.self, forKey: "author")
  ///     }
  public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws
    -> Record
  {
    guard let row = scopesTree[scope] else { throw missingScope(scope) }
    guard row.containsNonNullValue else {
      throw RowDecodingError(
        kind: .valueMismatch(type: String(describing: Record.self), value: .null), column: scope,
        row: description, sql: statementSQL)
    }
    return try Record(row: row)
  }

  /// The record decoded from the scope `scope`, or nil when there is no such
  /// scope or it holds only NULL values (an optional association that matched
  /// no row).
  public func decodeIfPresent<Record: FetchableRecord>(
    _ type: Record.Type = Record.self, forKey scope: String
  )
    throws -> Record?
  {
    guard let row = scopesTree[scope], row.containsNonNullValue else { return nil }
    return try Record(row: row)
  }

  /// The records decoded from the prefetched rows `key` (`including(all:)`).
  ///
  ///     let request = Author.including(all: Author.books)
  ///     for row in try Row.fetchAll(db, request) {
  ///       let books = try row.decode([Book].self, forKey: "books")
  ///     }
  public func decode<Collection: RangeReplaceableCollection>(
    _ type: Collection.Type = Collection.self, forKey key: String
  ) throws -> Collection where Collection.Element: FetchableRecord {
    guard let rows = prefetchedRows[key] else { throw missingScope(key) }
    return Collection(try rows.map { try Collection.Element(row: $0) })
  }

  /// The records decoded from the prefetched rows `key`, as a set.
  public func decode<Record: FetchableRecord & Hashable>(
    _ type: Set<Record>.Type = Set<Record>.self, forKey key: String
  )
    throws -> Set<Record>
  {
    guard let rows = prefetchedRows[key] else { throw missingScope(key) }
    return Set(try rows.map { try Record(row: $0) })
  }

  private func missingScope(_ key: String) -> RowDecodingError {
    RowDecodingError(kind: .columnNotFound(key), column: key, row: description, sql: statementSQL)
  }

  /// The record decoded from the scope `scope` (searched at any depth). Stops
  /// the program where ``decode(_:forKey:)-(Record.Type,_)`` throws, as GRDB does.
  @_disfavoredOverload
  public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
    Row.trap { try decode(Record.self, forKey: scope) }
  }

  /// The record decoded from the scope `scope`, or nil when there is no such
  /// scope or it matched no row (an optional association).
  public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
    Row.trap { try decodeIfPresent(Record.self, forKey: scope) }
  }

  /// The records decoded from the prefetched rows `key` (`including(all:)`).
  public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records
  where Records.Element: FetchableRecord {
    Row.trap { try decode(Records.self, forKey: key) }
  }

  /// The records decoded from the prefetched rows `key`, as a set.
  public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
    Row.trap { try decode(Set<Record>.self, forKey: key) }
  }
}
