import Dispatch
import Foundation
import Sealite
import Synchronization
import Testing

private func makeWriter(_ backend: ObservationBackend, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try backend.makeWriter(directory)
  try writer.write { db in try db.execute(sql: observationSchema) }
  return writer
}

/// Starts observations and keeps what they deliver.
final class ValueRecorder<Value: Sendable>: Sendable {
  let values = Locked<[Value]>([])
  let errors = Locked<[any Error]>([])
  /// The queue values are delivered on (unless the test picks a scheduler).
  let queue = DispatchQueue(label: "Sealite.tests.ValueRecorder")
  /// Runs on each value, before it is recorded (a slow consumer sleeps here).
  let consume: (@Sendable (Value) -> Void)?

  init(consume: (@Sendable (Value) -> Void)? = nil) {
    self.consume = consume
  }

  var last: Value? { values.value.last }

  func start<Reducer: ValueReducer>(
    _ observation: ValueObservation<Reducer>, in reader: some DatabaseReader,
    scheduling scheduler: (any ValueObservationScheduler)? = nil
  ) -> AnyDatabaseCancellable where Reducer.Value == Value {
    let scheduler: any ValueObservationScheduler = scheduler ?? .async(onQueue: queue)
    return observation.start(in: reader, scheduling: scheduler) { error in
      self.errors.withLock { $0.append(error) }
    } onChange: { value in
      self.consume?(value)
      self.values.withLock { $0.append(value) }
    }
  }
}

private func insertPlayer(_ writer: some DatabaseWriter, id: Int, score: Int = 0) async throws {
  try await writer.write { db in
    try db.execute(
      sql: "INSERT INTO player (id, name, score) VALUES (?, ?, ?)", arguments: [id, "P\(id)", score])
  }
}

private let mainQueueKey = DispatchSpecificKey<Bool>()

/// The number of rows of `table`, read from a column: unlike `COUNT(*)`, whose
/// region is the whole database before SQLite 3.19, its region is the table.
private func rowCount(_ db: Database, _ table: String) throws -> Int {
  try Int64.fetchAll(db, sql: "SELECT id FROM \(table)").count
}

private let playerCount = ValueObservation.tracking { db in try rowCount(db, "player") }

extension ObservationTests {
  @Suite("ValueObservation")
  struct ValueObservationTests {
    // MARK: - Values

    @Test(
      "tracking delivers the current value, then a fresh value after each transaction that changed it",
      arguments: ObservationBackend.allCases)
    func freshValues(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(playerCount, in: writer)
      #expect(await eventually { recorder.values.value == [0] })
      try await insertPlayer(writer, id: 1)
      #expect(await eventually { recorder.values.value == [0, 1] })
      try await writer.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara'), (3, 'Craig')")
        try db.execute(sql: "UPDATE player SET score = 1")
      }
      #expect(await eventually { recorder.last == 3 })
      try await writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('red')") }
      try await insertPlayer(writer, id: 4)
      #expect(await eventually { recorder.last == 4 })
      #expect(recorder.values.value == [0, 1, 3, 4])
      #expect(recorder.errors.value.isEmpty)
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      ".immediate delivers the first value before start returns, and later values on the main queue",
      arguments: ObservationBackend.allCases)
    func immediateScheduling(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      try await insertPlayer(writer, id: 1)
      // The main queue is not always drained by the main thread: recognize it by a mark.
      DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
      let values = Locked<[Int]>([])
      let onMainQueue = Locked<[Bool]>([])
      let cancellable = playerCount.start(in: writer, scheduling: anyImmediate) { _ in
      } onChange: { value in
        values.withLock { $0.append(value) }
        onMainQueue.withLock { $0.append(DispatchQueue.getSpecific(key: mainQueueKey) == true) }
      }
      #expect(values.value == [1])
      try await insertPlayer(writer, id: 2)
      #expect(await eventually { values.value == [1, 2] })
      #expect(onMainQueue.value.last == true)
      withExtendedLifetime(cancellable) {}
    }

