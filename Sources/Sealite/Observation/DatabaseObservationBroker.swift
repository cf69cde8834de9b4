import CSQLCipher
import Foundation

/// Tells a connection's transaction observers of changes, commits and
/// rollbacks. One per observed connection, installed as its statement
/// execution observer; SQLite's update, commit and rollback hooks are
/// installed only while observers exist.
///
/// Written tables come from the authorizer (see ``StatementAuthorization``),
/// which also defeats the truncate optimization for the tables whose
/// deletions are observed: rows of rowid tables are reported one by one by the
/// update hook. A `WITHOUT ROWID` table, which the hook never reports, is
/// announced with `databaseDidChange()` once the statement ran, if it changed
/// anything.
///
/// It is the statement-level part of observation; three parts it owns hold
/// the rest: the observers (``TransactionObserverRegistry``), the state of the
/// transaction (``TransactionTracker``: how the last statement ended it, the
/// open savepoints, the changed tables) and SQLite's hooks
/// (``ObservationHooks``).
///
/// Concurrency: every member runs on the connection's queue (statements,
/// SQLite's hooks inside `sqlite3_step`, `add`/`remove` from an access), so
/// the broker and its parts need no lock. The one thread-crossing fact, the
/// broker notifying on this thread, is thread-specific (``NotifyingBroker``).
final class DatabaseObservationBroker: StatementExecutionObserver, ConnectionState {
  /// The connection; unowned because it owns the broker.
  private unowned(unsafe) let database: Database
  /// Nil for a closed connection: the broker then installs no hook.
  private let connection: SQLiteConnection?
  private let registry = TransactionObserverRegistry()
  private var tracker = TransactionTracker()
  private var hooks: ObservationHooks

  /// The region read by the statements of the current recording, if any.
  var recordedRegion: DatabaseRegion?
  /// Actions run before a COMMIT statement of a transaction that changed
  /// tables (the change journal of other processes); given those tables.
  var commitPreparation: ((Database, Set<String>) throws -> Void)?

  private var currentExecution: StatementExecution?
  /// Whether each written table (by name key) has rowids, which the update
  /// hook reports; emptied when the schema changes.
  private var tableHasRowIDs: [String: Bool] = [:]

  /// The broker of `db`, made when something first observes the connection:
  /// it becomes the connection's execution observer.
  static func make(for db: Database) -> DatabaseObservationBroker {
    let broker = DatabaseObservationBroker(database: db, connection: db.sqliteConnection)
    db.executionObserver = broker
    return broker
  }

  func schemaDidChange() { tableHasRowIDs = [:] }

  init(database: Database, connection: SQLiteConnection?) {
    self.database = database
    self.connection = connection
    hooks = ObservationHooks(connection: connection)
  }

  deinit {
    hooks.uninstall()
  }

  /// Read-only accesses (a read-only connection, `PRAGMA query_only`) are not
  /// notified: no transaction observer hears of them.
  private var isReadOnly: Bool { database.isReadOnly }

  // MARK: - Observers

  func add(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
    registry.add(observer, extent: extent)
    updateHooks()
  }

  func remove(_ observer: any TransactionObserver) {
    registry.remove(observer)
    updateHooks()
  }

  var hasObservers: Bool { registry.hasObservers }

  func stopObservingChangesUntilNextTransaction(_ observer: any TransactionObserver) {
    registry.disable(observer)
  }

  func observesDeletions(on table: String) -> Bool {
    guard !isReadOnly else { return false }
    return registry.observes(.delete(tableName: table))
  }

  private func updateHooks() {
    hooks.update(needed: registry.hasObservers, broker: self)
  }

  // MARK: - Statements

  /// The facts about one run of a writing statement.
  final class StatementExecution {
    let statement: Statement
    /// The observers interested in the statement's changes.
    var observations: [StatementObservation] = []
    /// Tables (name keys) for which the update hook reported rows.
    var reportedTables: Set<String> = []
    let totalChangesBefore: CInt
    let previous: StatementExecution?
    /// True if the broker opened a transaction around this statement, to
    /// record its changed tables in the change journal before it commits.
    var isWrappedInTransaction = false

    init(statement: Statement, totalChangesBefore: CInt, previous: StatementExecution?) {
      self.statement = statement
      self.totalChangesBefore = totalChangesBefore
      self.previous = previous
    }
  }

