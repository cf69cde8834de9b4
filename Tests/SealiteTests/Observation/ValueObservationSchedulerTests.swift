import Dispatch
import Foundation
import Sealite
import Testing

/// A mark on a dispatch queue, so that a callback can tell which queue runs it.
private struct QueueMark: Sendable {
  let key = DispatchSpecificKey<Bool>()

  init(_ queue: DispatchQueue) {
    queue.setSpecific(key: key, value: true)
  }

  var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// A value delivered to `onChange`, with whether the marked queue ran the callback.
private struct Delivery: Sendable, Equatable {
  var value: Int
  var onMarkedQueue: Bool
}

private func makePlayerQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in try db.execute(sql: observationSchema) }
  return dbQueue
}

private func insertPlayer(_ writer: some DatabaseWriter, id: Int) async throws {
  try await writer.write { db in
    try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [id, "P\(id)"])
  }
}

private let playerCount = ValueObservation.tracking { db in try ObservedPlayer.fetchCount(db) }

/// A scheduler of a user's: every action on a queue of its own, counted.
private struct CountingScheduler: ValueObservationScheduler {
  let queue = DispatchQueue(label: "Sealite.tests.custom-scheduler")
  let scheduled = Locked(0)
  let immediate: Bool

  func immediateInitialValue() -> Bool { immediate }

  func schedule(_ action: @escaping @Sendable () -> Void) {
    scheduled.withLock { $0 += 1 }
    queue.async(execute: action)
  }
}

/// A scheduler of a user's that runs every action at once, where it is given.
private struct SynchronousScheduler: ValueObservationScheduler {
  let immediate: Bool

  func immediateInitialValue() -> Bool { immediate }

  func schedule(_ action: @escaping @Sendable () -> Void) {
    action()
  }
}

/// A main-actor scheduler of a user's: every action later on the main queue, counted.
private final class CountingMainActorScheduler: ValueObservationMainActorScheduler {
  let scheduled = Locked(0)

  func immediateInitialValue() -> Bool { false }

  func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
    scheduled.withLock { $0 += 1 }
    DispatchQueue.main.async { MainActor.assumeIsolated(action) }
  }
}

/// State of the main actor, which main-actor callbacks change without a lock.
@MainActor private final class MainActorValues {
  var values: [Int] = []
}

extension ObservationTests {
  @Suite("ValueObservation schedulers")
  struct ValueObservationSchedulerTests {
    @Test("immediate, off the main actor, delivers the first value in start and later ones on the main queue")
    func immediate() async throws {
      let dbQueue = try makePlayerQueue()
      let main = QueueMark(.main)
      let values = Locked<[Int]>([])
      let later = ObservationInbox<Delivery>()
      // As any scheduler: the literal `.immediate` selects the main-actor `start`.
      let cancellable = playerCount.start(in: dbQueue, scheduling: anyImmediate) { error in
        Issue.record(error)
      } onChange: { value in
        values.withLock { $0.append(value) }
        if value > 0 { later.send(Delivery(value: value, onMarkedQueue: main.isCurrent)) }
      }
      #expect(values.value == [0])
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await later.next() == Delivery(value: 1, onMarkedQueue: true))
      cancellable.cancel()
    }

    @Test("async(onQueue:) delivers every value on its queue, the first one after start returned")
    func asyncOnQueue() async throws {
      let dbQueue = try makePlayerQueue()
      let queue = DispatchQueue(label: "Sealite.tests.async-scheduler")
      let mark = QueueMark(queue)
      let deliveries = ObservationInbox<Delivery>()
      // Suspended, the queue holds the first value until the test looked.
      queue.suspend()
      let cancellable = playerCount.start(in: dbQueue, scheduling: .async(onQueue: queue)) { error in
        Issue.record(error)
      } onChange: { value in
        deliveries.send(Delivery(value: value, onMarkedQueue: mark.isCurrent))
      }
      #expect(deliveries.pending.isEmpty)
      queue.resume()
      #expect(try await deliveries.next() == Delivery(value: 0, onMarkedQueue: true))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await deliveries.next() == Delivery(value: 1, onMarkedQueue: true))
      cancellable.cancel()
    }

