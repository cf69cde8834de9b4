/// The statements Record builds once per connection and keeps until the
/// schema changes: building the SQL of an INSERT, UPDATE, upsert or
/// primary-key lookup through the query interface costs more than running it,
/// and so do the schema queries behind them.
///
/// Unchecked exclusivity on the dictionaries: the cache belongs to one
/// connection, used by one access at a time, and a runtime check on each
/// record written would cost more than finding its statement.
final class RecordStatementCache: ConnectionState {
  /// INSERT statements by table, columns and conflict resolution, with the
  /// table's primary key.
  @exclusivity(unchecked) var insertStatements = LastHitDictionary<
    RecordStatementKey, RecordInsertStatement
  >()
  /// UPDATE statements by table, record columns, updated columns and
  /// conflict resolution.
  @exclusivity(unchecked) var updateStatements = LastHitDictionary<RecordUpdateKey, RecordUpdateStatement>()
  /// Upsert statements by table, record columns, conflict target, strategy
  /// and RETURNING clause.
  @exclusivity(unchecked) var upsertStatements = LastHitDictionary<RecordUpsertKey, RecordUpsertStatement>()
  /// Where the key is among a record's columns, and the DELETE and SELECT
  /// that find its row, by table and record columns.
  @exclusivity(unchecked) var keyStatements = LastHitDictionary<RecordColumnsKey, RecordKeyStatements>()
  /// The SQL of primary-key lookups by record type.
  @exclusivity(unchecked) var primaryKeyLookups = LastHitDictionary<ObjectIdentifier, PrimaryKeyLookupSQL>()
  /// The prepared lookup (a `PreparedPrimaryKeyLookup`) of the record type
  /// looked up last, and that type.
  @exclusivity(unchecked) var lastPrimaryKeyLookup: (recordType: ObjectIdentifier, prepared: AnyObject)?
  /// The names of each table's columns, as the schema spells them.
  @exclusivity(unchecked) var columnNames = LastHitDictionary<String, Set<String>>()
  /// Whether each table has triggers (RETURNING misses what they write).
  @exclusivity(unchecked) var hasTriggers = LastHitDictionary<String, Bool>()
  /// The RETURNING clause of the last selection rendered.
  @exclusivity(unchecked) private var lastReturning: RenderedSelection?
  /// The decoding of the last returned row (see `Database.decodeReturnedRow`),
  /// and of those before it, most recent first.
  @exclusivity(unchecked) var lastReturnedRowDecoding: ReturnedRowDecoding?
  @exclusivity(unchecked) var otherReturnedRowDecodings: [ReturnedRowDecoding] = []

  static func make(for db: Database) -> RecordStatementCache { RecordStatementCache() }

  func schemaDidChange() {
    insertStatements.removeAll()
    updateStatements.removeAll()
    upsertStatements.removeAll()
    keyStatements.removeAll()
    primaryKeyLookups.removeAll()
    lastPrimaryKeyLookup = nil
    columnNames.removeAll()
    hasTriggers.removeAll()
    lastReturning = nil
    lastReturnedRowDecoding = nil
    otherReturnedRowDecodings.removeAll()
  }

  /// The SQL of `selection` in a RETURNING clause of a write of `recordType`
  /// to its table, and the values it binds. The selection is rendered as one
  /// of the table's requests renders it (`.allColumns(excluding:)` names the
  /// table's other columns). A record type's `databaseSelection` is usually
  /// one constant array: the last one rendered is found again by its storage,
  /// which the cache keeps alive so that no other array can be given the same
  /// storage. A selection whose SQL depends on the table is not kept (another
  /// record type may give the same array), and the table's name is asked for
  /// only when the SQL is rendered: a name kept and compared at each call
  /// cost every `upsertAndFetch` two atomic operations.
  func returningClause(
    _ selection: [any SQLSelectable], of recordType: any TableRecord.Type, _ db: Database
  ) throws -> (sql: String, arguments: [DatabaseValue]) {
    if let lastReturning, lastReturning.renders(selection) {
      return (lastReturning.sql, lastReturning.arguments)
    }
    let table = recordType.databaseTableName
    let context = SQLGenerationContext(db: db)
    let alias = SQLTableAlias(tableName: table)
    context.register(alias, tableName: table)
    let selections = selection.map { $0.sqlSelection }
    let sql = try selections.map { try $0.qualified(with: alias).sql(context) }.joined(separator: ", ")
    let arguments = context.arguments?.values ?? []
    let dependsOnTable = selections.contains {
      if case .allColumnsExcluding = $0.impl { return true }
      return false
    }
    if !dependsOnTable {
      lastReturning = RenderedSelection(selection: selection, sql: sql, arguments: arguments)
    }
    return (sql, arguments)
  }
}