  var recordsSelectedRegion: Bool { recordedRegion != nil }

  func recordTablesRead(_ tables: [String]) {
    guard recordedRegion != nil else { return }
    for table in tables { recordedRegion!.formUnion(DatabaseRegion(table: table)) }
  }

  func statementWillExecute(_ statement: Statement, restriction: RowIDRestriction?) throws -> AnyObject? {
    let authorization = statement.authorization
    if recordedRegion != nil {
      recordedRegion!.formUnion(statement.databaseRegion.restricted(by: restriction))
    }
    if let commitPreparation,
      tracker.commits(authorization, isInsideTransaction: database.isInsideTransaction)
    {
      try commitPreparation(database, Set(tracker.changedTables.values))
    }
    // The hooks tell how this statement ends the transaction, if it does.
    tracker.statementWillRun()
    guard !authorization.writes.isEmpty, let connection, !registry.isEmpty || commitPreparation != nil else {
      return nil
    }
    let execution = StatementExecution(
      statement: statement, totalChangesBefore: sqlite3_total_changes(connection), previous: currentExecution)
    if !isReadOnly {
      execution.observations = registry.observations(of: authorization.writes)
    }
    if execution.observations.isEmpty && commitPreparation == nil { return nil }
    if commitPreparation != nil, authorization.mayRunInTransaction, !database.isInsideTransaction {
      // A statement outside of a transaction commits on its own, where the
      // journal can not be written: give it a transaction of its own.
      try database.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
      execution.isWrappedInTransaction = true
    }
    currentExecution = execution
    return execution
  }

  func statementDidExecute(_ statement: Statement, context: AnyObject?) throws {
    if let execution = context as? StatementExecution {
      finish(execution)
      if execution.isWrappedInTransaction {
        do {
          try database.cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
          rollBackSilently()
          throw error
        }
      }
    }
    defer {
      // Without hooks (no observer), an autocommitted statement ends its
      // transaction unseen.
      tracker.forgetChangesOutsideOfTransaction(isInsideTransaction: database.isInsideTransaction)
    }
    let outcome = tracker.statementDidExecute(
      statement.authorization, isInsideTransaction: database.isInsideTransaction)
    if outcome.releasedLastSavepoint { deliverHeldChanges() }
    switch outcome.end {
    case .emptyCommit:
      // SQLite calls no commit hook for a transaction that wrote nothing
      // (`BEGIN; COMMIT`), but the code committed one: observers hear of it,
      // as of any other (and of changes told with `notifyChanges(in:)`).
      try commitEmptyTransaction()
    case .commit:
      didCommit()
    case .rollback:
      didRollback(notifyingObservers: !isReadOnly && !tracker.isRollingBackSilently)
    case .none:
      break
    }
  }

  func statementDidFail(_ statement: Statement, context: AnyObject?, error: DatabaseError) -> any Error {
    if let execution = context as? StatementExecution {
      finish(execution)
      if execution.isWrappedInTransaction { rollBackSilently() }
    }
    switch tracker.takeCompletion() {
    case .rollback:
      // The failed statement rolled back the transaction SQLite opened for it
      // (or an `OR ROLLBACK` conflict ended the user's): no transaction the
      // observers were told of ends here.
      didRollback(notifyingObservers: false)
    case .cancelledCommit(let observerError):
      // SQLite rolled the refused transaction back, but a refused RELEASE of
      // the savepoint that opened it leaves autocommit off, as if a
      // transaction were still open: end it, as after a refused COMMIT.
      rollBackSilently()
      didRollback(notifyingObservers: !isReadOnly)
      return observerError
    case .none, .commit:
      break
    }
    tracker.forgetChangesOutsideOfTransaction(isInsideTransaction: database.isInsideTransaction)
    return error
  }

  /// Rolls back, if a transaction is open, without telling observers.
  private func rollBackSilently() {
    guard database.isInsideTransaction else { return }
    let wasSilent = tracker.isRollingBackSilently
    tracker.isRollingBackSilently = true
    defer { tracker.isRollingBackSilently = wasSilent }
    try? database.rollback()
  }

