import Dispatch
import Foundation
import Sealite
import Testing

/// The events `print(to:)` wrote, one string per `write` call, read after
/// the observation delivered.
private final class PrintedEvents: Sendable {
  private let writes = Shared<[String]>([])
  var strings: [String] { writes.value }

  /// `observation.print(prefix, to: stream)` with a stream that is not
  /// Sendable, as GRDB programs write it.
  func printing<R: ValueReducer>(_ observation: ValueObservation<R>, prefix: String = "")
    -> ValueObservation<ValueReducers.Trace<R>>
  {
    observation.print(prefix, to: ForwardingStream(target: writes))
  }
}

/// A stream class with mutable state: not Sendable.
private final class ForwardingStream: TextOutputStream {
  let target: Shared<[String]>
  var writeCount = 0

  init(target: Shared<[String]>) {
    self.target = target
  }

  func write(_ string: String) {
    writeCount += 1
    target.update { $0.append(string) }
  }
}

private struct ReadFailure: Error {}

private let maxID = ValueObservation.trackingConstantRegion { db in
  try Int.fetchOne(db, sql: "SELECT MAX(id) FROM player")
}

private func region(_ sql: String, in reader: some DatabaseReader) throws -> String {
  try reader.read { db in try db.makeStatement(sql: sql).databaseRegion.description }
}

private let writerBackends: [ObservationBackend] = [.queue, .pool]
private let schedulings: [Bool] = [true, false]

private func scheduler(immediate: Bool) -> any ValueObservationScheduler {
  immediate ? anyImmediate : .async(onQueue: DispatchQueue(label: "Sealite.tests.events"))
}

