import CSQLCipher

/// A change SQLite reported on one row: an insertion, an update or a deletion.
///
/// SQLite reports rows of tables that have a rowid. Changes to `WITHOUT ROWID`
/// tables, and deletions made by the truncate optimization, reach observers
/// through ``TransactionObserver/databaseDidChange()`` instead.
public struct DatabaseEvent: Sendable, CustomStringConvertible {
  /// The kind of a change.
  public enum Kind: Int32, Sendable {
    /// A row was inserted.
    case insert = 18  // SQLITE_INSERT
    /// A row was deleted.
    case delete = 9  // SQLITE_DELETE
    /// A row was updated.
    case update = 23  // SQLITE_UPDATE
  }

  /// The kind of change.
  public let kind: Kind
  /// The name of the database schema of the changed table: `main`, `temp`,
  /// or the name of an attached database.
  public let databaseName: String
  /// The name of the changed table.
  public let tableName: String
  /// The rowid of the changed row.
  public let rowID: Int64

  /// Creates an event; `databaseName` is the schema of the table (`main`
  /// unless the table is temporary or in an attached database).
  public init(kind: Kind, databaseName: String = "main", tableName: String, rowID: Int64) {
    self.kind = kind
    self.databaseName = databaseName
    self.tableName = tableName
    self.rowID = rowID
  }

  /// The event itself: events are values, safe to keep after the callback
  /// (GRDB's name, kept for code that copies events).
  public func copy() -> DatabaseEvent { self }

  public var description: String {
    "\(kind) \(tableName) rowid \(rowID)"
  }
}

/// What a statement is about to do to a table, as given to
/// ``TransactionObserver/observes(eventsOfKind:)`` before it runs.
public enum DatabaseEventKind: Sendable, Hashable {
  /// Rows will be inserted.
  case insert(tableName: String)
  /// Rows will be deleted.
  case delete(tableName: String)
  /// Rows will be updated, in these columns.
  case update(tableName: String, columnNames: Set<String>)

  /// The table the statement writes.
  public var tableName: String {
    switch self {
    case .insert(let tableName), .delete(let tableName), .update(let tableName, _): tableName
    }
  }
}

extension StatementAuthorization.StatementWrite {
  /// The public description of this write.
  var eventKind: DatabaseEventKind {
    switch kind {
    case .insert: .insert(tableName: tableName)
    case .delete: .delete(tableName: tableName)
    case .update: .update(tableName: tableName, columnNames: columnNames)
    }
  }
}