/// A selection and its SQL in a RETURNING clause.
private struct RenderedSelection {
  let selection: [any SQLSelectable]
  let sql: String
  let arguments: [DatabaseValue]

  /// True if `other` is the kept array itself (an array is a value: the same
  /// storage holds the same selectables, and Sealite's selectables, like
  /// GRDB's, are values too).
  func renders(_ other: [any SQLSelectable]) -> Bool {
    selection.withUnsafeBufferPointer { kept in
      other.withUnsafeBufferPointer { other in
        kept.count == other.count && kept.baseAddress == other.baseAddress
      }
    }
  }
}

/// Identifies a record INSERT statement.
struct RecordStatementKey: Hashable {
  let table: String
  let columns: [String]
  /// The conflict resolution, then the RETURNING clause, if any
  /// (`insertAndFetch`): the SQL that follows the columns. One string, so
  /// that the key of a plain insert, looked up for every record, stays five
  /// words, compared inline.
  let clauses: String

  /// Whether this is the key of these parts, compared where they are: the
  /// columns first, which a record type's encoder shares from one record to
  /// the next, found equal by storage.
  @inline(__always)
  func isKey(_ table: String, _ columns: [String], _ clauses: String) -> Bool {
    equalsBitsFirst(self.columns, columns) && self.table == table
      && self.clauses == clauses
  }

  // Looked up once per inserted record: the hash reads the table name and
  // the number of columns, not every column name. Keys that differ in their
  // names only are told apart by equality, which compares the names a loop of
  // one record type spells identically (equal small strings compare as words).
  func hash(into hasher: inout Hasher) {
    hasher.combine(table)
    hasher.combine(columns.count)
    hasher.combine(clauses)
  }
}

// The cached statements below are objects, not structs: a lookup then
// retains one reference, where a struct of several would retain each of
// them (atomic operations, on every record written).

/// An INSERT of a record's columns, in its order (and its RETURNING clause,
/// whose values are bound after the record's).
final class RecordInsertStatement {
  let statement: Statement
  let primaryKey: RecordPrimaryKey
  /// Where the record's values hold the rowid column's (the columns are
  /// part of the statement's key), if the record encodes it: the insert
  /// writes the rowid there without searching the columns.
  let rowIDValueIndex: Int?

  init(statement: Statement, primaryKey: RecordPrimaryKey, columns: [String]) {
    self.statement = statement
    self.primaryKey = primaryKey
    rowIDValueIndex = primaryKey.rowIDColumn.flatMap { rowIDColumn in
      columns.firstIndex { $0.sameName(as: rowIDColumn) }
    }
  }
}

/// Identifies a record UPDATE statement.
struct RecordUpdateKey: Hashable {
  let table: String
  /// The columns the record encodes, in its order.
  let recordColumns: [String]
  /// The columns to update. `update(db)` passes the cached set of the
  /// table's columns, which compares equal by identity at once.
  let columns: Set<String>
  /// The conflict resolution, then the RETURNING clause, if any (as
  /// RecordStatementKey's).
  let clauses: String

  /// Whether this is the key of these parts, compared where they are (as
  /// RecordStatementKey's; the set of a table's columns is the cached one,
  /// found equal by storage).
  @inline(__always)
  func isKey(_ table: String, _ recordColumns: [String], _ columns: Set<String>, _ clauses: String) -> Bool {
    equalsBitsFirst(self.recordColumns, recordColumns)
      && equalsBitsFirst(self.columns, columns) && self.table == table
      && self.clauses == clauses
  }

  // As RecordStatementKey: counts, not names, in the hash.
  func hash(into hasher: inout Hasher) {
    hasher.combine(table)
    hasher.combine(recordColumns.count)
    hasher.combine(columns.count)
    hasher.combine(clauses)
  }
}

