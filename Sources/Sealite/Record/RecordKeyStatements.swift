import CSQLCipher

/// Where a record's primary key is among the columns it encodes, and the
/// statements that find its row by that key: the DELETE of `delete(db)` and
/// `Record.deleteOne(db, key:)`, the SELECT of `exists(db)` and
/// `Record.exists(db, key:)`, each made on first use. Kept per connection,
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
  /// The table and the WHERE clause on its key, for the statements made on
  /// first use: `"id"=?` for a record's own (GRDB's record SQL), `"id" = ?`
  /// for a key given as a value (GRDB's query interface SQL).
  private let table: String
  private let keyCondition: String
  /// What the subquery of `SELECT EXISTS (…)` selects: `1` for a record's
  /// own (GRDB's record SQL), `*` for a key given as a value (GRDB's request
  /// of `filter(key:)`).
  private let existsSelection: String
  // Unchecked exclusivity: one connection's state, used by one access at a
  // time (a dynamic check of each `kept(&…)` cost a delete 117 instructions).
  @exclusivity(unchecked) private var deleteStatement: Statement?
  @exclusivity(unchecked) private var existsStatement: Statement?

  /// Whether the key is the rowid (an `INTEGER PRIMARY KEY`, or the hidden
  /// rowid): a row looked up by it is one rowid of the table, for
  /// observation regions.
  private let keyIsRowID: Bool

  /// The statements of `table`, whose primary key is `primaryKey`, for
  /// values where `positions` says (see ``positions``).
  private init(table: String, primaryKey: RecordPrimaryKey, positions: [Int?], equality: String = "=") {
    self.table = table
    self.positions = positions
    keyIndexes = positions.contains(nil) ? nil : positions.compactMap { $0 }
    keyCondition = primaryKey.columns.map { "\($0.quotedDatabaseIdentifier)\(equality)?" }
      .joined(separator: " AND ")
    existsSelection = equality == "=" ? "1" : "*"
    keyIsRowID = primaryKey.rowIDColumn != nil || primaryKey.isHiddenRowID
  }

  /// The statements of the records of `table` that encode the columns of
  /// `container`.
  convenience init(
    table: String, primaryKey: RecordPrimaryKey, recordColumns container: borrowing PersistenceContainer
  ) {
    self.init(
      table: table, primaryKey: primaryKey, positions: primaryKey.columns.map { container.index(of: $0) })
  }

  /// The statements of `table` for a key given as one value
  /// (`deleteOne(db, key:)`): the key is the only value.
  convenience init(table: String, singleColumnKey primaryKey: RecordPrimaryKey) {
    self.init(table: table, primaryKey: primaryKey, positions: [0], equality: " = ")
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

  /// Whether a row has the key `value` (a key of one column), as a request
  /// of that row: a SELECT that reads one rowid when the key is the rowid.
  func rowExists(_ db: Database, key value: DatabaseValue) throws -> Bool {
    let statement = try exists(db)
    try statement.setArgument(value)
    var restriction: RowIDRestriction?
    if keyIsRowID, db.wantsRowIDRestrictions, case .int64(let rowID) = value.storage {
      restriction = RowIDRestriction(table: table, rowIDs: [rowID])
    }
    return try statement.withFirstStep(in: db, restriction: restriction) { sqlite3_column_int64($0, 0) != 0 }
      ?? false
  }

  /// Deletes the row whose key is `value` (a key of one column); returns
  /// whether there was one.
  func deleteRow(_ db: Database, key value: DatabaseValue) throws -> Bool {
    let statement = try delete(db)
    try statement.setArgument(value)
    try statement.execute()
    return db.changesCount > 0
  }

  /// `DELETE FROM table WHERE key = ?`, made on first use.
  func delete(_ db: Database) throws -> Statement {
    try kept(&deleteStatement, "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE \(keyCondition)", db)
  }

  /// `SELECT EXISTS (SELECT 1 FROM table WHERE key = ?)`, made on first
  /// use: one row, whose value answers, as GRDB asks it.
  func exists(_ db: Database) throws -> Statement {
    try kept(
      &existsStatement,
      "SELECT EXISTS (SELECT \(existsSelection) FROM \(table.quotedDatabaseIdentifier) WHERE \(keyCondition))",
      db)
  }

  /// The statement kept in `statement`, or one compiled from `sql`, kept there.
  private func kept(_ statement: inout Statement?, _ sql: @autoclosure () -> String, _ db: Database) throws
    -> Statement
  {
    if let statement { return statement }
    let made = try db.cachedStatement(sql: sql())
    statement = made
    return made
  }
}

/// Identifies a record's ``RecordKeyStatements``: its table and the columns
/// it encodes, in its order.
struct RecordColumnsKey: Hashable {
  let table: String
  let columns: [String]

  /// Whether this is the key of these parts, compared where they are (as
  /// RecordStatementKey's).
  @inline(__always)
  func isKey(_ table: String, _ columns: [String]) -> Bool {
    equalsBitsFirst(self.columns, columns) && self.table == table
  }

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
      if let statements = cache.keyStatements.lastHitValue(recognizing: { $0.isKey(table, container.columns) }
      ) {
        return statements
      }
      return try findRecordKeyStatements(table, container, cache)
    }
  }

  /// The key statements of other columns than the last ones looked up, out
  /// of line (see `findInsertStatement` in Persistence.swift).
  @inline(never)
  private func findRecordKeyStatements(
    _ table: String, _ container: borrowing PersistenceContainer, _ cache: RecordStatementCache
  ) throws -> RecordKeyStatements {
    try cache.keyStatements.value(
      recognizing: { $0.isKey(table, container.columns) },
      makeKey: { RecordColumnsKey(table: table, columns: container.columns) },
      orMake: {
        RecordKeyStatements(table: table, primaryKey: try recordPrimaryKey(table), recordColumns: container)
      })
  }

  /// The key statements of `table` for a key given as one value
  /// (`exists(db, key:)`, `deleteOne(db, key:)`), kept beside those of the
  /// records (their SQL is spaced as GRDB's query interface writes it);
  /// throws the misuse error of a composite primary key.
  func singleKeyStatements(_ table: String) throws -> RecordKeyStatements {
    let primaryKey = try recordPrimaryKey(table)
    let column = try primaryKey.singleColumn(of: table)
    return try withRecordStatements { cache in
      // The key column twice: no record's columns (a container names each
      // column once) are this key, so a record that encodes its key column
      // alone keeps its own statements, and the records' lookups pay for no
      // other check.
      let key = RecordColumnsKey(table: table, columns: [column, column])
      if let found = cache.keyStatements.value(for: key) { return found }
      let statements = RecordKeyStatements(table: table, singleColumnKey: primaryKey)
      cache.keyStatements.set(statements, for: key)
      return statements
    }
  }
}
