import CSQLCipher

/// What SQLite's authorizer reported while a statement compiled: the tables
/// and columns it reads, the tables it writes (including writes made by
/// triggers and foreign key actions, and `WITHOUT ROWID` tables, which the
/// update hook never reports), and its effect on the transaction. The
/// observation layer builds database regions and change notifications from it,
/// and Core learns from it every other fact about a statement (whether it
/// changes the schema, may run in a transaction, writes content): one source,
/// read by SQLite itself, that comments, `WITH` clauses or odd spellings can
/// not fool.
struct StatementAuthorization {
  /// Read columns by table name key; an empty column name stands for
  /// the whole table (`SELECT COUNT(*) FROM t` reads no named column).
  var reads: [String: Set<String>] = [:]
  /// Written tables, in the order SQLite reported them.
  var writes: [StatementWrite] = []
  /// What the statement does to the transaction, if anything.
  var transactionEffect: TransactionEffect?
  /// The savepoint a `SAVEPOINT`, `RELEASE` or `ROLLBACK TO` statement names.
  var savepointName: String?
  /// True for `DROP TABLE`, which deletes rows without counting them as changes.
  var dropsTable = false
  /// True if the statement selects (a SELECT statement, or a subquery).
  var selects = false
  /// True if the statement reads one of SQLite's own tables (`sqlite_master`…).
  var readsInternalTable = false
  /// True if the statement calls `COUNT`.
  var counts = false
  /// True if running the statement changes the schema (CREATE, DROP, ALTER,
  /// ATTACH, DETACH): cached statements and schema introspection are stale
  /// afterwards.
  var invalidatesSchema = false
  /// True for ATTACH and DETACH, which change the schema without writing, and
  /// may not run inside a transaction.
  var attachesOrDetaches = false
  /// True for a PRAGMA statement (some may not run inside a transaction).
  var isPragma = false
  /// True for `PRAGMA query_only`, which turns writes off or on.
  var isQueryOnlyPragma = false
  /// True for VACUUM, of which SQLite's authorizer says nothing: set from the
  /// statement's first token (see ``SQLTokenizer/firstWordIs(_:in:)``).
  var isVacuum = false
  /// True once the statement was seen dropping something: the deletions from
  /// `sqlite_master` that follow are part of the drop.
  private var isDropStatement = false

  /// True if the statement writes rows or schema (not pragmas, transaction
  /// control, ATTACH, DETACH or VACUUM).
  var writesContent: Bool { !writes.isEmpty || (invalidatesSchema && !attachesOrDetaches) }

  /// True if the statement may run inside a transaction: VACUUM, ATTACH,
  /// DETACH, some pragmas, and transaction control may not.
  var mayRunInTransaction: Bool {
    transactionEffect == nil && !isVacuum && !attachesOrDetaches && !isPragma
  }

  /// True if the statement may delete rows (its truncate optimization depends
  /// on the observers of the connection when it compiles).
  var canDeleteRows: Bool { writes.contains { $0.kind == .delete } }

  /// True when the reported reads may miss tables: before SQLite 3.19.0, the
  /// authorizer does not report a table none of whose columns is used
  /// (`SELECT COUNT(*) FROM t`, `SELECT 1 FROM t`), so a statement that counts,
  /// or selects without reading any column, may read any table.
  var mayReadUnreportedTables: Bool {
    guard !StatementAuthorization.reportsTablesWithoutColumns else { return false }
    return counts || (selects && reads.isEmpty && !readsInternalTable)
  }

  /// SQLite 3.19.0 reports tables read without columns with an empty column name.
  static let reportsTablesWithoutColumns = SQLiteFeatures.linked.supports(
    .authorizerReportsTablesReadWithoutColumns)

  /// A write the statement may perform.
  struct StatementWrite: Hashable {
    enum Kind: Hashable { case insert, update, delete }
    var kind: Kind
    /// The table name as SQLite reported it.
    var tableName: String
    /// Updated columns, by name key (empty for inserts and deletes).
    var columnNames: Set<String>
  }

  /// Statements that begin or end a transaction or a savepoint.
  enum TransactionEffect: Equatable {
    case begin, commit, rollback
    case savepoint, releaseSavepoint, rollbackToSavepoint
  }