extension ObservationTests {
  /// The events of `print()` and `handleEvents`, in GRDB's order.
  @Suite("ValueObservation event order")
  struct ValueObservationEventOrderTests {
    @Test(
      "print(to:) takes a stream that is not Sendable, and writes each event in one call, without a line feed"
    )
    func printToStream() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
      // The region's columns depend on the SQLite version (a rowid alias may
      // be reported as the rowid): compared with the statement's own region.
      let expectedRegion = try region("SELECT MAX(id) FROM player", in: dbQueue)
      let printed = PrintedEvents()
      let cancellable = printed.printing(maxID).start(in: dbQueue, scheduling: anyImmediate) { _ in
      } onChange: { _ in
      }
      cancellable.cancel()
      #expect(
        printed.strings == ["start", "fetch", "tracked region: \(expectedRegion)", "value: nil", "cancel"])
    }

    @Test(
      "tracking(region:) prints start, fetch, the tracked region, the value; then a change, a fetch and a value per commit in the region"
    )
    func explicitRegions() async throws {
      let cases: [([any DatabaseRegionConvertible], [String])] = [
        ([Table("t")], ["tracked region: t(*)", "value: 0", "database did change", "fetch", "value: 1"]),
        (
          [Table("other")],
          ["tracked region: other(*)", "value: 0", "database did change", "fetch", "value: 0"]
        ),
        (
          [Table("t"), Table("other")],
          [
            "tracked region: other(*),t(*)", "value: 0", "database did change", "fetch", "value: 0",
            "database did change", "fetch", "value: 1",
          ]
        ),
      ]
      for (regions, expectedTail) in cases {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
          try db.execute(
            sql: """
              CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT);
              CREATE TABLE other(id INTEGER PRIMARY KEY AUTOINCREMENT);
              """)
        }
        let printed = PrintedEvents()
        let observation = printed.printing(
          ValueObservation.tracking(regions: regions, fetch: { db in try Table("t").fetchCount(db) }))
        let values = Shared(0)
        let cancellable = observation.start(in: dbQueue, scheduling: scheduler(immediate: false)) { _ in
        } onChange: { _ in
          values.update { $0 += 1 }
        }
        try await dbQueue.writeWithoutTransaction { db in
          try db.execute(sql: "INSERT INTO other DEFAULT VALUES; INSERT INTO t DEFAULT VALUES")
        }
        let expected = ["start", "fetch"] + expectedTail
        #expect(await eventually { printed.strings.count >= expected.count })
        #expect(printed.strings == expected)
        withExtendedLifetime(cancellable) {}
      }
    }

    @Test(
      "requiresWriteAccess prints start, fetch, region, value, then database did change, fetch, value",
      arguments: writerBackends, schedulings)
    func writeAccessSuccess(_ backend: ObservationBackend, _ immediate: Bool) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try backend.makeWriter(directory)
      try await writer.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
      let expectedRegion = try region("SELECT MAX(id) FROM player", in: writer)
      let printed = PrintedEvents()
      var observation = printed.printing(maxID)
      observation.requiresWriteAccess = true
      let values = Shared(0)
      let cancellable = observation.start(in: writer, scheduling: scheduler(immediate: immediate)) { _ in
      } onChange: { _ in
        if values.withLock({ count in
          count += 1
          return count
        }) == 1 {
          try! writer.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        }
      }
      #expect(await eventually { values.value == 2 })
      #expect(
        Array(printed.strings.prefix(7)) == [
          "start", "fetch", "tracked region: \(expectedRegion)", "value: nil", "database did change", "fetch",
          "value: Optional(1)",
        ])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "requiresWriteAccess: a failing first fetch prints start, fetch, failure; a failing later fetch prints it after the change",
      arguments: writerBackends, schedulings)
    func writeAccessFailures(_ backend: ObservationBackend, _ immediate: Bool) async throws {
      do {
        // No player table: the first fetch fails.
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let writer = try backend.makeWriter(directory)
        let printed = PrintedEvents()
        var observation = printed.printing(maxID)
        observation.requiresWriteAccess = true
        let failure = Shared<String?>(nil)
        let cancellable = observation.start(in: writer, scheduling: scheduler(immediate: immediate)) {
          error in
          failure.update { $0 = "\(error)" }
        } onChange: { _ in
        }
        #expect(await eventually { failure.value != nil })
        #expect(printed.strings == ["start", "fetch", "failure: \(failure.value ?? "")"])
        #expect(failure.value?.contains("no such table: player") == true)
        withExtendedLifetime(cancellable) {}
      }
      do {
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let writer = try backend.makeWriter(directory)
        try await writer.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        let expectedRegion = try region("SELECT MAX(id) FROM player", in: writer)
        let printed = PrintedEvents()
        var observation = printed.printing(maxID)
        observation.requiresWriteAccess = true
        let failure = Shared<String?>(nil)
        let cancellable = observation.start(in: writer, scheduling: scheduler(immediate: immediate)) {
          error in
          failure.update { $0 = "\(error)" }
        } onChange: { _ in
          try! writer.write { db in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES; DROP TABLE player")
          }
        }
        #expect(await eventually { failure.value != nil })
        #expect(
          printed.strings == [
            "start", "fetch", "tracked region: \(expectedRegion)", "value: nil", "database did change",
            "fetch",
            "failure: \(failure.value ?? "")",
          ])
        withExtendedLifetime(cancellable) {}
      }
    }

    @Test(
      "on a read-only database, an observation prints start, fetch and its one value or failure, and tracks no region",
      arguments: writerBackends, schedulings)
    func readOnlyDatabase(_ backend: ObservationBackend, _ immediate: Bool) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      do {
        let creator = try DatabasePool(path: directory.path())
        try await creator.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        try creator.close()
      }
      var configuration = Configuration()
      configuration.readonly = true
      let reader: any DatabaseReader =
        backend == .queue
        ? try DatabaseQueue(path: directory.path(), configuration: configuration)
        : try DatabasePool(path: directory.path(), configuration: configuration)

      let printed = PrintedEvents()
      let values = Shared(0)
      let cancellable = printed.printing(maxID).start(in: reader, scheduling: scheduler(immediate: immediate))
      {
        _ in
      } onChange: { _ in
        values.update { $0 += 1 }
      }
      #expect(await eventually { values.value == 1 })
      #expect(printed.strings == ["start", "fetch", "value: nil"])

      let failed = PrintedEvents()
      let failure = Shared<String?>(nil)
      let failing = failed.printing(
        ValueObservation.trackingConstantRegion { _ -> Int in throw ReadFailure() })
      let failingCancellable = failing.start(in: reader, scheduling: scheduler(immediate: immediate)) {
        error in
        failure.update { $0 = "\(error)" }
      } onChange: { _ in
      }
      #expect(await eventually { failure.value != nil })
      #expect(failed.strings == ["start", "fetch", "failure: \(failure.value ?? "")"])
      withExtendedLifetime((cancellable, failingCancellable)) {}
    }

    @Test("a region that changes from fetch to fetch is printed each time it changes")
    func varyingRegion() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in
        try db.execute(
          sql: """
            CREATE TABLE a(id INTEGER PRIMARY KEY);
            CREATE TABLE b(id INTEGER PRIMARY KEY);
            CREATE TABLE choice(t TEXT);
            INSERT INTO choice (t) VALUES ('a');
            """)
      }
      let regionA = try region("SELECT MAX(id) FROM a", in: dbQueue)
      let regionB = try region("SELECT MAX(id) FROM b", in: dbQueue)
      let printed = PrintedEvents()
      let observation = printed.printing(
        ValueObservation.tracking { db -> Int? in
          let table = try String.fetchOne(db, sql: "SELECT t FROM choice")!
          return try Int.fetchOne(db, sql: "SELECT MAX(id) FROM \(table)")
        })
      let values = Shared(0)
      let cancellable = observation.start(in: dbQueue, scheduling: scheduler(immediate: false)) { _ in
      } onChange: { _ in
        values.update { $0 += 1 }
        try! dbQueue.write { db in
          try db.execute(
            sql: "UPDATE choice SET t = 'b'; INSERT INTO a DEFAULT VALUES; INSERT INTO b DEFAULT VALUES")
        }
      }
      #expect(await eventually { values.value >= 3 })
      #expect(
        Array(printed.strings.prefix(11)) == [
          "start", "fetch", "tracked region: \(regionA),choice(t)", "value: nil", "database did change",
          "fetch",
          "tracked region: \(regionB),choice(t)", "value: Optional(1)", "database did change", "fetch",
          "value: Optional(2)",
        ])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "print's prefix starts each message; a print before map and removeDuplicates prints the values it sees")
    func prefixAndChain() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
      let expectedRegion = try region("SELECT MAX(id) FROM player", in: dbQueue)
      let first = PrintedEvents()
      let second = PrintedEvents()
      let prefixed = second.printing(first.printing(maxID, prefix: ""), prefix: "log")
      let values = Shared(0)
      var cancellable = prefixed.start(in: dbQueue, scheduling: scheduler(immediate: false)) { _ in
      } onChange: { _ in
        values.update { $0 += 1 }
      }
      #expect(await eventually { values.value == 1 })
      #expect(
        Array(first.strings.prefix(4)) == [
          "start", "fetch", "tracked region: \(expectedRegion)", "value: nil",
        ])
      #expect(
        Array(second.strings.prefix(4)) == [
          "log: start", "log: fetch", "log: tracked region: \(expectedRegion)", "log: value: nil",
        ])
      cancellable.cancel()

      let inner = PrintedEvents()
      let outer = PrintedEvents()
      let chained = outer.printing(inner.printing(maxID).removeDuplicates().map { _ in "foo" })
      cancellable = chained.start(in: dbQueue, scheduling: scheduler(immediate: false)) { _ in
      } onChange: { _ in
        values.update { $0 += 1 }
      }
      #expect(await eventually { values.value == 2 })
      #expect(
        Array(inner.strings.prefix(4)) == [
          "start", "fetch", "tracked region: \(expectedRegion)", "value: nil",
        ])
      #expect(
        Array(outer.strings.prefix(4)) == [
          "start", "fetch", "tracked region: \(expectedRegion)", "value: foo",
        ])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "each handleEvents callback runs for its own event only: once for start, region, failure and cancel")
    func handleEventsOneByOne() async throws {
      /// Starts `observation`, inserts a player from the first value (or, if
      /// `failing`, inserts one and drops the table), waits for the second
      /// value or the error, and cancels if `cancels`.
      func run<R: ValueReducer>(
        _ observation: ValueObservation<R>, failing: Bool = false, cancels: Bool = false
      )
        async throws
      {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        let values = Shared(0)
        let errors = Shared(0)
        let cancellable = observation.start(in: dbQueue, scheduling: scheduler(immediate: false)) { _ in
          errors.update { $0 += 1 }
        } onChange: { _ in
          let count = values.withLock { count in
            count += 1
            return count
          }
          guard count == 1, !cancels else { return }
          try! dbQueue.write { db in
            try db.execute(
              sql: failing
                ? "INSERT INTO player DEFAULT VALUES; DROP TABLE player" : "INSERT INTO player DEFAULT VALUES"
            )
          }
        }
        #expect(await eventually { failing ? errors.value == 1 : values.value == (cancels ? 1 : 2) })
        if cancels { cancellable.cancel() }
        withExtendedLifetime(cancellable) {}
      }
      let log = Shared<[String]>([])
      let record: @Sendable (String) -> Void = { event in log.update { $0.append(event) } }
      func take() -> [String] {
        log.withLock { log in
          defer { log = [] }
          return log
        }
      }
      try await run(maxID.handleEvents(willStart: { record("start") }))
      #expect(take() == ["start"])
      try await run(maxID.handleEvents(willTrackRegion: { _ in record("region") }))
      #expect(take() == ["region"])
      try await run(maxID.handleEvents(databaseDidChange: { record("change") }))
      #expect(take().first == "change")
      try await run(maxID.handleEvents(willFetch: { record("fetch") }))
      #expect(take().prefix(2) == ["fetch", "fetch"])
      try await run(maxID.handleEvents(didReceiveValue: { _ in record("value") }))
      #expect(take().prefix(2) == ["value", "value"])
      try await run(maxID.handleEvents(didFail: { _ in record("error") }), failing: true)
      #expect(take() == ["error"])
      try await run(maxID.handleEvents(didCancel: { record("cancel") }), cancels: true)
      #expect(take() == ["cancel"])
    }

    @Test(
      "on a pool, a commit during the first fetch gives a second fetch and value; both print the same events as GRDB",
      arguments: [ObservationBackend.pool, .encryptedPool], schedulings)
    func poolCommitDuringFirstFetch(_ backend: ObservationBackend, _ immediate: Bool) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try backend.makeWriter(directory)
      try await writer.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
      let expectedRegion = try region("SELECT MAX(id) FROM player", in: writer)
      let writesOnce = Shared(true)
      let printed = PrintedEvents()
      let observation = printed.printing(
        ValueObservation.trackingConstantRegion { db -> Int? in
          let writes = writesOnce.withLock { writes in
            defer { writes = false }
            return writes
          }
          if writes {
            try writer.write { db in
              try db.execute(sql: "INSERT INTO player DEFAULT VALUES; DELETE FROM player")
            }
          }
          return try Int.fetchOne(db, sql: "SELECT MAX(id) FROM player")
        })
      let values = Shared(0)
      let cancellable = observation.start(in: writer, scheduling: scheduler(immediate: immediate)) { _ in
      } onChange: { _ in
        values.update { $0 += 1 }
      }
      #expect(await eventually { values.value == 2 })
      #expect(
        printed.strings.sorted() == [
          "database did change", "fetch", "fetch", "start", "tracked region: \(expectedRegion)", "value: nil",
          "value: nil",
        ])
      withExtendedLifetime(cancellable) {}
    }
  }
}
