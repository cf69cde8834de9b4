import Foundation

/// Sees the commits other processes make to the database of a writer
/// connection, and tells that connection's observers.
///
/// A ``FileChangeMonitor`` wakes it when the database, `-wal` or `-journal`
/// file is written; `PRAGMA data_version`, read on the writer connection, is
/// the truth (it changes exactly when another connection committed). The
/// change journal, when writers publish it, names the changed tables.
final class OtherProcessesWatch: Sendable {
  private struct State {
    var dataVersion: Int64?
    var lastJournalID: Int64 = 0
    var isCheckQueued = false
    /// The last entry seen of each writer, and its writer's data_version.
    var lastEntryByWriter: [String: (id: Int64, version: Int64)] = [:]
    /// When a change without journal entry was first seen.
    var changeWithoutEntrySince: ContinuousClock.Instant?
    /// True once a check failed for good, and observers were told.
    var hasFailed = false
  }

  /// How long a change without journal entry waits for its entry.
  static let entryWaitDuration = Duration.milliseconds(100)

  private let state = Locked(State())
  private let writer: WeakReference<SerializedDatabase>
  private let monitor = Locked<FileChangeMonitor?>(nil)

  private init(writer: SerializedDatabase) {
    self.writer = WeakReference()
    self.writer.value = writer
  }

  /// Starts watching other processes for the connection `db` of `writer`,
  /// unless already done, or the database is in memory, or the configuration
  /// says not to. Runs on the writer's queue.
  static func start(for db: Database, writer: SerializedDatabase) throws {
    let key = ObjectIdentifier(OtherProcessesWatch.self)
    guard db.attachments[key] == nil, db.configuration.observesOtherProcesses,
      let filePath = databaseFilePath(db.path)
    else { return }
    let watch = OtherProcessesWatch(writer: writer)
    try watch.readBaseline(db)
    db.attachments[key] = watch
    let monitor = FileChangeMonitor(
      databasePath: filePath, forcePolling: db.configuration.observesOtherProcessesByPolling,
      handler: { [weak watch] in watch?.scheduleCheck() })
    watch.monitor.withLock { $0 = monitor }
    monitor.start()
  }

  deinit {
    monitor.value?.stop()
  }

  /// The file of an on-disk database, or nil for in-memory ones.
  static func databaseFilePath(_ path: String) -> String? {
    if path.isEmpty || path == ":memory:" { return nil }
    if path.hasPrefix("file:") {
      if path.contains("mode=memory") { return nil }
      let withoutScheme = path.dropFirst("file:".count)
      let filePart = withoutScheme.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
      return filePart.removingPercentEncoding ?? filePart
    }
    return path
  }

  private func readBaseline(_ db: Database) throws {
    let read = { (db: Database) in (try self.currentDataVersion(db), try ChangeJournal.lastID(in: db)) }
    // An observation started from inside a write reads in that transaction.
    let (version, lastID) = db.isInsideTransaction ? try read(db) : try db.readTransaction(read)
    state.withLock { state in
      state.dataVersion = version
      state.lastJournalID = lastID
    }
  }

  private func currentDataVersion(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
  }

  /// Queues one check on the writer's queue (checks already queued and not
  /// started absorb this one).
  private func scheduleCheck() {
    let queue = state.withLock { state -> Bool in
      defer { state.isCheckQueued = true }
      return !state.isCheckQueued
    }
    guard queue, let writer = writer.value else { return }
    writer.async { [weak self] db in
      guard let self else { return }
      state.withLock { $0.isCheckQueued = false }
      check(db)
    }
  }

  /// True once a change without journal entry waited long enough to be a
  /// real commit (of a writer that does not publish its tables); until then,
  /// schedules the checks that wait for the entry.
  private func confirmsChangeWithoutEntry() -> Bool {
    let now = ContinuousClock.now
    let since = state.withLock { state in
      if state.changeWithoutEntrySince == nil { state.changeWithoutEntrySince = now }
      return state.changeWithoutEntrySince!
    }
    if now - since >= Self.entryWaitDuration { return true }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(25)) { [weak self] in
      self?.scheduleCheck()
    }
    return false
  }

  /// Compares `data_version` with the last one seen, and tells observers of
  /// what other connections committed since.
  private func check(_ db: Database) {
    // Inside a transaction left open, the connection sees no other commit:
    // a later wake-up (or the monitor's idle check) retries.
    guard !db.isInsideTransaction, db.sqliteConnection != nil else { return }
    let previous = state.withLock { ($0.dataVersion, $0.lastJournalID) }
    var lastEntryByWriter = state.withLock { $0.lastEntryByWriter }
    let found: (version: Int64, exists: Bool, entries: [ChangeJournal.Entry], missesCommits: Bool)
    do {
      found = try db.readTransaction { db in
        // The journal is read first: this starts the snapshot whose
        // data_version is read next, so that both agree.
        let (exists, entries) = try ChangeJournal.entries(after: previous.1, in: db)
        var missesCommits = false
        for entry in entries {
          if let last = lastEntryByWriter[entry.writer], last.version != entry.writerVersion,
            try !ChangeJournal.hasEntriesOfOtherWriters(
              than: entry.writer, after: last.id, before: entry.id, in: db)
          {
            // The writer saw commits of other connections that left no entry.
            missesCommits = true
          }
          lastEntryByWriter[entry.writer] = (entry.id, entry.writerVersion)
        }
        return (try currentDataVersion(db), exists, entries, missesCommits)
      }
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
      || error.resultCode == .SQLITE_MISUSE
    {
      // Busy, or closed: the next wake-up retries.
      return
    } catch {
      // Any other error stays: a database rekeyed by another process no longer
      // opens with this connection's key. Observers hear of it, rather than go
      // blind to every later commit.
      guard
        state.withLock({ state -> Bool in
          defer { state.hasFailed = true }
          return !state.hasFailed
        })
      else { return }
      db.observationBroker.notifyExternalWatchFailure(error)
      return
    }
    guard found.version != previous.0 else { return }
    if found.entries.isEmpty, found.exists, previous.1 > 0, !confirmsChangeWithoutEntry() {
      // data_version also moves when a writer restarts the WAL at the start
      // of a transaction, before it commits anything: with a journal in use,
      // a change without entry is believed only if no entry follows soon.
      return
    }
    state.withLock { state in
      state.dataVersion = found.version
      state.changeWithoutEntrySince = nil
      state.lastEntryByWriter = lastEntryByWriter
      if let last = found.entries.last { state.lastJournalID = last.id }
    }
    var tableNames: Set<String>? = nil
    // Precise only if the journal holds each entry since the last one seen:
    // a gap (pruned entries) or no entry at all (a commit without journal)
    // refreshes every observation.
    if let first = found.entries.first, first.id == previous.1 + 1, !found.missesCommits {
      var names: Set<String> = []
      for entry in found.entries {
        guard let entryNames = entry.tableNames else {
          names = []
          break
        }
        names.formUnion(entryNames.map { $0.lowercased() })
      }
      if !names.isEmpty { tableNames = names }
    }
    let region: DatabaseRegion
    if let tableNames {
      region = tableNames.reduce(into: DatabaseRegion()) { $0.formUnion(DatabaseRegion(table: $1)) }
    } else {
      region = .fullDatabase
    }
    db.observationBroker.notifyChanges(in: region, tableNames: tableNames, external: true)
  }
}