    @Test(
      "task and task(priority:) deliver every value in order, none before start returns",
      arguments: [TaskPriority?.none, .high, .low])
    func task(_ priority: TaskPriority?) async throws {
      let dbQueue = try makePlayerQueue()
      let scheduler: TaskValueObservationScheduler =
        if let priority { .task(priority: priority) } else { .task }
      #expect(scheduler.immediateInitialValue() == false)
      let values = ObservationInbox<Int>()
      let cancellable = playerCount.start(in: dbQueue, scheduling: scheduler) { error in
        Issue.record(error)
      } onChange: { value in
        values.send(value)
      }
      var received = [try await values.next()]
      for id in 1...3 {
        try await insertPlayer(dbQueue, id: id)
        received.append(try await values.next())
      }
      #expect(received == [0, 1, 2, 3])
      cancellable.cancel()
    }

    @Test("mainActor delivers every value on the main actor, the first one after start returned")
    func mainActor() async throws {
      let dbQueue = try makePlayerQueue()
      let main = QueueMark(.main)
      let deliveries = ObservationInbox<Delivery>()
      // As any scheduler: the literal `.mainActor` selects the main-actor `start`.
      let scheduler: any ValueObservationScheduler = .mainActor
      #expect(scheduler.immediateInitialValue() == false)
      let cancellable = playerCount.start(in: dbQueue, scheduling: scheduler) { error in
        Issue.record(error)
      } onChange: { value in
        MainActor.assumeIsolated {
          deliveries.send(Delivery(value: value, onMarkedQueue: main.isCurrent))
        }
      }
      #expect(try await deliveries.next() == Delivery(value: 0, onMarkedQueue: true))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await deliveries.next() == Delivery(value: 1, onMarkedQueue: true))
      cancellable.cancel()
    }

