import CSQLCipher
import Foundation

/// Tells a connection's transaction observers of changes, commits and
/// rollbacks. One per observed connection, installed as its statement
/// execution observer; SQLite's update, commit and rollback hooks are
/// installed only while observers exist.
///
/// Written tables come from the authorizer (see ``StatementAuthorization``):
/// rows of rowid tables are reported one by one by the update hook; a written
/// table that the hook did not report (`WITHOUT ROWID` tables, the truncate
/// optimization) is announced with `databaseDidChange()` once the statement
/// ran, if it changed anything.
///
/// Changes made inside a savepoint are held back until the savepoint is
/// released, and forgotten if it is rolled back: observers only hear of
/// changes that can still commit.
final class DatabaseObservationBroker: StatementExecutionObserver {
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
  private var commitIsPending = false
  private var rollbackIsPending = false
  private var willCommitError: (any Error)?
  /// True once observers heard `databaseWillCommit` in this transaction.
  private var willCommitWasSent = false
  /// True if `notifyChanges(in:)` told observers of changes in this transaction.
  private var hasNotifiedChanges = false

  init(database: Database, connection: SQLiteConnection?) {
    self.database = database
    self.connection = connection
  }

  deinit {
    uninstallHooks()
  }

  // MARK: - Observers

  final class ObserverEntry {
    weak var weakObserver: (any TransactionObserver)?
    var strongObserver: (any TransactionObserver)?
    let extent: TransactionObservationExtent
    var isStoppedUntilNextTransaction = false

    init(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
      self.extent = extent
      if extent == .observerLifetime {
        weakObserver = observer
      } else {
        strongObserver = observer
      }
    }

