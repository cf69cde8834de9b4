/// The statements Record builds once per connection and keeps until the
/// schema changes: building the SQL of an INSERT or a primary-key lookup
/// through the query interface costs more than running it.
final class RecordStatementCache: ConnectionState {
  /// INSERT statements by table, columns and conflict resolution, with the
  /// table's primary key.
  var insertStatements: [RecordStatementKey: (statement: Statement, primaryKey: RecordPrimaryKey)] = [:]
  /// The INSERT statement used last: a loop that inserts records of one type
  /// asks for the same one each time, and comparing its key is cheaper than
  /// hashing it.
  var lastInsertStatement: (key: RecordStatementKey, statement: Statement, primaryKey: RecordPrimaryKey)?
  /// The SQL of primary-key lookups by record type.
  var primaryKeyLookups: [ObjectIdentifier: PrimaryKeyLookupSQL] = [:]

  static func make(for db: Database) -> RecordStatementCache { RecordStatementCache() }

  func schemaDidChange() {
    insertStatements.removeAll()
    lastInsertStatement = nil
    primaryKeyLookups.removeAll()
  }
}

/// Identifies a record INSERT statement.
struct RecordStatementKey: Hashable {
  let table: String
  let columns: [String]
  let resolution: String
}