  private func finish(_ execution: StatementExecution) {
    currentExecution = execution.previous
    // A dropped table lost its rows, though SQLite counts no change.
    let authorization = execution.statement.authorization
    let changed =
      connection.map { sqlite3_total_changes($0) } != execution.totalChangesBefore || authorization.dropsTable
    guard changed else { return }
    for write in authorization.writes {
      let key = write.tableName.nameKey
      if execution.reportedTables.contains(key) { continue }
      tracker.noteChange(of: write.tableName)
      // A table with rowids that the update hook did not report had no row
      // changed (a cascade that found nothing): only tables whose rows SQLite
      // can not report, and dropped tables, are announced as a whole.
      guard authorization.dropsTable || !hasRowIDs(write.tableName) else { continue }
      let interested = execution.observations.filter { $0.observesTable(key) }
      if !interested.isEmpty { tell(.table(write.tableName, interested)) }
    }
  }

  /// True if the table has rowids (it is no `WITHOUT ROWID` table, nor a
  /// virtual table), judged by whether SQLite compiles a query of its rowid.
  private func hasRowIDs(_ table: String) -> Bool {
    let key = table.nameKey
    if let known = tableHasRowIDs[key] { return known }
    guard let connection else { return false }
    var statement: SQLiteStatement?
    let code = sqlite3_prepare_v2(
      connection, "SELECT _rowid_ FROM \(table.quotedDatabaseIdentifier) LIMIT 0", -1, &statement, nil)
    sqlite3_finalize(statement)
    let result = code == SQLITE_OK
    tableHasRowIDs[key] = result
    return result
  }

  // MARK: - Changes

  /// Tells observers of a change, or holds it back while a savepoint is open.
  private func tell(_ change: SavepointStack.Change) {
    if tracker.savepoints.isEmpty {
      deliver(change)
    } else {
      tracker.savepoints.hold(change)
    }
  }

  private func deliver(_ change: SavepointStack.Change) {
    NotifyingBroker.with(self) {
      switch change {
      case .row(let event, let observations):
        // A change held back by a savepoint skips observers removed meanwhile.
        for observation in observations where observation.tracks(event) {
          let entry = observation.entry
          guard entry.isEnabled, registry.contains(entry) else { continue }
          entry.observer?.databaseDidChange(with: event)
        }
      case .table(_, let observations):
        for observation in observations {
          let entry = observation.entry
          guard entry.isEnabled, registry.contains(entry) else { continue }
          entry.observer?.databaseDidChange()
        }
      }
    }
  }

  /// Tells observers of every change held back (the transaction commits, or
  /// its last savepoint was released).
  private func deliverHeldChanges() {
    for change in tracker.savepoints.removeAll() { deliver(change) }
  }

  // MARK: - Hooks

  /// The update hook: a row of a rowid table changed.
  func rowDidChange(kind: CInt, schema: UnsafePointer<CChar>?, table: UnsafePointer<CChar>, rowID: Int64) {
    let tableName = String(cString: table)
    guard !StatementAuthorization.isInternal(tableName) else { return }
    tracker.noteChange(of: tableName)
    guard let execution = currentExecution else { return }
    execution.reportedTables.insert(tableName.nameKey)
    guard !execution.observations.isEmpty, let eventKind = DatabaseEvent.Kind(rawValue: kind) else { return }
    let event = DatabaseEvent(
      kind: eventKind, databaseName: schema.map { String(cString: $0) } ?? "main", tableName: tableName,
      rowID: rowID)
    tell(.row(event, execution.observations))
  }

  /// The commit hook: false refuses the commit (an observer threw).
  func transactionWillCommit() -> Bool {
    do {
      try willCommit()
      tracker.transactionWillCommit()
      return true
    } catch {
      tracker.transactionCommitWasRefused(error)
      return false
    }
  }

  /// The rollback hook.
  func transactionDidRollBack() {
    tracker.transactionDidRollBack()
  }

  // MARK: - Transaction ends

  /// Changes of savepoints still open commit too: observers hear of them
  /// first, then that the transaction is about to commit.
  private func willCommit() throws {
    deliverHeldChanges()
    guard !isReadOnly else { return }
    for (_, observer) in registry.liveEntries() {
      try observer.databaseWillCommit()
    }
  }

  private func commitEmptyTransaction() throws {
    do {
      try willCommit()
    } catch {
      didRollback(notifyingObservers: !isReadOnly)
      throw error
    }
    didCommit()
  }