    @Test("on the main actor, start delivers to main-actor callbacks, by default later on the main actor")
    @MainActor
    func mainActorStart() async throws {
      let dbQueue = try makePlayerQueue()
      let state = MainActorValues()
      let changes = ObservationInbox<Int>()
      let cancellable = playerCount.start(in: dbQueue) { error in
        Issue.record(error)
      } onChange: { value in
        state.values.append(value)
        changes.send(value)
      }
      #expect(state.values.isEmpty)
      #expect(try await changes.next() == 0)
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await changes.next() == 1)
      #expect(state.values == [0, 1])
      cancellable.cancel()
    }

    @Test("on the main actor, start with .immediate sets main-actor state before it returns")
    @MainActor
    func mainActorImmediateStart() async throws {
      let dbQueue = try makePlayerQueue()
      let state = MainActorValues()
      let changes = ObservationInbox<Int>()
      let cancellable = playerCount.start(in: dbQueue, scheduling: .immediate) { error in
        Issue.record(error)
      } onChange: { value in
        state.values.append(value)
        changes.send(value)
      }
      #expect(state.values == [0])
      #expect(try await changes.next() == 0)
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await changes.next() == 1)
      #expect(state.values == [0, 1])
      cancellable.cancel()
    }

    @Test("a scheduler of the user's receives every delivery, and runs it where it wants")
    func customScheduler() async throws {
      let dbQueue = try makePlayerQueue()
      let scheduler = CountingScheduler(immediate: false)
      let mark = QueueMark(scheduler.queue)
      let deliveries = ObservationInbox<Delivery>()
      let cancellable = playerCount.start(in: dbQueue, scheduling: scheduler) { error in
        Issue.record(error)
      } onChange: { value in
        deliveries.send(Delivery(value: value, onMarkedQueue: mark.isCurrent))
      }
      #expect(try await deliveries.next() == Delivery(value: 0, onMarkedQueue: true))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await deliveries.next() == Delivery(value: 1, onMarkedQueue: true))
      #expect(scheduler.scheduled.value == 2)
      cancellable.cancel()
    }

    @Test("a scheduler of the user's whose first value is immediate gets it before start returns")
    func customImmediateScheduler() async throws {
      let dbQueue = try makePlayerQueue()
      let scheduler = CountingScheduler(immediate: true)
      let mark = QueueMark(scheduler.queue)
      let values = Locked<[Int]>([])
      let deliveries = ObservationInbox<Delivery>()
      let cancellable = playerCount.start(in: dbQueue, scheduling: scheduler) { error in
        Issue.record(error)
      } onChange: { value in
        values.withLock { $0.append(value) }
        deliveries.send(Delivery(value: value, onMarkedQueue: mark.isCurrent))
      }
      #expect(values.value == [0])
      #expect(scheduler.scheduled.value == 0)
      #expect(try await deliveries.next() == Delivery(value: 0, onMarkedQueue: false))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await deliveries.next() == Delivery(value: 1, onMarkedQueue: true))
      #expect(scheduler.scheduled.value == 1)
      cancellable.cancel()
    }

    @Test(
      "a scheduler of the user's may run each action at once, even the values of commits made by the first onChange",
      arguments: [false, true])
    func synchronousScheduler(immediate: Bool) async throws {
      let dbQueue = try makePlayerQueue()
      let values = ObservationInbox<Int>()
      let cancellable = playerCount.start(in: dbQueue, scheduling: SynchronousScheduler(immediate: immediate))
      {
        error in
        Issue.record(error)
      } onChange: { value in
        values.send(value)
        // With an immediate first value, this commit's value waits until this call returned.
        if immediate && value == 0 {
          do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'P1')") }
          } catch {
            Issue.record(error)
          }
        }
      }
      #expect(try await values.next() == 0)
      if !immediate { try await insertPlayer(dbQueue, id: 1) }
      #expect(try await values.next() == 1)
      try await insertPlayer(dbQueue, id: 2)
      #expect(try await values.next() == 2)
      cancellable.cancel()
    }

    @Test("a main-actor scheduler of the user's serves the main-actor start")
    @MainActor
    func customMainActorScheduler() async throws {
      let dbQueue = try makePlayerQueue()
      let scheduler = CountingMainActorScheduler()
      let state = MainActorValues()
      let changes = ObservationInbox<Int>()
      let cancellable = playerCount.start(in: dbQueue, scheduling: scheduler) { error in
        Issue.record(error)
      } onChange: { value in
        state.values.append(value)
        changes.send(value)
      }
      #expect(try await changes.next() == 0)
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await changes.next() == 1)
      #expect(state.values == [0, 1])
      #expect(scheduler.scheduled.value == 2)
      cancellable.cancel()
    }

    @Test("a fetch error reaches onError through the scheduler of the user's")
    func customSchedulerError() async throws {
      let dbQueue = try makePlayerQueue()
      let scheduler = CountingScheduler(immediate: false)
      let mark = QueueMark(scheduler.queue)
      let errors = ObservationInbox<Bool>()
      let observation = ValueObservation.tracking { db -> Int in throw TestError(id: 1) }
      let cancellable = observation.start(in: dbQueue, scheduling: scheduler) { error in
        #expect(error as? TestError == TestError(id: 1))
        errors.send(mark.isCurrent)
      } onChange: { _ in
        Issue.record("no value expected")
      }
      #expect(try await errors.next() == true)
      cancellable.cancel()
    }

    @Test("values(in:scheduling:) produces its values through the given scheduler")
    func valuesWithScheduler() async throws {
      let dbQueue = try makePlayerQueue()
      let scheduler = CountingScheduler(immediate: false)
      var received: [Int] = []
      for try await count in playerCount.values(in: dbQueue, scheduling: scheduler) {
        received.append(count)
        if count == 2 { break }
        try await insertPlayer(dbQueue, id: count + 1)
      }
      #expect(received == [0, 1, 2])
      #expect(scheduler.scheduled.value == 3)
    }

    @Test("tracking(region:_:fetch:) tracks every region it is given")
    func trackingSeveralRegions() async throws {
      let dbQueue = try makePlayerQueue()
      let regions = Locked<[String]>([])
      let observation = ValueObservation.tracking(region: Table("player"), Table("team")) { db in
        try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM player) + (SELECT COUNT(*) FROM team)")!
      }
      .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
      let values = ObservationInbox<Int>()
      let cancellable = observation.start(in: dbQueue, scheduling: .task) { error in
        Issue.record(error)
      } onChange: { value in
        values.send(value)
      }
      #expect(try await values.next() == 0)
      try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Red')") }
      #expect(try await values.next() == 1)
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await values.next() == 2)
      #expect(regions.value == ["player(*),team(*)"])
      cancellable.cancel()
    }
  }
}
