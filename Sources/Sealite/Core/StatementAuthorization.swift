import CSQLCipher

/// What SQLite's authorizer reported while a statement compiled: the tables
/// and columns it reads, the tables it writes (including writes made by
/// triggers and foreign key actions, and `WITHOUT ROWID` tables, which the
/// update hook never reports), and its effect on the transaction. The
/// observation layer builds database regions and change notifications from it.
struct StatementAuthorization {
  /// Read columns by lowercased table name; an empty column name stands for
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

  /// True when the reported reads may miss tables: before SQLite 3.19.0, the
  /// authorizer does not report a table none of whose columns is used
  /// (`SELECT COUNT(*) FROM t`, `SELECT 1 FROM t`), so a statement that counts,
  /// or selects without reading any column, may read any table.
  var mayReadUnreportedTables: Bool {
    guard !StatementAuthorization.reportsTablesWithoutColumns else { return false }
    return counts || (selects && reads.isEmpty && !readsInternalTable)
  }

  /// SQLite 3.19.0 reports tables read without columns with an empty column name.
  static let reportsTablesWithoutColumns = sqlite3_libversion_number() >= 3_019_000

  /// A write the statement may perform.
  struct StatementWrite: Hashable {
    enum Kind: Hashable { case insert, update, delete }
    var kind: Kind
    /// The table name as SQLite reported it.
    var tableName: String
    /// Updated columns, lowercased (empty for inserts and deletes).
    var columnNames: Set<String>
  }

  /// Statements that begin or end a transaction or a savepoint.
  enum TransactionEffect: Equatable {
    case begin, commit, rollback
    case savepoint, releaseSavepoint, rollbackToSavepoint
  }

  /// Records one authorizer callback.
  mutating func record(action: CInt, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) {
    switch action {
    case SQLITE_READ:
      guard let first else { return }
      let table = String(cString: first)
      guard !StatementAuthorization.isInternal(table) else {
        readsInternalTable = true
        return
      }
      let column = second.map { String(cString: $0).lowercased() } ?? ""
      reads[table.lowercased(), default: []].insert(column)
    case SQLITE_INSERT, SQLITE_DELETE, SQLITE_UPDATE:
      guard let first else { return }
      let table = String(cString: first)
      guard !StatementAuthorization.isInternal(table) else { return }
      let kind: StatementWrite.Kind =
        action == SQLITE_INSERT ? .insert : action == SQLITE_DELETE ? .delete : .update
      let column = action == SQLITE_UPDATE ? second.map { String(cString: $0).lowercased() } : nil
      if let index = writes.firstIndex(where: {
        $0.kind == kind && $0.tableName.caseInsensitiveCompare(table) == .orderedSame
      }) {
        if let column { writes[index].columnNames.insert(column) }
      } else {
        writes.append(StatementWrite(kind: kind, tableName: table, columnNames: column.map { [$0] } ?? []))
      }
    case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE:
      // Dropping a table deletes its rows: observers of the table are told.
      guard let first else { return }
      let table = String(cString: first)
      guard !StatementAuthorization.isInternal(table) else { return }
      dropsTable = true
      writes.append(StatementWrite(kind: .delete, tableName: table, columnNames: []))
    case SQLITE_SELECT:
      selects = true
    case SQLITE_FUNCTION:
      if let second, String(cString: second).lowercased() == "count" { counts = true }
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
  }

  /// SQLite's own tables (`sqlite_master`, `sqlite_sequence`, …) are not observed.
  static func isInternal(_ table: String) -> Bool {
    table.utf8.count >= 7 && table.lowercased().hasPrefix("sqlite_")
  }
}

/// Collects authorizer callbacks for the statement being compiled. Owned by its
/// connection, which gives SQLite an unretained pointer to it.
final class AuthorizationRecorder {
  var current = StatementAuthorization()

  /// Installs the authorizer on `connection`. The recorder must outlive it.
  func install(on connection: SQLiteConnection) {
    sqlite3_set_authorizer(
      connection,
      { context, action, first, second, _, _ in
        guard let context else { return SQLITE_OK }
        let recorder = Unmanaged<AuthorizationRecorder>.fromOpaque(context).takeUnretainedValue()
        recorder.current.record(action: action, first, second)
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Returns what was recorded since the last call, and starts afresh.
  func take() -> StatementAuthorization {
    defer { current = StatementAuthorization() }
    return current
  }

  /// Forgets what was recorded (before compiling a new statement).
  func reset() {
    current = StatementAuthorization()
  }
}
