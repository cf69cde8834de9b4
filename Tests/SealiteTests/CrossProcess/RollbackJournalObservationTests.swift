import Foundation
import Testing

// @testable: the test starts OtherProcessesWatch on the queue's internal writer.
@testable import Sealite

/// Two queues on one rollback-journal file: the observed one, and a writer.
private struct TwoQueues {
  let directory = TemporaryDirectory()
  let observed: DatabaseQueue
  let writer: DatabaseQueue

  init(observesOtherProcesses: Bool?) throws {
    var observedConfig = rawKeyConfiguration()
    if let observesOtherProcesses { observedConfig.observesOtherProcesses = observesOtherProcesses }
    // The writer keeps GRDB's defaults: it does not wait for locks.
    writer = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try writer.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
    observed = try DatabaseQueue(path: directory.path(), configuration: observedConfig)
  }

  /// Observes `SELECT COUNT(*) FROM t` on the observed queue.
  func observeCount() -> (
    values: Locked<[Int]>, errors: Locked<[any Error]>, cancellable: AnyDatabaseCancellable
  ) {
    let values = Locked<[Int]>([])
    let errors = Locked<[any Error]>([])
    let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
      .start(
        in: observed, scheduling: .async(onQueue: DispatchQueue(label: "values")),
        onError: { error in errors.withLock { $0.append(error) } },
        onChange: { value in values.withLock { $0.append(value) } })
    return (values, errors, cancellable)
  }
}

@Suite("Observing other connections of a rollback-journal database")
struct RollbackJournalObservationTests {
  @Test("By default, as in GRDB, an observation does not see the commits of another queue")
  func defaultIsOff() async throws {
    #expect(Configuration().observesOtherProcesses == false)
    let queues = try TwoQueues(observesOtherProcesses: nil)
    let (values, errors, cancellable) = queues.observeCount()
    defer { cancellable.cancel() }
    #expect(await eventually { values.value == [0] })
    try await queues.writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    // No watch of the file was started: nothing can tell the observation.
    let isWatching = try queues.observed.writer.sync { db in OtherProcessesWatch.current(in: db) != nil }
    #expect(!isWatching)
    // Its own commit refreshes it, and it then reads both rows.
    try await queues.observed.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    #expect(await eventually { values.value.last == 2 })
    #expect(values.value == [0, 2])
    #expect(errors.value.isEmpty)
  }

  @Test(
    "With observesOtherProcesses, 10,000 commits of another queue all succeed, and the observation ends on the last"
  )
  func observerNeverBreaksAWriter() async throws {
    let queues = try TwoQueues(observesOtherProcesses: true)
    #expect(
      try await queues.observed.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete"
    )
    let (values, errors, cancellable) = queues.observeCount()
    defer { cancellable.cancel() }
    #expect(await eventually { values.value == [0] })
    let writes = 10_000
    var failures: [String] = []
    for _ in 0..<writes {
      do {
        try await queues.writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
      } catch {
        failures.append("\(error)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(writes) writes failed, first: \(failures.first ?? "")")
    let final = try await queues.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
    #expect(final == writes - failures.count)
    #expect(await eventually { values.value.last == final }, "last value: \(values.value.last ?? -1)")
    // Every value is a count some commit left: in order, none invented.
    let seen = values.value
    #expect(seen == seen.sorted())
    #expect(seen.allSatisfy { (0...final).contains($0) })
    #expect(Set(seen).count == seen.count, "an equal value delivered twice")
    #expect(errors.value.isEmpty, "\(errors.value)")
  }
}

@Suite("Commits of another queue to a rollback-journal database, one change each")
struct RollbackJournalCommitCountTests {
  @Test("a commit that writes many pages is one change, not one per wake-up during its writes")
  func multiPageCommitIsOneChange() async throws {
    let queues = try TwoQueues(observesOtherProcesses: true)
    let changes = Locked(0)
    let cancellable = DatabaseRegionObservation(tracking: .fullDatabase).start(
      in: queues.observed, onError: { _ in }, onChange: { _ in changes.withLock { $0 += 1 } })
    defer { cancellable.cancel() }
    try await queues.writer.write { db in try db.execute(sql: "CREATE TABLE blobs (b BLOB)") }
    #expect(await eventually { changes.value == 1 })
    for round in 2...12 {
      // A megabyte: hundreds of pages that grow the file while page 1 is
      // already rewritten, which a wake-up in the middle of the writes sees.
      try await queues.writer.write { db in
        try db.execute(sql: "INSERT INTO blobs VALUES (randomblob(1048576))")
      }
      #expect(await eventually { changes.value >= round })
      // Long enough for every re-check of the monitor (2 and 8 ms) to run.
      try await Task.sleep(for: .milliseconds(60))
      #expect(changes.value == round, "round \(round)")
    }
  }
}