/// An UPDATE of a record's row, with where each parameter's value is in the
/// record's persistence container.
final class RecordUpdateStatement {
  let statement: Statement
  /// For each parameter, in order (the SET values, then the key's), the
  /// index of its value in the container; nil when the record does not
  /// encode a column of the key: no row can match it.
  let valueIndexes: [Int]?
  /// How many of the last parameters are the primary key's.
  let keyCount: Int

  init(statement: Statement, valueIndexes: [Int]?, keyCount: Int) {
    self.statement = statement
    self.valueIndexes = valueIndexes
    self.keyCount = keyCount
  }

  /// Where the values to bind are in `container`, or nil when the record's
  /// key is incomplete (a key column missing or NULL): no row can match it.
  func valueIndexes(in container: PersistenceContainer) -> [Int]? {
    hasCompleteKey(in: container) ? valueIndexes : nil
  }

  /// Whether `container` has a value that is not NULL for each column of the
  /// key: false when the record does not encode one of them.
  func hasCompleteKey(in container: borrowing PersistenceContainer) -> Bool {
    guard let valueIndexes else { return false }
    // By position, not through `suffix`: a slice would retain the array.
    for position in (valueIndexes.count - keyCount)..<valueIndexes.count
    where container.values[valueIndexes[position]].isNull {
      return false
    }
    return true
  }
}

/// Identifies an upsert statement.
struct RecordUpsertKey: Hashable {
  let table: String
  let columns: [String]
  let conflictTarget: [String]
  let strategy: UpsertUpdateStrategy
  /// The RETURNING clause's selection, as SQL ("" for none).
  let returning: String

  func hash(into hasher: inout Hasher) {
    hasher.combine(table)
    hasher.combine(columns.count)
    hasher.combine(conflictTarget.count)
    hasher.combine(strategy)
    hasher.combine(returning)
  }
}

/// An `INSERT … ON CONFLICT … DO UPDATE … RETURNING` statement: its
/// parameters are the record's values, in its order, then the values of the
/// assignments and of the RETURNING clause.
final class RecordUpsertStatement {
  let statement: Statement
  let primaryKey: RecordPrimaryKey
  /// Whether RETURNING ends with the rowid (not for WITHOUT ROWID tables):
  /// the returned rows are then read without their last column
  /// (``Statement/withFirstRowWithoutLastColumn(in:_:)``).
  let returnsRowID: Bool

  init(statement: Statement, primaryKey: RecordPrimaryKey, returnsRowID: Bool) {
    self.statement = statement
    self.primaryKey = primaryKey
    self.returnsRowID = returnsRowID
  }
}

extension Database {
  /// Calls `body` with the connection's record statements, valid for the
  /// schema of this access: another connection may have changed the schema
  /// since the last one, and a cached statement looked up before the first
  /// statement runs would otherwise carry facts of the old schema (a trigger
  /// unseen, another primary key). Borrowed for `body`, not retained (see
  /// ``withState(for:_:)``): every record written or looked up asks for it.
  @inline(__always)
  func withRecordStatements<Result>(_ body: (RecordStatementCache) throws -> Result) rethrows -> Result {
    validateSchemaFacts()
    return try withState(for: RecordStatementCache.self, body)
  }

  /// The names of the table's columns, as the schema spells them, read once
  /// per connection until the schema changes.
  func recordColumnNames(_ tableName: String) throws -> Set<String> {
    try withRecordStatements { cache in
      if let names = cache.columnNames.value(for: tableName) { return names }
      let names = Set(try columns(in: tableName).map { $0.name })
      cache.columnNames.set(names, for: tableName)
      return names
    }
  }

  /// Whether the table has triggers, read once per connection until the
  /// schema changes.
  func recordTableHasTriggers(_ tableName: String) throws -> Bool {
    try withRecordStatements { cache in
      if let hasTriggers = cache.hasTriggers.value(for: tableName) { return hasTriggers }
      let hasTriggers = try tableHasTriggers(tableName)
      cache.hasTriggers.set(hasTriggers, for: tableName)
      return hasTriggers
    }
  }

  /// Whether `…AndFetch` methods can trust RETURNING for this table.
  func canUseReturning(forTable tableName: String) throws -> Bool {
    try SQLiteFeatures.linked.supports(.returning) && !recordTableHasTriggers(tableName)
  }
}
