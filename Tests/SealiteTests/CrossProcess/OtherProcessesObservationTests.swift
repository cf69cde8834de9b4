import Foundation
import Synchronization
import Testing

// @testable: the test starts OtherProcessesWatch on the queue's internal writer.
@testable import Sealite

/// A configuration whose observations also see other connections' commits.
func watchingConfiguration() -> Configuration {
  var config = rawKeyConfiguration()
  config.observesOtherProcesses = true
  return config
}

/// Creates the tables `sealite-watch` expects.
private func makeSchema(_ writer: some DatabaseWriter) throws {
  try writer.write { db in
    try db.execute(
      sql: """
        CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
        INSERT OR IGNORE INTO counter (id, value) VALUES (1, 0);
        CREATE TABLE IF NOT EXISTS unrelated (id INTEGER PRIMARY KEY);
        """)
  }
}

/// Observes the integer fetched by `sql`: the values received, and the cancellable.
private func observeInteger(
  _ sql: String, in reader: some DatabaseReader, willFetch: (@Sendable () -> Void)? = nil
) -> (values: Locked<[Int]>, cancellable: AnyDatabaseCancellable) {
  let values = Locked<[Int]>([])
  let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    .handleEvents(willFetch: willFetch)
    .start(
      in: reader, scheduling: .async(onQueue: DispatchQueue(label: "values")), onError: { _ in },
      onChange: { value in values.withLock { $0.append(value) } })
  return (values, cancellable)
}

enum WriterKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case queue, pool
  var testDescription: String { rawValue }

  func open(_ path: String, _ configuration: Configuration) throws -> any DatabaseWriter {
    switch self {
    case .queue:
      var configuration = configuration
      configuration.journalMode = .wal
      return try DatabaseQueue(path: path, configuration: configuration)
    case .pool:
      return try DatabasePool(path: path, configuration: configuration)
    }
  }
}