    var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }
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
      entry.isStoppedUntilNextTransaction = true
    }
  }

  private func liveEntries() -> [(ObserverEntry, any TransactionObserver)] {
    entries.compactMap { entry in entry.observer.map { (entry, $0) } }
  }

  // MARK: - Statements

  /// The facts about one run of a writing statement.
  final class StatementExecution {
    let statement: Statement
    /// Observers interested in each written table (lowercased name).
    var observersByTable: [String: [ObserverEntry]] = [:]
    /// Tables for which the update hook reported rows.
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

  func statementWillExecute(_ statement: Statement) throws -> AnyObject? {
    let authorization = statement.authorization
    if recordedRegion != nil {
      recordedRegion!.formUnion(statement.databaseRegion)
    }
    if authorization.transactionEffect == .commit || authorization.transactionEffect == .releaseSavepoint {
      try prepareCommit(statement)
    }
    guard !authorization.writes.isEmpty, let connection, !entries.isEmpty || commitPreparation != nil else {
      return nil
    }
    let execution = StatementExecution(
      statement: statement, totalChangesBefore: sqlite3_total_changes(connection), previous: currentExecution)
    let live = liveEntries()
    for write in authorization.writes {
      let kind = write.eventKind
      let key = write.tableName.lowercased()
      for (entry, observer) in live where !entry.isStoppedUntilNextTransaction {
        if observer.observes(eventsOfKind: kind),
          !(execution.observersByTable[key]?.contains { $0 === entry } ?? false)
        {
          execution.observersByTable[key, default: []].append(entry)
        }
      }
    }
    if execution.observersByTable.isEmpty && commitPreparation == nil { return nil }
    if commitPreparation != nil, authorization.transactionEffect == nil, !database.isInsideTransaction,
      Self.canRunInTransaction(statement)
    {
      // A statement outside of a transaction commits on its own, where the
      // journal can not be written: give it a transaction of its own.
      try database.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
      execution.isWrappedInTransaction = true
    }
    currentExecution = execution
    return execution
  }

  /// Data statements and schema changes run in a transaction; VACUUM,
  /// PRAGMA, ATTACH and DETACH may not.
  private static func canRunInTransaction(_ statement: Statement) -> Bool {
    let keyword = statement.sql.drop { !$0.isLetter }.prefix { $0.isLetter }.uppercased()
    return ["INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "CREATE", "DROP", "ALTER"].contains(keyword)
  }

  func statementDidExecute(_ statement: Statement, context: AnyObject?) throws {
    if let execution = context as? StatementExecution {
      finish(execution)
      if execution.isWrappedInTransaction {
        do {
          try database.cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
          try? database.rollback()
          throw error
        }
      }
    }
    noteSavepoint(of: statement)
    noteTransactionEnd(of: statement)
    deliverTransactionEnd()
    forgetSavepointsOutsideOfTransaction()
    // Without hooks (no observer), an autocommitted statement ends its
    // transaction unseen: its tables must not leak into the next one.
    if !changedTables.isEmpty && !database.isInsideTransaction { changedTables = [:] }
  }

  func statementDidFail(_ statement: Statement, context: AnyObject?, error: DatabaseError) -> any Error {
    if let execution = context as? StatementExecution {
      finish(execution)
      if execution.isWrappedInTransaction { try? database.rollback() }
    }
    let observerError = willCommitError
    willCommitError = nil
    if observerError != nil && database.isInsideTransaction {
      // SQLite rolled the refused transaction back, but a refused RELEASE of
      // the savepoint that opened it leaves autocommit off, as if a transaction
      // were still open: end it, as after a refused COMMIT. The rollback is
      // reported once, by the ROLLBACK statement.
      try? database.rollback()
    }
    deliverTransactionEnd()
    forgetSavepointsOutsideOfTransaction()
    return observerError ?? error
  }

  /// Runs the commit preparation (change journal) before a COMMIT, and tells
  /// observers the commit is coming when only `notifyChanges(in:)` changed
  /// anything (SQLite calls no commit hook for a transaction that wrote nothing).
  private func prepareCommit(_ statement: Statement) throws {
    guard database.isInsideTransaction else { return }
    if statement.authorization.transactionEffect == .releaseSavepoint, !isOutermostSavepointRelease(statement)
    {
      return
    }
    if let commitPreparation, !changedTables.isEmpty {
      try commitPreparation(database, Set(changedTables.values))
    }
    if hasNotifiedChanges && !willCommitWasSent {
      deliverHeldBackChanges()
      try sendWillCommit()
    }
  }

  /// True if releasing this savepoint ends the transaction: Sealite's own
  /// savepoints always run inside a transaction, so only a savepoint that
  /// opened the transaction qualifies, which SQL alone can not tell; this
  /// assumes so when no BEGIN was seen, unless the savepoint is nested in
  /// another one this broker saw open.
  private func isOutermostSavepointRelease(_ statement: Statement) -> Bool {
    !transactionBegunWithBegin && (savepointIndex(statement.authorization.savepointName) ?? 0) == 0
  }

  private var transactionBegunWithBegin = false

  private func noteTransactionEnd(of statement: Statement) {
    switch statement.authorization.transactionEffect {
    case .begin:
      transactionBegunWithBegin = true
    case .commit, .releaseSavepoint:
      if !database.isInsideTransaction && hasNotifiedChanges && !commitIsPending {
        commitIsPending = true
      }
    case .rollback:
      if !database.isInsideTransaction && hasNotifiedChanges { rollbackIsPending = true }
    default:
      break
    }
  }

  private func finish(_ execution: StatementExecution) {
    currentExecution = execution.previous
    // A dropped table lost its rows, though SQLite counts no change.
    let changed =
      connection.map { sqlite3_total_changes($0) } != execution.totalChangesBefore
      || execution.statement.authorization.dropsTable
    guard changed || !execution.reportedTables.isEmpty else { return }
    for write in execution.statement.authorization.writes {
      let key = write.tableName.lowercased()
      if execution.reportedTables.contains(key) { continue }
      // Rows SQLite did not report one by one: `WITHOUT ROWID` tables, the
      // truncate optimization.
      changedTables[key] = write.tableName
      if let interested = execution.observersByTable[key] { tell(.table(interested)) }
    }
  }

  // MARK: - Savepoints

  /// A change, and the observers that asked for it.
  private enum Change {
    /// A row reported by the update hook.
    case row(DatabaseEvent, [ObserverEntry])
    /// A table changed without rows being reported.
    case table([ObserverEntry])
  }

  /// An open savepoint, and the changes made since it began.
  private struct Savepoint {
    /// Lowercased: SQLite compares savepoint names case-insensitively.
    let name: String
    var changes: [Change] = []
  }

  /// The open savepoints of the current transaction, innermost last.
  private var savepoints: [Savepoint] = []

  /// Tells observers of a change, or holds it back while a savepoint is open.
  private func tell(_ change: Change) {
    if savepoints.isEmpty {
      deliver(change)
    } else {
      savepoints[savepoints.count - 1].changes.append(change)
    }
  }

  private func deliver(_ change: Change) {
    withCurrentBroker {
      switch change {
      case .row(let event, let interested):
        // A change held back by a savepoint skips observers removed meanwhile.
        for entry in interested where !entry.isStoppedUntilNextTransaction && isRegistered(entry) {
          entry.observer?.databaseDidChange(with: event)
        }
      case .table(let interested):
        for entry in interested where !entry.isStoppedUntilNextTransaction && isRegistered(entry) {
          entry.observer?.databaseDidChange()
        }
      }
    }
  }

  private func isRegistered(_ entry: ObserverEntry) -> Bool {
    entries.contains { $0 === entry }
  }

  /// The innermost open savepoint named `name`.
  private func savepointIndex(_ name: String?) -> Int? {
    guard let name = name?.lowercased() else { return nil }
    return savepoints.lastIndex { $0.name == name }
  }

  /// Follows SAVEPOINT, RELEASE and ROLLBACK TO once they succeeded.
  private func noteSavepoint(of statement: Statement) {
    let authorization = statement.authorization
    switch authorization.transactionEffect {
    case .savepoint:
      savepoints.append(Savepoint(name: authorization.savepointName?.lowercased() ?? ""))
    case .releaseSavepoint:
      // A savepoint this broker did not see open (it was opened before the
      // first observer came) lies below every savepoint it knows.
      let index = savepointIndex(authorization.savepointName) ?? 0
      guard index < savepoints.count else { return }
      let released = savepoints[index...].flatMap { $0.changes }
      savepoints.removeSubrange(index...)
      if savepoints.isEmpty {
        for change in released { deliver(change) }
      } else {
        savepoints[savepoints.count - 1].changes += released
      }
    case .rollbackToSavepoint:
      // The savepoint stays open, emptied; the ones opened after it are gone.
      if let index = savepointIndex(authorization.savepointName) {
        savepoints.removeSubrange((index + 1)...)
        savepoints[index].changes = []
      } else {
        savepoints = []
      }
    default:
      break
    }
  }

  /// Tells observers of every change held back (the transaction commits).
  private func deliverHeldBackChanges() {
    let held = savepoints.flatMap { $0.changes }
    savepoints = []
    for change in held { deliver(change) }
  }

  /// Once the transaction is over, no savepoint is open: a commit delivered
  /// the held-back changes, a rollback undid them.
  private func forgetSavepointsOutsideOfTransaction() {
    if !database.isInsideTransaction { savepoints = [] }
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
        broker.rollbackIsPending = true
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
    let key = tableName.lowercased()
    changedTables[key] = tableName
    guard let execution = currentExecution else { return }
    execution.reportedTables.insert(key)
    guard let interested = execution.observersByTable[key], let eventKind = DatabaseEvent.Kind(rawValue: kind)
    else { return }
    tell(.row(DatabaseEvent(kind: eventKind, tableName: tableName, rowID: rowID), interested))
  }

  /// The commit hook: false refuses the commit (an observer threw).
  private func transactionWillCommit() -> Bool {
    commitIsPending = true
    // Changes of savepoints still open commit too: observers hear of them first.
    deliverHeldBackChanges()
    guard !willCommitWasSent else { return true }
    do {
      try sendWillCommit()
      return true
    } catch {
      willCommitError = error
      commitIsPending = false
      return false
    }
  }

  private func sendWillCommit() throws {
    willCommitWasSent = true
    for (_, observer) in liveEntries() {
      try observer.databaseWillCommit()
    }
  }

  /// Tells observers of a commit or rollback that happened during the last
  /// statement, once it is over (observers may then use the connection).
  private func deliverTransactionEnd() {
    if rollbackIsPending {
      rollbackIsPending = false
      commitIsPending = false
      endTransaction()
      for (_, observer) in liveEntries() { observer.databaseDidRollback(database) }
      removeNextTransactionObservers()
    } else if commitIsPending {
      commitIsPending = false
      guard !database.isInsideTransaction else {
        // The commit failed (busy): the transaction goes on.
        willCommitWasSent = false
        return
      }
      endTransaction()
      for (_, observer) in liveEntries() { observer.databaseDidCommit(database) }
      removeNextTransactionObservers()
    }
  }

  private func endTransaction() {
    changedTables = [:]
    savepoints = []
    willCommitWasSent = false
    hasNotifiedChanges = false
    transactionBegunWithBegin = false
    for entry in entries { entry.isStoppedUntilNextTransaction = false }
  }

  private func removeNextTransactionObservers() {
    entries.removeAll { $0.extent == .nextTransaction || $0.observer == nil }
    updateHooks()
  }

  // MARK: - Explicit notifications

  /// Tells observers of changes SQLite can not see. Inside a transaction, they
  /// hear of the commit or rollback as usual; outside, the notification is a
  /// transaction of its own, committed at once.
  func notifyChanges(in region: DatabaseRegion, tableNames: Set<String>?, external: Bool = false) {
    let live = liveEntries()
    let interested = live.filter { entry, observer in
      !entry.isStoppedUntilNextTransaction && observes(observer, region: region, tableNames: tableNames)
    }
    let tell = {
      for (_, observer) in interested {
        if external { (observer as? any RegionTrackingObserver)?.noteExternalChange() }
        observer.databaseDidChange()
      }
    }
    if database.isInsideTransaction {
      hasNotifiedChanges = true
      withCurrentBroker(tell)
      return
    }
    guard !interested.isEmpty else { return }
    withCurrentBroker(tell)
    for (_, observer) in live { try? observer.databaseWillCommit() }
    endTransaction()
    for (_, observer) in live { observer.databaseDidCommit(database) }
    removeNextTransactionObservers()
  }

  /// Tells the observers that see other processes' commits that they no
  /// longer can, and why (the database was rekeyed by another process…).
  func notifyExternalWatchFailure(_ error: any Error) {
    for (_, observer) in liveEntries() {
      (observer as? any RegionTrackingObserver)?.externalWatchDidFail(error)
    }
  }

  /// Whether `observer` cares for a change in `region`: asked with inserts,
  /// deletes and updates of every column of each table of the region.
  private func observes(
    _ observer: any TransactionObserver, region: DatabaseRegion, tableNames: Set<String>?
  ) -> Bool {
    if let specific = observer as? any RegionTrackingObserver {
      return specific.isInterested(in: region)
    }
    guard let tableNames = tableNames ?? region.tableNames else { return true }
    return tableNames.contains { table in
      observer.observes(eventsOfKind: .insert(tableName: table))
        || observer.observes(eventsOfKind: .delete(tableName: table))
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
