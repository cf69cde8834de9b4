// Reading records from the scopes and prefetched rows of a fetched row:
// `let author: Author = row["author"]`, `let books: [Book] = row["books"]`.

extension Row {
  /// The record decoded from the scope `scope` (searched at any depth). Stops
  /// the program if there is no such scope or it can not be decoded, as GRDB does.
  @_disfavoredOverload
  public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
    Row.trap {
      guard let row = scopesTree[scope] else {
        throw RowDecodingError(
          kind: .columnNotFound(scope), column: scope, row: description, sql: statementSQL)
      }
      return try Record(row: row)
    }
  }

  /// The record decoded from the scope `scope`, or nil when there is no such
  /// scope or it matched no row (an optional association).
  public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
    Row.trap {
      guard let row = scopesTree[scope], !row.isEmptyScope else { return nil }
      return try Record(row: row)
    }
  }

  /// The records decoded from the prefetched rows `key` (`including(all:)`).
  public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records
  where Records.Element: FetchableRecord {
    Row.trap {
      guard let rows = prefetchedRows[key] else {
        throw RowDecodingError(kind: .columnNotFound(key), column: key, row: description, sql: statementSQL)
      }
      return Records(try rows.map { try Records.Element(row: $0) })
    }
  }

  /// The records decoded from the prefetched rows `key`, as a set.
  public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
    Row.trap {
      guard let rows = prefetchedRows[key] else {
        throw RowDecodingError(kind: .columnNotFound(key), column: key, row: description, sql: statementSQL)
      }
      return Set(try rows.map { try Record(row: $0) })
    }
  }
}
