/// Where a record's primary key is among the columns it encodes, and the
/// statements that find its row by that key: the DELETE of `delete(db)` and
/// the SELECT of `exists(db)`, each made on first use. Kept per connection,
/// by table and record columns, in the ``RecordStatementCache`` (forgotten
/// when the schema changes): before, each delete and each `exists(db)` built
/// its SQL and looked its statement up by that text (16,678 and 21,071
/// instructions, 10 and 15 allocations per call in a release build), and each
/// `save(db)` looked the table's key up by name and each key column up by
/// name in the container.
final class RecordKeyStatements {
  /// For each column of the primary key, in order, the index of its value in
  /// the record's container; nil when the record does not encode it.
  let positions: [Int?]
  /// The indexes of the key's values in a container, in the key's order;
  /// nil when the record does not encode a column of the key.
  let keyIndexes: [Int]?
  /// The table and the WHERE clause on its key (`"id" = ?`), for the
  /// statements made on first use.
  private let table: String
  private let keyCondition: String
  private var deleteStatement: Statement?
  private var existsStatement: Statement?

  init(table: String, keyColumns: [String], recordColumns container: borrowing PersistenceContainer) {
    self.table = table
    positions = keyColumns.map { container.index(of: $0) }
    keyIndexes = positions.contains(nil) ? nil : positions.compactMap { $0 }
    keyCondition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
  }

  /// Whether `container` holds a value that is not NULL for a column of the
  /// key: `save(db)` then tries an update first.
  func hasKeyValue(in container: borrowing PersistenceContainer) -> Bool {
    for position in positions {
      if let position, !container.values[position].isNull { return true }
    }
    return false
  }

  /// The indexes of the key's values in `container`, in the key's order, or
  /// nil when a column of the key is not encoded or NULL: no row has such a
  /// key.
  func completeKey(in container: borrowing PersistenceContainer) -> [Int]? {
    guard let keyIndexes else { return nil }
    for index in keyIndexes where container.values[index].isNull { return nil }
    return keyIndexes
  }

  /// `DELETE FROM table WHERE key = ?`, made on first use.
  func delete(_ db: Database) throws -> Statement { try kept(&deleteStatement, "DELETE", db) }

  /// `SELECT 1 FROM table WHERE key = ?`, made on first use.
  func exists(_ db: Database) throws -> Statement { try kept(&existsStatement, "SELECT 1", db) }

  /// The statement kept in `statement`, or `head FROM table WHERE key = ?`,
  /// made and kept there.
  private func kept(_ statement: inout Statement?, _ head: String, _ db: Database) throws -> Statement {
    if let statement { return statement }
    let made = try db.cachedStatement(
      sql: "\(head) FROM \(table.quotedDatabaseIdentifier) WHERE \(keyCondition)")
    statement = made
    return made
  }
}

/// Identifies a record's ``RecordKeyStatements``: its table and the columns
/// it encodes, in its order.
struct RecordColumnsKey: Hashable {
  let table: String
  let columns: [String]

  // As RecordStatementKey: the number of columns, not their names, in the
  // hash (a record type encodes the same names each time).
  func hash(into hasher: inout Hasher) {
    hasher.combine(table)
    hasher.combine(columns.count)
  }
}

extension Database {
  /// The key statements of the records of `table` that encode `container`'s
  /// columns.
  func recordKeyStatements(_ table: String, _ container: borrowing PersistenceContainer) throws
    -> RecordKeyStatements
  {
    try withRecordStatements { cache in
      let key = RecordColumnsKey(table: table, columns: container.columns)
      if let found = cache.keyStatements.value(for: key) { return found }
      let statements = RecordKeyStatements(
        table: table, keyColumns: try recordPrimaryKey(table).columns, recordColumns: container)
      cache.keyStatements.set(statements, for: key)
      return statements
    }
  }
}
