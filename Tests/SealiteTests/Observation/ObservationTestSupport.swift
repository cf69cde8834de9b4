import Dispatch
import Foundation
import Testing

// @testable: hasTransactionObservers(_:) asks the internal broker whether observers are alive.
@testable import Sealite

/// The databases observation tests run against: a queue, a pool, and an
/// encrypted pool (raw key, so that opening is fast).
enum ObservationBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case queue
  case pool
  case encryptedPool

  var testDescription: String {
    switch self {
    case .queue: "DatabaseQueue"
    case .pool: "DatabasePool"
    case .encryptedPool: "encrypted DatabasePool"
    }
  }

  /// A new database file in `directory`, opened as this backend.
  func makeWriter(_ directory: TemporaryDirectory) throws -> any DatabaseWriter {
    switch self {
    case .queue: try DatabaseQueue(path: directory.path())
    case .pool: try DatabasePool(path: directory.path())
    case .encryptedPool: try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    }
  }
}

/// The schema most observation tests use: players in teams, and a log that
/// triggers may write.
let observationSchema = """
  CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL, color TEXT);
  CREATE TABLE player (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0,
    teamId INTEGER REFERENCES team(id) ON DELETE CASCADE);
  CREATE TABLE log (id INTEGER PRIMARY KEY, message TEXT);
  """

/// A player record of ``observationSchema``.
struct ObservedPlayer: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Hashable, Sendable {
  static let databaseTableName = "player"
  var id: Int64
  var name: String
  var score: Int
  var teamId: Int64?

  init(id: Int64, name: String, score: Int = 0, teamId: Int64? = nil) {
    self.id = id
    self.name = name
    self.score = score
    self.teamId = teamId
  }
}

/// Polls `condition` until it holds, for at most `timeout` seconds; returns
/// as soon as it holds, and whether it did. The timeout only marks a hang:
/// a full parallel run keeps both cooperative threads busy, and a waiting
/// test may not be resumed for a minute (40 to 60 s were measured at the
/// start of full runs on 2 cores), so it is five minutes.
func eventually(timeout: Double = 300, _ condition: () throws -> Bool) async rethrows -> Bool {
  let deadline = ContinuousClock.now + .seconds(timeout)
  while true {
    if try condition() { return true }
    if ContinuousClock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(5))
  }
}

/// True while the writer connection of `writer` has live transaction observers.
func hasTransactionObservers(_ writer: some DatabaseWriter) throws -> Bool {
  try writer.withWriterConnection { db in
    (db.executionObserver as? DatabaseObservationBroker)?.hasObservers ?? false
  }
}

/// Waits until every block already submitted to `queue` ran.
func drain(_ queue: DispatchQueue) async {
  await withCheckedContinuation { continuation in
    queue.async { continuation.resume() }
  }
}

/// An error thrown on purpose, recognizable by its identifier.
struct TestError: Error, Equatable {
  var id: Int
}

/// Collects what a transaction observer hears, in order, for assertions.
/// Observers are called on the writer's queue; the tests read the log once
/// the accesses ended.
final class RecordingObserver: TransactionObserver, Sendable {
  private struct State {
    var observedTables: Set<String>?
    var log: [String] = []
    var events: [DatabaseEvent] = []
    var askedKinds: [DatabaseEventKind] = []
    var willCommitError: (any Error)?
    var stopsAfterFirstEvent = false
  }
  private let state: Locked<State>
  private let onCommit: (@Sendable (Database) -> Void)?

  /// Observes `tables` (lowercased names), or every table if nil.
  init(tables: Set<String>? = nil, onCommit: (@Sendable (Database) -> Void)? = nil) {
    state = Locked(State(observedTables: tables))
    self.onCommit = onCommit
  }

  /// Everything heard: "insert player 1", "change", "willCommit", "commit", "rollback".
  var log: [String] { state.withLock { $0.log } }
  /// The rows heard, as "kind table rowid".
  var rows: [String] { state.withLock { $0.events.map { "\($0.kind) \($0.tableName) \($0.rowID)" } } }
  var events: [DatabaseEvent] { state.withLock { $0.events } }
  /// The number of `databaseDidChange()` calls (changes without rows).
  var changeCount: Int { state.withLock { $0.log.count { $0 == "change" } } }
  var commitCount: Int { state.withLock { $0.log.count { $0 == "commit" } } }
  var rollbackCount: Int { state.withLock { $0.log.count { $0 == "rollback" } } }
  var askedKinds: [DatabaseEventKind] { state.withLock { $0.askedKinds } }

  /// Makes `databaseWillCommit` throw this error (nil: accept commits).
  func refuseCommits(with error: (any Error)?) {
    state.withLock { $0.willCommitError = error }
  }

  /// Makes the observer call `stopObservingDatabaseChangesUntilNextTransaction()`
  /// from its first row of each transaction.
  func stopAfterFirstEvent() {
    state.withLock { $0.stopsAfterFirstEvent = true }
  }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    state.withLock { state in
      state.askedKinds.append(eventKind)
      return state.observedTables?.contains(eventKind.tableName.lowercased()) ?? true
    }
  }

  func databaseDidChange(with event: DatabaseEvent) {
    let stop = state.withLock { state in
      state.events.append(event)
      state.log.append("\(event.kind) \(event.tableName) \(event.rowID)")
      return state.stopsAfterFirstEvent
    }
    if stop { stopObservingDatabaseChangesUntilNextTransaction() }
  }

  func databaseDidChange() {
    state.withLock { $0.log.append("change") }
  }

  func databaseWillCommit() throws {
    let error = state.withLock { state in
      state.log.append("willCommit")
      return state.willCommitError
    }
    if let error { throw error }
  }

  func databaseDidCommit(_ db: Database) {
    state.withLock { $0.log.append("commit") }
    onCommit?(db)
  }

  func databaseDidRollback(_ db: Database) {
    state.withLock { $0.log.append("rollback") }
  }
}

/// A text stream that keeps what it is given, for `ValueObservation.print(to:)`,
/// which writes each event in one call.
struct RecordingStream: TextOutputStream, Sendable {
  private let writes = Locked<[String]>([])

  mutating func write(_ string: String) {
    writes.withLock { $0.append(string) }
  }

  /// The strings written, one per call.
  var lines: [String] { writes.value }
}

/// Thrown by ``withDeadline(_:_:)`` when the body did not finish in time.
struct DeadlineExceeded: Error {}

/// Runs `body` in a child task, cancelled after `timeout` seconds (an async
/// sequence then ends): a test that waits for values never hangs. Five
/// minutes, for the reason given at ``eventually(timeout:_:)``.
func withDeadline<T: Sendable>(
  _ timeout: Double = 300, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: .seconds(timeout))
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let result = first else { throw DeadlineExceeded() }
    return result
  }
}

/// The observation suites, nested here so that `--filter Observation` selects them all.
@Suite("Observation")
enum ObservationTests {}
