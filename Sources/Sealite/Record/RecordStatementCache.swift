/// The statements Record builds once per connection and keeps until the
/// schema changes: building the SQL of an INSERT or a primary-key lookup
/// through the query interface costs more than running it.
final class RecordStatementCache: ConnectionState {
  /// INSERT statements by table, columns and conflict resolution, with the
  /// table's primary key.
  var insertStatements: [RecordStatementKey: (statement: Statement, primaryKey: RecordPrimaryKey)] = [:]
  /// The SQL of primary-key lookups by record type.
  var primaryKeyLookups: [ObjectIdentifier: PrimaryKeyLookupSQL] = [:]

  static func make(for db: Database) -> RecordStatementCache { RecordStatementCache() }

  func schemaDidChange() {
    insertStatements.removeAll()
    primaryKeyLookups.removeAll()
  }
}

/// Identifies a record INSERT statement.
struct RecordStatementKey: Hashable {
  let table: String
  let columns: [String]
  let resolution: String

  // Looked up once per inserted record: the hash reads the table name and
  // the number of columns, not every column name. Keys that differ in their
  // names only are told apart by equality, which compares the names a loop of
  // one record type spells identically (equal small strings compare as words).
  func hash(into hasher: inout Hasher) {
    hasher.combine(table)
    hasher.combine(columns.count)
    hasher.combine(resolution)
  }
}
