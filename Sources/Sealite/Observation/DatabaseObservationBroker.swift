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
/// The state of the transaction is how the last statement ended it (a
/// ``PendingTransactionCompletion``, set by SQLite's hooks and acted upon once
/// the statement is over) and the open savepoints (a ``SavepointStack``, which
/// holds changes back until they can commit).
final class DatabaseObservationBroker: StatementExecutionObserver, ConnectionState {
  /// The connection; unowned because it owns the broker.
  private unowned(unsafe) let database: Database
  /// Nil for a closed connection: the broker then installs no hook.
  private let connection: SQLiteConnection?
  private var entries: [ObserverEntry] = []
  private var hooksInstalled = false

  /// The region read by the statements of the current recording, if any.
  var recordedRegion: DatabaseRegion?
  /// Actions run before a COMMIT statement of a transaction that changed
  /// tables (the change journal of other processes); given those tables.
  var commitPreparation: ((Database, Set<String>) throws -> Void)?
  /// Lowercased names of the tables changed by the current transaction.
  private(set) var changedTables: [String: String] = [:]

  private var currentExecution: StatementExecution?
  private var completion = PendingTransactionCompletion.none
  private var savepointStack = SavepointStack()
  /// True if the current transaction began with BEGIN (not with a savepoint).
  private var transactionBegunWithBegin = false
  /// True while the broker rolls back a transaction the user never saw (one
  /// it opened itself, or one a refused RELEASE left open): observers are not
  /// told of that rollback, or are told once, by the broker.
  private var isRollingBackSilently = false
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
  }

  deinit {
    uninstallHooks()
  }

  /// Read-only accesses (a read-only connection, `PRAGMA query_only`) are not
  /// notified: no transaction observer hears of them.
  private var isReadOnly: Bool { database.isReadOnly }

  // MARK: - Observers

  /// An observer, and how long the broker keeps it.
  final class ObserverEntry {
    weak var weakObserver: (any TransactionObserver)?
    var strongObserver: (any TransactionObserver)?
    let extent: TransactionObservationExtent
    /// False between `stopObservingDatabaseChangesUntilNextTransaction()`
    /// and the end of the transaction.
    var isEnabled = true

    init(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
      self.extent = extent
      if extent == .observerLifetime {
        weakObserver = observer
      } else {
        strongObserver = observer
      }
    }

    var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }

    /// The observer, forgotten first when it observes the next transaction
    /// only: nothing it does when told of the end reaches it again.
    func takeObserverForTransactionEnd() -> (any TransactionObserver)? {
      guard extent == .nextTransaction else { return observer }
      defer { strongObserver = nil }
      return strongObserver
    }
  }

  func add(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
    entries.append(ObserverEntry(observer, extent: extent))
    updateHooks()
  }

  func remove(_ observer: any TransactionObserver) {
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    updateHooks()
  }

  var hasObservers: Bool {
    entries.contains { $0.observer != nil }
  }

  func stopObservingChangesUntilNextTransaction(_ observer: any TransactionObserver) {
    for entry in entries where entry.observer === observer {
      entry.isEnabled = false
    }
  }

  private func liveEntries() -> [(ObserverEntry, any TransactionObserver)] {
    entries.compactMap { entry in entry.observer.map { (entry, $0) } }
  }

  func observesDeletions(on table: String) -> Bool {
    guard !isReadOnly else { return false }
    let kind = DatabaseEventKind.delete(tableName: table)
    return entries.contains { $0.observer?.observes(eventsOfKind: kind) ?? false }
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

  func statementWillExecute(_ statement: Statement, restriction: RowIDRestriction?) throws -> AnyObject? {
    let authorization = statement.authorization
    if recordedRegion != nil {
      recordedRegion!.formUnion(statement.databaseRegion.restricted(by: restriction))
    }
    if authorization.transactionEffect == .commit || authorization.transactionEffect == .releaseSavepoint {
      try prepareCommit(statement)
    }
    // The hooks tell how this statement ends the transaction, if it does.
    completion = .none
    guard !authorization.writes.isEmpty, let connection, !entries.isEmpty || commitPreparation != nil else {
      return nil
    }
    let execution = StatementExecution(
      statement: statement, totalChangesBefore: sqlite3_total_changes(connection), previous: currentExecution)
    if !isReadOnly {
      execution.observations = observations(of: authorization.writes)
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

  /// The observers interested in a statement that performs these writes. A
  /// statement that makes one kind of change (no trigger, no foreign key
  /// action) reports all its changes to the observers of that kind; otherwise
  /// each observer hears of the kinds it observes only.
  private func observations(of writes: [StatementAuthorization.StatementWrite]) -> [StatementObservation] {
    let kinds = writes.map(\.eventKind)
    return liveEntries().compactMap { entry, observer in
      guard entry.isEnabled else { return nil }
      if writes.count == 1 {
        guard observer.observes(eventsOfKind: kinds[0]) else { return nil }
        return StatementObservation(entry: entry, observedWrites: nil, advertisedWrites: writes)
      }
      let observed = zip(writes, kinds).filter { observer.observes(eventsOfKind: $0.1) }.map(\.0)
      guard !observed.isEmpty else { return nil }
      return StatementObservation(entry: entry, observedWrites: observed, advertisedWrites: writes)
    }
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
    let authorization = statement.authorization
    defer {
      // Without hooks (no observer), an autocommitted statement ends its
      // transaction unseen: its tables must not leak into the next one.
      if !changedTables.isEmpty && !database.isInsideTransaction { changedTables = [:] }
    }
    switch authorization.transactionEffect {
    case .begin:
      transactionBegunWithBegin = true
    case .commit:
      if case .none = completion {
        // SQLite calls no commit hook for a transaction that wrote nothing
        // (`BEGIN; COMMIT`), but the code committed one: observers hear of it,
        // as of any other (and of changes told with `notifyChanges(in:)`).
        return try commitEmptyTransaction()
      }
    case .savepoint:
      savepointStack.savepointDidBegin(authorization.savepointName)
    case .releaseSavepoint:
      savepointStack.savepointDidRelease(authorization.savepointName)
      if case .none = completion, !database.isInsideTransaction {
        // `SAVEPOINT x; RELEASE x` that wrote nothing: as `BEGIN; COMMIT`.
        return try commitEmptyTransaction()
      }
      if savepointStack.isEmpty { deliverHeldChanges() }
    case .rollbackToSavepoint:
      savepointStack.savepointDidRollBack(authorization.savepointName)
    case .rollback, nil:
      break
    }
    let completion = self.completion
    self.completion = .none
    switch completion {
    case .commit:
      didCommit()
    case .rollback:
      didRollback(notifyingObservers: !isReadOnly && !isRollingBackSilently)
    case .none, .cancelledCommit:
      break
    }
  }

  func statementDidFail(_ statement: Statement, context: AnyObject?, error: DatabaseError) -> any Error {
    if let execution = context as? StatementExecution {
      finish(execution)
      if execution.isWrappedInTransaction { rollBackSilently() }
    }
    let completion = self.completion
    self.completion = .none
    switch completion {
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
    if !changedTables.isEmpty && !database.isInsideTransaction { changedTables = [:] }
    return error
  }

  /// Rolls back, if a transaction is open, without telling observers.
  private func rollBackSilently() {
    guard database.isInsideTransaction else { return }
    let wasSilent = isRollingBackSilently
    isRollingBackSilently = true
    defer { isRollingBackSilently = wasSilent }
    try? database.rollback()
  }

  /// Runs the commit preparation (change journal) before the statement that
  /// ends a transaction that changed tables.
  private func prepareCommit(_ statement: Statement) throws {
    guard let commitPreparation, !changedTables.isEmpty, database.isInsideTransaction else { return }
    if statement.authorization.transactionEffect == .releaseSavepoint {
      // Only the release of the savepoint that opened the transaction commits.
      guard !transactionBegunWithBegin, savepointStack.isOutermost(statement.authorization.savepointName)
      else { return }
    }
    try commitPreparation(database, Set(changedTables.values))
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
      changedTables[key] = write.tableName
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
    if savepointStack.isEmpty {
      deliver(change)
    } else {
      savepointStack.hold(change)
    }
  }

  private func deliver(_ change: SavepointStack.Change) {
    withCurrentBroker {
      switch change {
      case .row(let event, let observations):
        // A change held back by a savepoint skips observers removed meanwhile.
        for observation in observations where observation.tracks(event) {
          let entry = observation.entry
          guard entry.isEnabled, isRegistered(entry) else { continue }
          entry.observer?.databaseDidChange(with: event)
        }
      case .table(_, let observations):
        for observation in observations {
          let entry = observation.entry
          guard entry.isEnabled, isRegistered(entry) else { continue }
          entry.observer?.databaseDidChange()
        }
      }
    }
  }

  private func isRegistered(_ entry: ObserverEntry) -> Bool {
    entries.contains { $0 === entry }
  }

  /// Tells observers of every change held back (the transaction commits, or
  /// its last savepoint was released).
  private func deliverHeldChanges() {
    for change in savepointStack.removeAll() { deliver(change) }
  }

  // MARK: - Hooks

  private func updateHooks() {
    let needed = hasObservers
    if needed && !hooksInstalled { installHooks() }
    if !needed && hooksInstalled { uninstallHooks() }
  }

  private func installHooks() {
    guard let connection else { return }
    hooksInstalled = true
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_update_hook(
      connection,
      { context, kind, _, table, rowID in
        guard let context, let table else { return }
        let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
        broker.rowDidChange(kind: kind, table: table, rowID: rowID)
      }, context)
    sqlite3_commit_hook(
      connection,
      { context in
        guard let context else { return 0 }
        let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
        return broker.transactionWillCommit() ? 0 : 1
      }, context)
    sqlite3_rollback_hook(
      connection,
      { context in
        guard let context else { return }
        let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context).takeUnretainedValue()
        broker.transactionDidRollBack()
      }, context)
  }

  private func uninstallHooks() {
    guard hooksInstalled, let connection else { return }
    hooksInstalled = false
    sqlite3_update_hook(connection, nil, nil)
    sqlite3_commit_hook(connection, nil, nil)
    sqlite3_rollback_hook(connection, nil, nil)
  }

  private func rowDidChange(kind: CInt, table: UnsafePointer<CChar>, rowID: Int64) {
    let tableName = String(cString: table)
    guard !StatementAuthorization.isInternal(tableName) else { return }
    let key = tableName.nameKey
    changedTables[key] = tableName
    guard let execution = currentExecution else { return }
    execution.reportedTables.insert(key)
    guard !execution.observations.isEmpty, let eventKind = DatabaseEvent.Kind(rawValue: kind) else { return }
    tell(.row(DatabaseEvent(kind: eventKind, tableName: tableName, rowID: rowID), execution.observations))
  }

  /// The commit hook: false refuses the commit (an observer threw).
  private func transactionWillCommit() -> Bool {
    do {
      try willCommit()
      completion = .commit
      return true
    } catch {
      completion = .cancelledCommit(error)
      return false
    }
  }

  /// The rollback hook. After a refused commit, the error stays the news.
  private func transactionDidRollBack() {
    if case .cancelledCommit = completion { return }
    completion = .rollback
  }

  /// Changes of savepoints still open commit too: observers hear of them
  /// first, then that the transaction is about to commit.
  private func willCommit() throws {
    deliverHeldChanges()
    guard !isReadOnly else { return }
    for (_, observer) in liveEntries() {
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
    _ = savepointStack.removeAll()
    if notifyingObservers ?? !isReadOnly {
      for entry in entries {
        entry.takeObserverForTransactionEnd()?.databaseDidCommit(database)
      }
    }
    didEndTransaction()
  }

  private func didRollback(notifyingObservers: Bool) {
    _ = savepointStack.removeAll()
    if notifyingObservers {
      for entry in entries {
        entry.takeObserverForTransactionEnd()?.databaseDidRollback(database)
      }
    }
    didEndTransaction()
  }

  /// Forgets observers that are gone (deallocated, or registered for one
  /// transaction), and enables the others again.
  private func didEndTransaction() {
    changedTables = [:]
    transactionBegunWithBegin = false
    // A `.nextTransaction` observer told of the end was forgotten then; one
    // that was not told (a read-only or silent end) stays for the next one.
    entries.removeAll { $0.observer == nil }
    for entry in entries { entry.isEnabled = true }
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
    let live = liveEntries().filter { $0.0.isEnabled }
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
      withCurrentBroker(tell)
      return
    }
    guard !interested.isEmpty else { return }
    withCurrentBroker(tell)
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
    for (_, observer) in liveEntries() {
      (observer as? any RegionTrackingObserver)?.externalWatchDidFail(error)
    }
  }

  // MARK: - Current broker

  /// The broker notifying observers on this thread, for
  /// `stopObservingDatabaseChangesUntilNextTransaction()`.
  static var current: DatabaseObservationBroker? {
    guard let pointer = pthread_getspecific(currentBrokerKey.key) else { return nil }
    return Unmanaged<DatabaseObservationBroker>.fromOpaque(pointer).takeUnretainedValue()
  }

  private func withCurrentBroker(_ body: () -> Void) {
    let previous = pthread_getspecific(currentBrokerKey.key)
    pthread_setspecific(currentBrokerKey.key, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(currentBrokerKey.key, previous) }
    body()
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

/// The thread-specific slot of the notifying broker.
private final class ThreadSpecificKey: Sendable {
  let key: pthread_key_t
  init() {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    self.key = key
  }
}

private let currentBrokerKey = ThreadSpecificKey()
