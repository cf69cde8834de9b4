import Foundation

/// Sees the commits other processes make to the database of a writer
/// connection, and tells that connection's observers.
///
/// A ``FileChangeMonitor`` wakes it when the database, `-wal` or `-journal`
/// file is written. It then reads the ``CommitFingerprint`` of the files,
/// without any lock: when it did not change, nothing was committed, and the
/// watch stops there. Otherwise, in WAL mode, `PRAGMA data_version`, read on
/// the writer connection, is the truth (it changes exactly when another
/// connection committed), and the change journal, when writers publish it,
/// names the changed tables: WAL readers never block a writer. With a
/// rollback journal, any read takes a shared lock, which makes the commit of
/// a writer that does not wait for locks fail: the watch reads nothing, and
/// tells every observer that the whole database may have changed.
final class OtherProcessesWatch: Sendable {
  private struct State {
    /// The fingerprint of the last check, or nil when the next wake-up must
    /// check whatever the files say (the last check could not conclude).
    var fingerprint: CommitFingerprint?
    var dataVersion: Int64?
    var lastJournalID: Int64 = 0
    var isCheckQueued = false
    /// The last entry seen of each writer, and its writer's data_version.
    var lastEntryByWriter: [String: (id: Int64, version: Int64)] = [:]
    /// When a change without journal entry was first seen.
    var changeWithoutEntrySince: ContinuousClock.Instant?
    /// True once a check failed for good, and observers were told.
    var hasFailed = false
    /// Whether the database is in WAL mode: set when its `-shm` file is seen,
    /// cleared only when SQL says otherwise.
    var isWAL = false
    /// True while a lock-free read checks that the database still opens.
    var isProbing = false
    /// True once the connection closes: nothing starts any more.
    var isStopped = false
  }

  /// How long a change without journal entry waits for its entry.
  static let entryWaitDuration = Duration.milliseconds(100)

  private let state = Locked(State())
  private let writer: WeakReference<SerializedDatabase>
  private let monitor = Locked<FileChangeMonitor?>(nil)
  /// The lock-free reads in flight (`probeWithoutLocks()`), which `stop()`
  /// waits for.
  private let probes = DispatchGroup()
  /// The database file.
  let filePath: String
  /// The reads of observations refreshed by other connections' commits to a
  /// rollback-journal database.
  let lockFreeReader: LockFreeReader

  private init(writer: SerializedDatabase, filePath: String, configuration: Configuration) {
    self.writer = WeakReference()
    self.writer.value = writer
    self.filePath = filePath
    lockFreeReader = LockFreeReader(filePath: filePath, configuration: configuration)
  }

  /// Where a connection keeps its watch, once started: the watch lives as
  /// long as the connection is open.
  private final class Slot: ConnectionState {
    var watch: OtherProcessesWatch?
    static func make(for db: Database) -> Slot { Slot() }
    func connectionWillClose() {
      watch?.stop()
      watch = nil
    }
  }

  /// The watch of `db`, if one was started.
  static func current(in db: Database) -> OtherProcessesWatch? {
    db.existingState(for: Slot.self)?.watch
  }

  /// True if the database is in WAL mode: its `-shm` file, which exists
  /// while a connection of a WAL database is open (as this one is), was
  /// seen, and no read said since that the journal mode changed.
  var isWAL: Bool {
    if state.withLock({ $0.isWAL }) { return true }
    guard CommitFingerprint.walIndexExists(databasePath: filePath) else { return false }
    state.withLock { $0.isWAL = true }
    return true
  }

  /// Starts watching other processes for the connection `db` of `writer`,
  /// unless already done, or the database is in memory, or the configuration
  /// says not to. Runs on the writer's queue.
  static func start(for db: Database, writer: SerializedDatabase) throws {
    let slot = db.state(for: Slot.self)
    guard slot.watch == nil, db.configuration.observesOtherProcesses,
      let filePath = databaseFilePath(db.path)
    else { return }
    let watch = OtherProcessesWatch(writer: writer, filePath: filePath, configuration: db.configuration)
    // The fingerprint first: a commit made while the baseline is read is
    // then seen by the first wake-up.
    let fingerprint = CommitFingerprint.read(databasePath: filePath)
    if watch.isWAL {
      try watch.readBaseline(db)
    } else {
      // Opened now, while the key opens the database: a later failure to
      // read through it is then the database's (another process rekeyed it).
      _ = watch.lockFreeReader.isAvailable
    }
    watch.state.withLock { $0.fingerprint = fingerprint }
    slot.watch = watch
    let monitor = FileChangeMonitor(
      databasePath: filePath, forcePolling: db.configuration.observesOtherProcessesByPolling,
      handler: { [weak watch] in watch?.filesMayHaveChanged() })
    watch.monitor.withLock { $0 = monitor }
    monitor.start()
  }

  deinit {
    monitor.value?.stop()
  }