  private func didCommit(notifyingObservers: Bool? = nil) {
    _ = tracker.savepoints.removeAll()
    if notifyingObservers ?? !isReadOnly {
      for observer in registry.takeObserversForTransactionEnd() { observer.databaseDidCommit(database) }
    }
    didEndTransaction()
  }

  private func didRollback(notifyingObservers: Bool) {
    _ = tracker.savepoints.removeAll()
    if notifyingObservers {
      for observer in registry.takeObserversForTransactionEnd() { observer.databaseDidRollback(database) }
    }
    didEndTransaction()
  }

  private func didEndTransaction() {
    tracker.transactionDidEnd()
    // A `.nextTransaction` observer told of the end was forgotten then; one
    // that was not told (a read-only or silent end) stays for the next one.
    registry.transactionDidEnd()
    updateHooks()
  }

  // MARK: - Explicit notifications

  /// Tells observers of changes SQLite can not see. Inside a transaction, they
  /// hear of the commit or rollback as usual; outside, the notification is a
  /// transaction of its own, committed at once. Read-only accesses tell
  /// nothing: no commit would follow.
  ///
  /// Observers are asked, as for a statement, whether they observe inserts,
  /// deletions and updates of every column of each table of the region; the
  /// tables and columns are those of the schema, so that a region naming a
  /// table that does not exist (`sqlite_temp_master` without a temp schema)
  /// tells nobody.
  func notifyChanges(in region: DatabaseRegion, tableNames: Set<String>?, external: Bool = false) {
    // Commits of other processes reach read-only connections too: their
    // observers are the ones that watch other processes.
    guard external || !isReadOnly else { return }
    let live = registry.liveEntries().filter { $0.0.isEnabled }
    guard !live.isEmpty else { return }
    var eventKinds: [DatabaseEventKind]?
    var interested: [any TransactionObserver] = []
    for (_, observer) in live {
      if let specific = observer as? any RegionTrackingObserver {
        if specific.isInterested(in: region) { interested.append(observer) }
        continue
      }
      if eventKinds == nil { eventKinds = self.eventKinds(of: region, tableNames: tableNames) }
      if eventKinds!.contains(where: { observer.observes(eventsOfKind: $0) }) { interested.append(observer) }
    }
    let tell = {
      for observer in interested {
        if external { (observer as? any RegionTrackingObserver)?.noteExternalChange() }
        observer.databaseDidChange()
      }
    }
    if database.isInsideTransaction {
      NotifyingBroker.with(self, tell)
      return
    }
    guard !interested.isEmpty else { return }
    NotifyingBroker.with(self, tell)
    for (_, observer) in live { try? observer.databaseWillCommit() }
    didCommit(notifyingObservers: true)
  }

  /// The kinds of change observers are asked about for a change in `region`
  /// (or in `tableNames`, when known): the schema's columns of its existing
  /// tables. Should the schema be unreadable, inserts and deletions of the
  /// named tables, or of every table.
  private func eventKinds(of region: DatabaseRegion, tableNames: Set<String>?) -> [DatabaseEventKind] {
    let region =
      tableNames.map { $0.reduce(into: DatabaseRegion()) { $0.formUnion(DatabaseRegion(table: $1)) } }
      ?? region
    if let kinds = try? region.existingTables(database).eventKinds(database) { return kinds }
    return (region.tableNames ?? []).flatMap {
      [DatabaseEventKind.insert(tableName: $0), .delete(tableName: $0)]
    }
  }

  /// Tells the observers that see other processes' commits that they no
  /// longer can, and why (the database was rekeyed by another process…).
  func notifyExternalWatchFailure(_ error: any Error) {
    for (_, observer) in registry.liveEntries() {
      (observer as? any RegionTrackingObserver)?.externalWatchDidFail(error)
    }
  }
}

/// An observer that knows its region, so that explicit and cross-process
/// notifications reach it exactly when they meet that region.
protocol RegionTrackingObserver: TransactionObserver {
  func isInterested(in region: DatabaseRegion) -> Bool
  /// The next `databaseDidChange()` reports a commit of another process.
  func noteExternalChange()
  /// Commits of other processes can no longer be seen: the observation ends with `error`.
  func externalWatchDidFail(_ error: any Error)
}