    @Test(".async(onQueue:) delivers every value on that queue, none before start returns")
    func asyncScheduling() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let queue = DispatchQueue(label: "Sealite.tests.delivery")
      let key = DispatchSpecificKey<Bool>()
      queue.setSpecific(key: key, value: true)
      let onQueue = Locked<[Bool]>([])
      // Held until start returned: a value delivered synchronously would show up.
      queue.suspend()
      let cancellable = playerCount.start(in: dbQueue, scheduling: .async(onQueue: queue)) { _ in
      } onChange: { _ in
        onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
      }
      #expect(onQueue.value.isEmpty)
      queue.resume()
      #expect(await eventually { onQueue.value.count == 1 })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { onQueue.value.count == 2 })
      #expect(onQueue.value == [true, true])
      withExtendedLifetime(cancellable) {}
    }

    // MARK: - Regions

    @Test("trackingConstantRegion keeps the region of its first fetch; tracking follows each fetch")
    func constantAndVaryingRegions() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      // Reads team only once there are players.
      let fetch: @Sendable (Database) throws -> [Int] = { db in
        let players = try rowCount(db, "player")
        return [players, players > 0 ? try rowCount(db, "team") : -1]
      }
      let constantChanges = Locked(0)
      let varyingChanges = Locked(0)
      let constant = ValueRecorder<[Int]>()
      let varying = ValueRecorder<[Int]>()
      let constantCancellable = constant.start(
        ValueObservation.trackingConstantRegion(fetch).handleEvents(databaseDidChange: {
          constantChanges.withLock { $0 += 1 }
        }), in: dbQueue)
      let varyingCancellable = varying.start(
        ValueObservation.tracking(fetch).handleEvents(databaseDidChange: {
          varyingChanges.withLock { $0 += 1 }
        }), in: dbQueue)
      #expect(await eventually { constant.last == [0, -1] && varying.last == [0, -1] })

      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { constant.last == [1, 0] && varying.last == [1, 0] })

      let constantBefore = constantChanges.value
      let varyingBefore = varyingChanges.value
      try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('red')") }
      // Observers hear of commits synchronously: the counts are final once the write returned.
      #expect(constantChanges.value == constantBefore)
      #expect(varyingChanges.value == varyingBefore + 1)
      #expect(await eventually { varying.last == [1, 1] })

      try await insertPlayer(dbQueue, id: 2)
      #expect(await eventually { constant.last == [2, 1] && varying.last == [2, 1] })
      #expect(!constant.values.value.contains([1, 1]))
      withExtendedLifetime((constantCancellable, varyingCancellable)) {}
    }

    @Test("tracking(region:fetch:) refreshes on changes of the given regions only")
    func explicitRegion() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let changes = Locked(0)
      let single = ValueObservation.tracking(
        region: Table("team"), fetch: { db in try ObservedPlayer.fetchCount(db) }
      )
      .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
      let several = ValueObservation.tracking(
        regions: [Table("team"), Table("log")], fetch: { db in try ObservedPlayer.fetchCount(db) })
      let singleRecorder = ValueRecorder<Int>()
      let severalRecorder = ValueRecorder<Int>()
      let cancellables = [
        singleRecorder.start(single, in: dbQueue), severalRecorder.start(several, in: dbQueue),
      ]
      #expect(await eventually { singleRecorder.last == 0 && severalRecorder.last == 0 })
      try await insertPlayer(dbQueue, id: 1)
      #expect(changes.value == 0)
      try await dbQueue.write { db in try db.execute(sql: "INSERT INTO log (message) VALUES ('x')") }
      #expect(changes.value == 0)
      #expect(await eventually { severalRecorder.last == 1 })
      try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('red')") }
      #expect(changes.value == 1)
      #expect(await eventually { singleRecorder.values.value == [0, 1] })
      withExtendedLifetime(cancellables) {}
    }

    @Test(
      "an observation of the region of Player.filter(key: 1) is not refreshed by an update of rowid 2",
      arguments: ObservationBackend.allCases)
    func rowIDPrecision(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      try await insertPlayer(writer, id: 1)
      try await insertPlayer(writer, id: 2)
      let changes = Locked(0)
      let request = ObservedPlayer.filter(key: 1)
      let observation = ValueObservation.tracking(region: request, fetch: { db in try request.fetchOne(db) })
        .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
      let recorder = ValueRecorder<ObservedPlayer?>()
      let cancellable = recorder.start(observation, in: writer)
      #expect(await eventually { recorder.values.value.count == 1 })
      try await writer.write { db in try db.execute(sql: "UPDATE player SET score = 5 WHERE id = 2") }
      #expect(changes.value == 0)
      try await writer.write { db in try db.execute(sql: "UPDATE player SET score = 7 WHERE id = 1") }
      #expect(changes.value == 1)
      #expect(await eventually { recorder.last??.score == 7 })
      #expect(recorder.values.value.map { $0?.score } == [0, 7])
      withExtendedLifetime(cancellable) {}
    }

    @Test("a fetch of Player.filter(key: 1) records a region restricted to rowid 1")
    func recordedRowIDPrecision() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in
        try db.execute(sql: observationSchema)
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
      }
      let changes = Locked(0)
      let observation = ValueObservation.tracking { db in try ObservedPlayer.filter(key: 1).fetchOne(db) }
        .handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
      let recorder = ValueRecorder<ObservedPlayer?>()
      let cancellable = recorder.start(observation, in: dbQueue)
      #expect(await eventually { recorder.values.value.count == 1 })
      try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 5 WHERE id = 2") }
      #expect(changes.value == 0)
      try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 7 WHERE id = 1") }
      #expect(await eventually { recorder.last??.score == 7 })
      withExtendedLifetime(cancellable) {}
    }

    @Test("updating a column outside of the selected columns does not refresh the observation")
    func columnPrecision() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      try await insertPlayer(dbQueue, id: 1)
      let changes = Locked(0)
      let observation = ValueObservation.tracking { db in
        try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
      }.handleEvents(databaseDidChange: { changes.withLock { $0 += 1 } })
      let recorder = ValueRecorder<[String]>()
      let cancellable = recorder.start(observation, in: dbQueue)
      #expect(await eventually { recorder.values.value == [["P1"]] })
      try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 10, teamId = NULL") }
      #expect(changes.value == 0)
      try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Arthur'") }
      #expect(changes.value == 1)
      #expect(await eventually { recorder.values.value == [["P1"], ["Arthur"]] })
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "writes the update hook does not report refresh the observation",
      arguments: ObservationBackend.allCases, HiddenWrite.all)
    func hiddenWrites(_ backend: ObservationBackend, _ write: HiddenWrite) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      try await writer.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        try db.execute(sql: write.setup)
      }
      let table = write.observedTable
      let initial = try await writer.read { db in try Table(table).fetchCount(db) }
      #expect(initial != write.expectedCount)
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(
        ValueObservation.tracking { db in try Table(table).fetchCount(db) }, in: writer)
      #expect(await eventually { recorder.values.value == [initial] })
      try await writer.write { db in try db.execute(sql: write.sql) }
      #expect(await eventually { recorder.last == write.expectedCount })
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "requests that read no column, like COUNT(*), observe their table",
      arguments: ObservationBackend.allCases,
      [
        "SELECT COUNT(*) FROM player", "SELECT EXISTS (SELECT 1 FROM player)", "fetchCount",
      ])
    func countObservation(_ backend: ObservationBackend, _ sql: String) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let observation = ValueObservation.tracking { db in
        sql == "fetchCount" ? try ObservedPlayer.fetchCount(db) : try Int.fetchOne(db, sql: sql) ?? -1
      }
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(observation, in: writer)
      #expect(await eventually { recorder.values.value == [0] })
      try await insertPlayer(writer, id: 1)
      #expect(await eventually { recorder.last == 1 })
      withExtendedLifetime(cancellable) {}
    }

    // MARK: - Errors and cancellation

    @Test(
      "an error thrown by the fetch reaches onError and ends the observation",
      arguments: ObservationBackend.allCases)
    func fetchError(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let observation = ValueObservation.tracking { db in
        let count = try ObservedPlayer.fetchCount(db)
        if count == 2 { throw TestError(id: count) }
        return count
      }
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(observation, in: writer)
      #expect(await eventually { recorder.values.value == [0] })
      try await insertPlayer(writer, id: 1)
      #expect(await eventually { recorder.values.value == [0, 1] })
      try await insertPlayer(writer, id: 2)
      #expect(await eventually { recorder.errors.value.count == 1 })
      #expect(recorder.errors.value.first as? TestError == TestError(id: 2))
      // Ended: no observer is left, and later changes deliver nothing.
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      try await insertPlayer(writer, id: 3)
      await drain(recorder.queue)
      #expect(recorder.values.value == [0, 1])
      #expect(recorder.errors.value.count == 1)
      withExtendedLifetime(cancellable) {}
    }

    @Test("a database error of the first fetch reaches onError")
    func firstFetchError() async throws {
      let dbQueue = try DatabaseQueue()
      let recorder = ValueRecorder<[Row]>()
      let cancellable = recorder.start(
        ValueObservation.tracking { db in try Row.fetchAll(db, sql: "SELECT * FROM nowhere") }, in: dbQueue)
      #expect(await eventually { recorder.errors.value.count == 1 })
      #expect(recorder.errors.value.first is DatabaseError)
      #expect(recorder.values.value.isEmpty)

      // With .immediate, the error comes before start returns.
      let immediate = ValueRecorder<[Row]>()
      let immediateCancellable = immediate.start(
        ValueObservation.tracking { db in try Row.fetchAll(db, sql: "SELECT * FROM nowhere") }, in: dbQueue,
        scheduling: .immediate)
      #expect(immediate.errors.value.count == 1)
      withExtendedLifetime((cancellable, immediateCancellable)) {}
    }

    @Test("cancelling from onChange stops the observation at once")
    func cancelFromOnChange() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let values = Locked<[Int]>([])
      let cancellable = Locked<AnyDatabaseCancellable?>(nil)
      let queue = DispatchQueue(label: "Sealite.tests.delivery")
      let started = playerCount.start(in: dbQueue, scheduling: .async(onQueue: queue)) { _ in
      } onChange: { value in
        values.withLock { $0.append(value) }
        if value == 1 { cancellable.value?.cancel() }
      }
      cancellable.withLock { $0 = started }
      #expect(await eventually { values.value == [0] })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { values.value == [0, 1] })
      try await insertPlayer(dbQueue, id: 2)
      try await insertPlayer(dbQueue, id: 3)
      #expect(try await eventually { try !hasTransactionObservers(dbQueue) })
      await drain(queue)
      #expect(values.value == [0, 1])
    }

    @Test(
      "cancel() stops the values, and so does releasing the AnyDatabaseCancellable",
      arguments: ObservationBackend.allCases)
    func cancellation(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let cancelled = Locked(0)
      let observation = playerCount.handleEvents(didCancel: { cancelled.withLock { $0 += 1 } })

      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(observation, in: writer)
      #expect(await eventually { recorder.values.value == [0] })
      cancellable.cancel()
      cancellable.cancel()
      #expect(cancelled.value == 1)
      try await insertPlayer(writer, id: 1)
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      await drain(recorder.queue)
      #expect(recorder.values.value == [0])

      let released = ValueRecorder<Int>()
      var releasedCancellable: AnyDatabaseCancellable? = released.start(observation, in: writer)
      #expect(await eventually { released.values.value == [1] })
      #expect(releasedCancellable != nil)
      releasedCancellable = nil
      #expect(cancelled.value == 2)
      try await insertPlayer(writer, id: 2)
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      await drain(released.queue)
      #expect(released.values.value == [1])
    }

    // MARK: - Reducers and events

    @Test("removeDuplicates() drops values equal to the previous one")
    func removeDuplicates() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      try await insertPlayer(dbQueue, id: 1, score: 100)
      let fetched = Locked<[Int]>([])
      let maxScore = ValueObservation.tracking { db in
        let score = try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") ?? 0
        fetched.withLock { $0.append(score) }
        return score
      }
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(maxScore.removeDuplicates(), in: dbQueue)
      #expect(await eventually { recorder.values.value == [100] })
      try await insertPlayer(dbQueue, id: 2, score: 50)
      #expect(await eventually { fetched.value == [100, 100] })
      try await insertPlayer(dbQueue, id: 3, score: 200)
      #expect(await eventually { recorder.last == 200 })
      #expect(recorder.values.value == [100, 200])
      withExtendedLifetime(cancellable) {}
    }

    @Test("removeDuplicates(by:) drops values the predicate calls equal to the previous one")
    func removeDuplicatesBy() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let fetched = Locked<[[String]]>([])
      let names = ValueObservation.tracking { db in
        let names = try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
        fetched.withLock { $0.append(names) }
        return names
      }
      let recorder = ValueRecorder<[String]>()
      let cancellable = recorder.start(names.removeDuplicates(by: { $0.count == $1.count }), in: dbQueue)
      #expect(await eventually { recorder.values.value == [[]] })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { recorder.values.value == [[], ["P1"]] })
      try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Arthur'") }
      #expect(await eventually { fetched.value.count == 3 })
      try await insertPlayer(dbQueue, id: 2)
      #expect(await eventually { recorder.values.value.count == 3 })
      #expect(recorder.values.value == [[], ["P1"], ["Arthur", "P2"]])
      withExtendedLifetime(cancellable) {}
    }

    @Test("map transforms each value")
    func map() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let recorder = ValueRecorder<String>()
      let cancellable = recorder.start(
        playerCount.map { "\($0) players" }.map { $0.uppercased() }, in: dbQueue)
      #expect(await eventually { recorder.values.value == ["0 PLAYERS"] })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { recorder.values.value == ["0 PLAYERS", "1 PLAYERS"] })
      withExtendedLifetime(cancellable) {}
    }

    @Test("an error thrown by map reaches onError")
    func mapError() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let recorder = ValueRecorder<Int>()
      let observation = playerCount.map { count in
        if count > 0 { throw TestError(id: 7) }
        return count
      }
      let cancellable = recorder.start(observation, in: dbQueue)
      #expect(await eventually { recorder.values.value == [0] })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { recorder.errors.value.count == 1 })
      #expect(recorder.errors.value.first as? TestError == TestError(id: 7))
      withExtendedLifetime(cancellable) {}
    }

    @Test("handleEvents reports the start, fetches, region, changes, values, errors and cancellation")
    func handleEvents() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let events = Locked<[String]>([])
      let log: @Sendable (String) -> Void = { event in events.withLock { $0.append(event) } }
      let observation = playerCount.handleEvents(
        willStart: { log("start") },
        willFetch: { log("fetch") },
        willTrackRegion: { region in
          log(region.isModified(byEventsOfKind: .insert(tableName: "player")) ? "region player" : "region ?")
        },
        databaseDidChange: { log("change") },
        didReceiveValue: { log("value \($0)") },
        didFail: { log("failure \($0)") },
        didCancel: { log("cancel") })
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(observation, in: dbQueue)
      #expect(await eventually { recorder.values.value == [0] })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { recorder.values.value == [0, 1] })
      cancellable.cancel()
      let heard = events.value
      #expect(heard.first == "start")
      #expect(heard.last == "cancel")
      #expect(heard.contains("region player"))
      #expect(heard.count { $0 == "fetch" } >= 2)
      let order = ["value 0", "change", "value 1", "cancel"].map { heard.firstIndex(of: $0) ?? -1 }
      #expect(order.allSatisfy { $0 >= 0 } && order == order.sorted())

      let failures = Locked<[String]>([])
      let failing = ValueObservation.tracking { _ -> Int in throw TestError(id: 9) }
        .handleEvents(didFail: { error in failures.withLock { $0.append("\(error)") } })
      let failingRecorder = ValueRecorder<Int>()
      let failingCancellable = failingRecorder.start(failing, in: dbQueue)
      #expect(await eventually { failingRecorder.errors.value.count == 1 })
      #expect(failures.value.count == 1)
      withExtendedLifetime(failingCancellable) {}
    }

    @Test("print() writes each event, after the prefix")
    func printEvents() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let stream = RecordingStream()
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(playerCount.print("players", to: stream), in: dbQueue)
      #expect(await eventually { recorder.values.value == [0] })
      try await insertPlayer(dbQueue, id: 1)
      #expect(await eventually { recorder.values.value == [0, 1] })
      cancellable.cancel()
      let lines = stream.lines
      #expect(lines.first == "players: start")
      #expect(lines.last == "players: cancel")
      for expected in [
        "players: fetch", "players: value: 0", "players: database did change", "players: value: 1",
      ] {
        #expect(lines.contains(expected))
      }
      #expect(lines.contains { $0.hasPrefix("players: tracked region: ") })
    }

    // MARK: - Where values are fetched

    @Test(
      "requiresWriteAccess fetches on the writer connection, in a transaction",
      arguments: ObservationBackend.allCases)
    func requiresWriteAccess(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      struct Fetched: Equatable, Sendable {
        var count: Int
        var isReadOnly: Bool
        var isInsideTransaction: Bool
      }
      var observation = ValueObservation.tracking { db in
        // A write, which a read-only access would refuse.
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS fetchLog (id INTEGER PRIMARY KEY)")
        try db.execute(sql: "INSERT INTO fetchLog DEFAULT VALUES")
        return Fetched(
          count: try rowCount(db, "player"), isReadOnly: db.isReadOnly,
          isInsideTransaction: db.isInsideTransaction)
      }
      observation.requiresWriteAccess = true
      for scheduler in [
        anyImmediate, .async(onQueue: DispatchQueue(label: "delivery")),
      ] as [any ValueObservationScheduler] {
        let recorder = ValueRecorder<Fetched>()
        let cancellable = recorder.start(observation, in: writer, scheduling: scheduler)
        #expect(await eventually { recorder.last?.count == 0 || !recorder.errors.value.isEmpty })
        #expect(recorder.errors.value.isEmpty)
        let count = recorder.last?.count ?? -1
        try await insertPlayer(writer, id: count + 1)
        #expect(await eventually { recorder.last?.count == count + 1 })
        #expect(recorder.values.value.allSatisfy { !$0.isReadOnly && $0.isInsideTransaction })
        cancellable.cancel()
        try await writer.write { db in try db.execute(sql: "DELETE FROM player") }
      }
    }

    @Test(
      "on a pool, values are fetched on reader connections, off the writer",
      arguments: [
        ObservationBackend.pool, .encryptedPool,
      ])
    func poolFetchesOnReaders(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let observation = ValueObservation.tracking { db in
        [try ObservedPlayer.fetchCount(db), db.isReadOnly ? 1 : 0]
      }
      for scheduler in [
        anyImmediate, .async(onQueue: DispatchQueue(label: "delivery")),
      ] as [any ValueObservationScheduler] {
        let recorder = ValueRecorder<[Int]>()
        let cancellable = recorder.start(observation, in: writer, scheduling: scheduler)
        #expect(await eventually { recorder.values.value.count == 1 })
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
        #expect(await eventually { recorder.values.value.count == 2 })
        #expect(recorder.values.value.allSatisfy { $0[1] == 1 })
        withExtendedLifetime(cancellable) {}
      }
    }

    // MARK: - Ordering and freshness

    @Test(
      "values follow commit order: 200 fast commits give a non-decreasing sequence that ends with the final state",
      arguments: ObservationBackend.allCases)
    func ordering(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(playerCount, in: writer)
      for id in 1...200 {
        try await insertPlayer(writer, id: id)
      }
      #expect(await eventually { recorder.last == 200 })
      let values = recorder.values.value
      #expect(values == values.sorted())
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "the first value reflects every transaction committed before start, while another task keeps writing",
      arguments: ObservationBackend.allCases)
    func firstValueIsFresh(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let committed = Locked(0)
      let total = 300
      // The writes run on a thread of their own, with the blocking API: they
      // go on while the test waits, even when the parallel run keeps every
      // thread of Swift's cooperative pool busy.
      let writeError = Locked<(any Error)?>(nil)
      Thread.detachNewThread {
        do {
          for id in 1...total {
            try writer.write { db in
              try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [id, "P\(id)"])
            }
            committed.withLock { $0 = id }
          }
        } catch {
          writeError.withLock { $0 = error }
        }
      }
      #expect(await eventually { committed.value >= 20 })

      let committedBeforeImmediate = committed.value
      let immediate = ValueRecorder<Int>()
      let immediateCancellable = immediate.start(playerCount, in: writer, scheduling: .immediate)
      let first = try #require(immediate.values.value.first)
      #expect(first >= committedBeforeImmediate)

      let committedBeforeAsync = committed.value
      let later = ValueRecorder<Int>()
      let laterCancellable = later.start(playerCount, in: writer)
      #expect(await eventually { !later.values.value.isEmpty })
      #expect(later.values.value[0] >= committedBeforeAsync)

      #expect(await eventually { committed.value == total || writeError.value != nil })
      if let error = writeError.value { throw error }
      #expect(await eventually { immediate.last == total && later.last == total })
      for values in [immediate.values.value, later.values.value] {
        #expect(values == values.sorted())
      }
      withExtendedLifetime((immediateCancellable, laterCancellable)) {}
    }

    @Test(
      "debounce: with a slow consumer of 2,000 transactions, at most one value per interval, and the last is the final count",
      arguments: ObservationBackend.allCases)
    func debounce(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let recorder = ValueRecorder<Int>(consume: { _ in Thread.sleep(forTimeInterval: 0.01) })
      let observation = ValueObservation.tracking { db in try Table("log").fetchCount(db) }.debounce(
        for: 0.05)
      let cancellable = recorder.start(observation, in: writer)
      let commits = 2000
      let started = ContinuousClock.now
      for _ in 0..<commits {
        try await writer.write { db in try db.execute(sql: "INSERT INTO log (message) VALUES ('x')") }
      }
      #expect(await eventually { recorder.last == commits })
      let elapsed = ContinuousClock.now - started
      let values = recorder.values.value
      // At most one fetch per 50 ms interval (plus the first, and the last of
      // the interval that ends after the writes): a bound that holds however
      // slowly a loaded machine makes the commits.
      let intervals = Int((elapsed / .milliseconds(50)).rounded(.up))
      #expect(values.count <= intervals + 2, "\(values.count) values in \(elapsed)")
      #expect(values.count < commits, "every commit gave a value: nothing was debounced")
      #expect(values == values.sorted())
      withExtendedLifetime(cancellable) {}
    }
  }
}