  /// Stops watching, for good, when the connection closes: the monitor's
  /// thread ends, and a lock-free read in flight is waited for. Once the
  /// connection is closed, no thread of the watch still reads the database
  /// with its key; a process that exits right after (`dbkey watch --count`)
  /// does not exit in the middle of one, while the C libraries it calls into
  /// tear down their state at exit. The read checks for the stop between its
  /// attempts. Runs on the writer's queue, which neither waits for.
  func stop() {
    state.withLock { $0.isStopped = true }
    monitor.value?.stop()
    probes.wait()
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
    // The journal first, as in `check(_:)`: reading it starts the snapshot, and
    // `data_version` read after it is that snapshot's. Read first, it could
    // predate a commit whose entry the journal then shows, and that commit
    // would later look like a change without entry (a full refresh).
    let read = { (db: Database) -> (Int64, Int64) in
      let lastID = try ChangeJournal.lastID(in: db)
      return (try self.currentDataVersion(db), lastID)
    }
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

  /// On the monitor's thread: compares the fingerprint of the files with the
  /// last one, without any lock, and checks only if it changed.
  private func filesMayHaveChanged() {
    // In the middle of a commit, the next event (the journal deleted,
    // truncated or zeroed at its end) or re-check looks again.
    guard let fingerprint = settledFingerprint() else { return }
    let changed = state.withLock { state -> Bool in
      defer { state.fingerprint = fingerprint }
      return state.fingerprint != fingerprint
    }
    if changed { scheduleCheck() }
  }

  /// The fingerprint of the files, or nil while a writer of a rollback-journal
  /// database is writing them. Such a commit writes page 1 first, then grows
  /// the file page after page: a fingerprint read in between differs both
  /// from the one before and from the one after, and would count one commit
  /// many times. As in ``LockFreeReader``, a read is kept only if no journal
  /// was active and a second read finds the same bytes.
  private func settledFingerprint() -> CommitFingerprint? {
    let first = CommitFingerprint.read(databasePath: filePath)
    // In WAL mode the fingerprint only says whether to ask data_version.
    if isWAL { return first }
    guard !CommitFingerprint.journalIsActive(databasePath: filePath) else { return nil }
    let second = CommitFingerprint.read(databasePath: filePath)
    return first == second ? second : nil
  }

  /// Makes the next wake-up check, whatever the fingerprint says.
  private func checkAgainLater() {
    state.withLock { $0.fingerprint = nil }
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

  /// With a rollback journal, after a change: reads the schema through the
  /// lock-free reader, off the writer's queue, so that a database rekeyed by
  /// another process is reported to observers (its pages no longer open with
  /// this connection's key) as it is in WAL mode.
  private func probeWithoutLocks() {
    let start = state.withLock { state -> Bool in
      guard !state.isProbing, !state.hasFailed, !state.isStopped else { return false }
      state.isProbing = true
      // Under the lock that `stop()` sets the flag with: a probe it does not
      // see start never starts.
      probes.enter()
      return true
    }
    guard start else { return }
    DispatchQueue.global().async { [self] in
      defer {
        state.withLock { $0.isProbing = false }
        probes.leave()
      }
      do {
        _ = try lockFreeReader.read(isCancelled: { [weak self] in
          guard let self else { return true }
          return state.withLock { $0.isStopped } || writer.value == nil
        }) {
          db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
        }
      } catch is LockFreeReader.Unavailable {
        return
      } catch {
        let report = state.withLock { state -> Bool in
          defer { state.hasFailed = true }
          return !state.hasFailed
        }
        guard report, let writer = writer.value else { return }
        writer.async { db in db.observationBroker.notifyExternalWatchFailure(error) }
      }
    }
  }

  /// Compares `data_version` with the last one seen, and tells observers of
  /// what other connections committed since.
  private func check(_ db: Database) {
    guard db.sqliteConnection != nil else { return }
    guard isWAL else {
      // A rollback journal: any read would take a shared lock. No SQL, and
      // every observation refreshes (with reads that take no lock either).
      db.observationBroker.notifyChanges(in: .fullDatabase, tableNames: nil, external: true)
      probeWithoutLocks()
      return
    }
    // Inside a transaction left open, the connection sees no other commit:
    // a later wake-up (or the monitor's idle check) retries.
    guard !db.isInsideTransaction else {
      checkAgainLater()
      return
    }
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
        if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" {
          state.withLock { $0.isWAL = false }
        }
        return (try currentDataVersion(db), exists, entries, missesCommits)
      }
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
      || error.resultCode == .SQLITE_MISUSE
    {
      // Busy, or closed: the next wake-up retries.
      checkAgainLater()
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
    // Entries that name no table (commits that changed no row) refresh nothing.
    if let first = found.entries.first, first.id == previous.1 + 1, !found.missesCommits {
      var names: Set<String>? = []
      for entry in found.entries {
        guard let entryNames = entry.tableNames else {
          names = nil
          break
        }
        names?.formUnion(entryNames.map { $0.nameKey })
      }
      tableNames = names
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