@Suite("Observing other processes")
struct OtherProcessesObservationTests {
  @Test(
    "A ValueObservation sees the commits of another connection to the same encrypted file",
    arguments: WriterKind.allCases)
  func valueObservationSeesOtherConnection(kind: WriterKind) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let other = try DatabasePool(path: path, configuration: watchingConfiguration())
    try makeSchema(other)
    let observed = try kind.open(path, watchingConfiguration())
    let (values, cancellable) = observeInteger("SELECT value FROM counter WHERE id = 1", in: observed)
    #expect(await eventually { values.value == [0] })
    for value in 1...20 {
      try await other.write { db in try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value]) }
    }
    #expect(await eventually { values.value.last == 20 })
    #expect(values.value == values.value.sorted())
    cancellable.cancel()
  }

  @Test("A DatabaseRegionObservation sees the commits of another connection", arguments: WriterKind.allCases)
  func regionObservationSeesOtherConnection(kind: WriterKind) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let other = try DatabasePool(path: path, configuration: watchingConfiguration())
    try makeSchema(other)
    let observed = try kind.open(path, watchingConfiguration())
    let count = Locked(0)
    let cancellable = DatabaseRegionObservation(tracking: Table("counter")).start(
      in: observed, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
    try await other.write { db in try db.execute(sql: "UPDATE counter SET value = 1") }
    #expect(await eventually { count.value >= 1 })
    cancellable.cancel()
  }

  @Test(
    "A watch that can not read its database fails the observation, with the error, instead of missing commits",
    arguments: WriterKind.allCases)
  func watchFailureReachesOnError(kind: WriterKind) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let observed = try kind.open(path, watchingConfiguration())
    // A table of the change journal's name without its columns: the watch's
    // first read of the journal fails.
    try await observed.write { db in
      try db.execute(sql: "CREATE TABLE sealite_change_journal (unrelated); CREATE TABLE t (a)")
    }
    let regionErrors = Locked<[any Error]>([])
    let regionCancellable = DatabaseRegionObservation(tracking: Table("t")).start(
      in: observed, onError: { error in regionErrors.withLock { $0.append(error) } }, onChange: { _ in })
    defer { regionCancellable.cancel() }
    #expect(regionErrors.value.count == 1)
    #expect((regionErrors.value.first as? DatabaseError)?.resultCode == .SQLITE_ERROR)

    let valueErrors = Locked<[any Error]>([])
    let valueCancellable = ValueObservation.tracking { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
    }
    .start(
      in: observed, scheduling: .async(onQueue: DispatchQueue(label: "values")),
      onError: { error in valueErrors.withLock { $0.append(error) } },
      onChange: { _ in })
    defer { valueCancellable.cancel() }
    #expect(await eventually { valueErrors.value.count == 1 })
    #expect((valueErrors.value.first as? DatabaseError)?.resultCode == .SQLITE_ERROR)
  }

  @Test("An observation started from inside a write also sees other connections")
  func startedInsideWrite() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let other = try DatabasePool(path: path, configuration: watchingConfiguration())
    try makeSchema(other)
    let observed = try DatabasePool(path: path, configuration: watchingConfiguration())
    let count = Locked(0)
    let cancellable = try await observed.write { db in
      try db.execute(sql: "INSERT INTO unrelated DEFAULT VALUES")
      return DatabaseRegionObservation(tracking: Table("counter")).start(
        in: observed, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
    }
    try await other.write { db in try db.execute(sql: "UPDATE counter SET value = 1") }
    #expect(await eventually { count.value >= 1 })
    cancellable.cancel()
  }

  @Test("Queues with a rollback journal see each other's commits")
  func rollbackJournal() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    // Default busy mode: the observer's checks and fetches take no lock that
    // could make the other queue's commits fail.
    let config = watchingConfiguration()
    let other = try DatabaseQueue(path: path, configuration: config)
    try makeSchema(other)
    let observed = try DatabaseQueue(path: path, configuration: config)
    #expect(try await observed.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    let (values, cancellable) = observeInteger("SELECT value FROM counter", in: observed)
    #expect(await eventually { values.value == [0] })
    for value in 1...20 {
      try await other.write { db in try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value]) }
    }
    #expect(await eventually { values.value.last == 20 })
    #expect(values.value == values.value.sorted())
    cancellable.cancel()
  }

  @Test("Polling sees the commits of another connection where inotify is not used")
  func pollingFallback() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let other = try DatabasePool(path: path, configuration: watchingConfiguration())
    try makeSchema(other)
    var config = watchingConfiguration()
    config.observesOtherProcessesByPolling = true
    let observed = try DatabasePool(path: path, configuration: config)
    let (values, cancellable) = observeInteger("SELECT value FROM counter", in: observed)
    try await other.write { db in try db.execute(sql: "UPDATE counter SET value = 7") }
    #expect(await eventually { values.value.last == 7 })
    cancellable.cancel()
  }

  @Test("Without observesOtherProcesses, commits of other connections go unseen")
  func optOut() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let other = try DatabasePool(path: path, configuration: watchingConfiguration())
    try makeSchema(other)
    var config = watchingConfiguration()
    config.observesOtherProcesses = false
    let observed = try DatabasePool(path: path, configuration: config)
    let (values, cancellable) = observeInteger("SELECT value FROM counter", in: observed)
    #expect(await eventually { values.value == [0] })
    try await other.write { db in try db.execute(sql: "UPDATE counter SET value = 7") }
    // No watch on other connections was started: nothing can refresh the
    // observation for that commit.
    let isWatching = try observed.writer.sync { db in
      OtherProcessesWatch.current(in: db) != nil
    }
    #expect(!isWatching)
    #expect(values.value == [0])
    // Its own commits still refresh it, and it then reads the other commit too.
    try await observed.write { db in try db.execute(sql: "UPDATE counter SET value = value") }
    #expect(await eventually { values.value == [0, 7] })
    cancellable.cancel()
  }

  @Test(
    "With table precision, commits of other processes refresh only observations of the changed tables",
    arguments: [true, false])
  func tablePrecision(publishes: Bool) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var writerConfig = watchingConfiguration()
    writerConfig.publishesChangedTables = publishes
    let other = try DatabasePool(path: path, configuration: writerConfig)
    try makeSchema(other)
    let observed = try DatabasePool(path: path, configuration: watchingConfiguration())
    let unrelatedFetches = Locked(0)
    let (unrelatedValues, unrelated) = observeInteger(
      "SELECT COUNT(*) FROM unrelated", in: observed, willFetch: { unrelatedFetches.withLock { $0 += 1 } })
    let (counterValues, counter) = observeInteger("SELECT value FROM counter", in: observed)
    #expect(await eventually { unrelatedValues.value == [0] && counterValues.value == [0] })
    for value in 1...10 {
      try await other.write { db in try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value]) }
      #expect(await eventually { counterValues.value.last == value })
    }
    if publishes {
      #expect(unrelatedFetches.value == 1)
    } else {
      #expect(unrelatedFetches.value > 1)
    }
    // Refreshes caused by other processes never deliver an unchanged value again.
    #expect(unrelatedValues.value == [0])
    // The unrelated table changes: its observation refreshes.
    try await other.write { db in try db.execute(sql: "INSERT INTO unrelated DEFAULT VALUES") }
    #expect(await eventually { unrelatedValues.value == [0, 1] })
    unrelated.cancel()
    counter.cancel()
  }

  @Test("With table precision, a commit that publishes no tables still refreshes every observation")
  func unpublishedCommitRefreshes() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var writerConfig = watchingConfiguration()
    writerConfig.publishesChangedTables = true
    let publishing = try DatabasePool(path: path, configuration: writerConfig)
    try makeSchema(publishing)
    let observed = try DatabasePool(path: path, configuration: watchingConfiguration())
    let (values, cancellable) = observeInteger("SELECT COUNT(*) FROM unrelated", in: observed)
    let (counterValues, counter) = observeInteger("SELECT value FROM counter", in: observed)
    #expect(await eventually { values.value == [0] && counterValues.value == [0] })
    try await publishing.write { db in try db.execute(sql: "UPDATE counter SET value = 1") }
    #expect(await eventually { counterValues.value == [0, 1] })
    #expect(values.value == [0])
    // A writer that does not publish its tables (another program, say): the
    // change comes without journal entry, and refreshes every observation.
    let plain = try DatabaseQueue(path: path, configuration: watchingConfiguration())
    try await plain.write { db in try db.execute(sql: "INSERT INTO unrelated DEFAULT VALUES") }
    #expect(await eventually { values.value == [0, 1] })
    cancellable.cancel()
    counter.cancel()
  }

  @Test("One writer process and three reader processes: every reader ends on the writer's final state")
  func multiProcess() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let commits =
      ProcessInfo.processInfo.environment["SEALITE_MULTIPROCESS_COMMITS"].flatMap(Int.init) ?? 1000
    // The writer's first open creates the change journal (a schema change,
    // which refreshes every observation): done here, before readers start.
    var setupConfig = watchingConfiguration()
    setupConfig.publishesChangedTables = true
    let setup = try DatabasePool(path: path, configuration: setupConfig)
    try makeSchema(setup)
    // Kept open until the readers exit: their pools then open on a WAL that
    // is not empty, and make no commit of their own to create one. (Such a
    // commit, landing during another reader's first fetch, gives it a second
    // fetch, as in GRDB: not a refresh this test could tell from a wrong one.)
    defer { try? setup.close() }
    let key = String(repeating: "42", count: 32) + "\n"
    // The readers' timeout only guards against a hang: it runs from their start,
    // and the writer starts when this test resumes after their `ready`, which a
    // saturated run (sanitizers: minutes) can delay well past the default.
    let readers = try (0..<3).map { index in
      try SpawnedProcess(
        sealiteWatchPath,
        ["observe", path, "--until", "\(commits)", "--timeout", "1800"] + (index == 2 ? ["--queue"] : []),
        input: key)
    }
    for reader in readers {
      #expect(await reader.waitForLine(startingWith: "ready") != nil, "\(reader.errorOutput)")
    }
    let writer = try SpawnedProcess(
      sealiteWatchPath, ["write", path, "--commits", "\(commits)", "--publish-tables"], input: key)
    #expect(await writer.waitForExit() == 0, "\(writer.errorOutput)")
    #expect(writer.value("done") == commits)
    for reader in readers {
      #expect(await reader.waitForExit() == 0, "\(reader.errorOutput)")
      #expect(reader.value("final") == commits)
      #expect(reader.value("backwards") == 0)
      #expect(reader.value("unrelated-refreshes") == 0)
      #expect(reader.value("unrelated-changes") == 0)
    }
    // The key never reached a command line: the children got it on standard input.
    let database = try DatabaseQueue(path: path, configuration: watchingConfiguration())
    #expect(
      try await database.read { db in try Int.fetchOne(db, sql: "SELECT value FROM counter") } == commits)
  }
}