  /// Records one authorizer callback, and returns the authorizer's answer:
  /// `SQLITE_IGNORE` for a deletion of rows that transaction observers watch,
  /// which defeats SQLite's truncate optimization so that every deleted row is
  /// reported (the deletion proceeds all the same), `SQLITE_OK` otherwise.
  mutating func record(
    action: CInt, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    observesDeletions: (String) -> Bool
  ) -> CInt {
    switch action {
    case SQLITE_READ:
      guard let first else { return SQLITE_OK }
      let table = String(cString: first)
      guard !StatementAuthorization.isInternal(table) else {
        readsInternalTable = true
        return SQLITE_OK
      }
      let column = second.map { String(cString: $0).nameKey } ?? ""
      reads[table.nameKey, default: []].insert(column)
    case SQLITE_INSERT, SQLITE_DELETE, SQLITE_UPDATE:
      guard let first else { return SQLITE_OK }
      let table = String(cString: first)
      guard !StatementAuthorization.isInternal(table) else { return SQLITE_OK }
      // A dropped table's rows go with it: counted as one deletion, below.
      if action == SQLITE_DELETE && isDropStatement { return SQLITE_OK }
      let kind: StatementWrite.Kind =
        action == SQLITE_INSERT ? .insert : action == SQLITE_DELETE ? .delete : .update
      let column = action == SQLITE_UPDATE ? second.map { String(cString: $0).nameKey } : nil
      if let index = writes.firstIndex(where: {
        $0.kind == kind && $0.tableName.sameName(as: table)
      }) {
        if let column { writes[index].columnNames.insert(column) }
      } else {
        writes.append(StatementWrite(kind: kind, tableName: table, columnNames: column.map { [$0] } ?? []))
      }
      if action == SQLITE_DELETE && observesDeletions(table) { return SQLITE_IGNORE }
    case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE:
      isDropStatement = true
      invalidatesSchema = true
      // Dropping a table deletes its rows: observers of the table are told.
      guard let first else { return SQLITE_OK }
      let table = String(cString: first)
      guard !StatementAuthorization.isInternal(table) else { return SQLITE_OK }
      dropsTable = true
      writes.append(StatementWrite(kind: .delete, tableName: table, columnNames: []))
    case SQLITE_DROP_VTABLE, SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_VIEW,
      SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER:
      isDropStatement = true
      invalidatesSchema = true
    case SQLITE_ATTACH, SQLITE_DETACH:
      attachesOrDetaches = true
      invalidatesSchema = true
    case SQLITE_ALTER_TABLE, SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX,
      SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER,
      SQLITE_CREATE_VIEW, SQLITE_CREATE_VTABLE:
      invalidatesSchema = true
    case SQLITE_SELECT:
      selects = true
    case SQLITE_FUNCTION:
      guard let second else { return SQLITE_OK }
      let name = String(cString: second).nameKey
      if name == "count" { counts = true }
      // Before SQLite 3.38, `ALTER TABLE … DROP COLUMN` reports no
      // SQLITE_ALTER_TABLE, only a call of this internal function.
      if name == "sqlite_drop_column" { invalidatesSchema = true }
    case SQLITE_PRAGMA:
      isPragma = true
      if let first, String(cString: first).nameKey == "query_only" { isQueryOnlyPragma = true }
    case SQLITE_TRANSACTION:
      switch first.map({ String(cString: $0).uppercased() }) {
      case "BEGIN": transactionEffect = .begin
      case "COMMIT": transactionEffect = .commit
      case "ROLLBACK": transactionEffect = .rollback
      default: break
      }
    case SQLITE_SAVEPOINT:
      savepointName = second.map { String(cString: $0) }
      switch first.map({ String(cString: $0).uppercased() }) {
      case "BEGIN": transactionEffect = .savepoint
      case "RELEASE": transactionEffect = .releaseSavepoint
      case "ROLLBACK": transactionEffect = .rollbackToSavepoint
      default: break
      }
    default:
      break
    }
    return SQLITE_OK
  }

  /// SQLite's own tables (`sqlite_master`, `sqlite_sequence`, …) are not observed.
  static func isInternal(_ table: String) -> Bool {
    table.utf8.count >= 7 && table.nameKey.hasPrefix("sqlite_")
  }
}

/// Collects authorizer callbacks for the statement being compiled. Owned by its
/// connection, which gives SQLite an unretained pointer to it.
final class AuthorizationRecorder {
  var current = StatementAuthorization()
  /// Asked whether deletions from a table are observed, while statements
  /// compile (the observation layer; weak, since the connection owns it).
  weak var executionObserver: (any StatementExecutionObserver)?

  /// Installs the authorizer on `connection`. The recorder must outlive it.
  func install(on connection: SQLiteConnection) {
    sqlite3_set_authorizer(
      connection,
      { context, action, first, second, _, _ in
        guard let context else { return SQLITE_OK }
        let recorder = Unmanaged<AuthorizationRecorder>.fromOpaque(context).takeUnretainedValue()
        let observer = recorder.executionObserver
        return recorder.current.record(action: action, first, second) { table in
          observer?.observesDeletions(on: table) ?? false
        }
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Returns what was recorded since the last call, and starts afresh.
  /// `sql` is the text of the compiled statement: VACUUM is read from it.
  func take(sql: UnsafePointer<CChar>?) -> StatementAuthorization {
    defer { current = StatementAuthorization() }
    if let sql, !current.selects, current.writes.isEmpty, current.transactionEffect == nil {
      current.isVacuum = SQLTokenizer.firstWordIs("VACUUM", in: sql)
    }
    return current
  }

  /// Forgets what was recorded (before compiling a new statement).
  func reset() {
    current = StatementAuthorization()
  }
}
