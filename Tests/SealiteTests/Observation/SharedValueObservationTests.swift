import Dispatch
import Foundation
import Sealite
import Testing

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

/// What the underlying observation of a shared one did: its starts,
/// fetches and cancellations.
private final class ObservationLog: Sendable {
  let starts = Locked(0)
  let fetches = Locked(0)
  let cancels = Locked(0)
}

/// The number of players, observed with a log of what the observation does.
private func playerCount(_ log: ObservationLog) -> ValueObservation<
  ValueReducers.Trace<ValueReducers.Fetch<Int>>
> {
  ValueObservation.tracking { db in try ObservedPlayer.fetchCount(db) }
    .handleEvents(
      willStart: { log.starts.withLock { $0 += 1 } },
      willFetch: { log.fetches.withLock { $0 += 1 } },
      didCancel: { log.cancels.withLock { $0 += 1 } })
}

/// The number of players, or `TestError(id: count)` once there are `failingCount`.
private func failingPlayerCount(from failingCount: Int) -> ValueObservation<ValueReducers.Fetch<Int>> {
  ValueObservation.tracking { db in
    let count = try ObservedPlayer.fetchCount(db)
    if count >= failingCount { throw TestError(id: count) }
    return count
  }
}

/// What a subscriber receives.
private enum Received: Sendable, Equatable {
  case value(Int)
  case error(Int)
}

private extension SharedValueObservation where Element == Int {
  /// Subscribes, sending what is received to `inbox`.
  func start(into inbox: ObservationInbox<Received>) -> AnyDatabaseCancellable {
    start { error in
      inbox.send(.error((error as? TestError)?.id ?? -1))
    } onChange: { value in
      inbox.send(.value(value))
    }
  }
}

private let deliveryQueue = DispatchQueue(label: "Sealite.tests.shared")

extension ObservationTests {
  @Suite("SharedValueObservation")
  struct SharedValueObservationTests {
    @Test("two subscribers share one observation: each value is fetched once and delivered to both")
    func twoSubscribersOneFetch() async throws {
      let dbQueue = try makePlayerQueue()
      let log = ObservationLog()
      let shared = playerCount(log).shared(in: dbQueue, scheduling: .async(onQueue: deliveryQueue))
      let first = ObservationInbox<Received>()
      let second = ObservationInbox<Received>()
      let cancellable1 = shared.start(into: first)
      let cancellable2 = shared.start(into: second)
      #expect(try await first.next() == .value(0))
      #expect(try await second.next() == .value(0))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await first.next() == .value(1))
      #expect(try await second.next() == .value(1))
      #expect(log.starts.value == 1)
      #expect(log.fetches.value == 2)
      cancellable1.cancel()
      cancellable2.cancel()
    }

    @Test("a late subscriber receives the last value first, without a fetch")
    func lateSubscriber() async throws {
      let dbQueue = try makePlayerQueue()
      let log = ObservationLog()
      let shared = playerCount(log).shared(in: dbQueue, scheduling: .async(onQueue: deliveryQueue))
      let first = ObservationInbox<Received>()
      let cancellable1 = shared.start(into: first)
      #expect(try await first.next() == .value(0))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await first.next() == .value(1))

      let late = ObservationInbox<Received>()
      let cancellable2 = shared.start(into: late)
      #expect(try await late.next() == .value(1))
      #expect(log.fetches.value == 2)
      try await insertPlayer(dbQueue, id: 2)
      #expect(try await first.next() == .value(2))
      #expect(try await late.next() == .value(2))
      cancellable1.cancel()
      cancellable2.cancel()
    }

    @Test("with .immediate, every subscriber receives the current value before start returns")
    func immediate() throws {
      let dbQueue = try makePlayerQueue()
      let log = ObservationLog()
      let shared = playerCount(log).shared(in: dbQueue, scheduling: .immediate)
      let first = ObservationInbox<Received>()
      let second = ObservationInbox<Received>()
      let fromCallback = ObservationInbox<Received>()
      let nested = Locked<AnyDatabaseCancellable?>(nil)
      let cancellable1 = shared.start { error in
        Issue.record(error)
      } onChange: { value in
        first.send(.value(value))
        // A subscription made by a subscriber's callback.
        nested.withLock { nested in
          if nested == nil { nested = shared.start(into: fromCallback) }
        }
      }
      #expect(first.pending == [.value(0)])
      #expect(fromCallback.pending == [.value(0)])
      let cancellable2 = shared.start(into: second)
      #expect(second.pending == [.value(0)])
      #expect(log.fetches.value == 1)
      cancellable1.cancel()
      cancellable2.cancel()
      nested.value?.cancel()
    }

    @Test("whileObserved stops the observation when the last subscriber cancels, and restarts it on the next")
    func whileObserved() async throws {
      let dbQueue = try makePlayerQueue()
      let log = ObservationLog()
      let shared = playerCount(log).shared(
        in: dbQueue, scheduling: .async(onQueue: deliveryQueue), extent: .whileObserved)
      let first = ObservationInbox<Received>()
      let second = ObservationInbox<Received>()
      let cancellable1 = shared.start(into: first)
      let cancellable2 = shared.start(into: second)
      #expect(try await first.next() == .value(0))
      #expect(try await second.next() == .value(0))
      cancellable1.cancel()
      #expect(log.cancels.value == 0)
      cancellable2.cancel()
      #expect(log.cancels.value == 1)

      // Changes made while no one observes are in the first value of the next start.
      try await insertPlayer(dbQueue, id: 1)
      let third = ObservationInbox<Received>()
      let cancellable3 = shared.start(into: third)
      #expect(try await third.next() == .value(1))
      #expect(log.starts.value == 2)
      try await insertPlayer(dbQueue, id: 2)
      #expect(try await third.next() == .value(2))
      cancellable3.cancel()
      #expect(log.cancels.value == 2)
    }

    @Test("observationLifetime keeps observing without subscribers, until the shared observation is released")
    func observationLifetime() async throws {
      let dbQueue = try makePlayerQueue()
      let log = ObservationLog()
      let values = ObservationInbox<Int>()
      var shared: SharedValueObservation<Int>? = playerCount(log)
        .handleEvents(didReceiveValue: { values.send($0) })
        .shared(in: dbQueue, scheduling: .async(onQueue: deliveryQueue), extent: .observationLifetime)
      let first = ObservationInbox<Received>()
      let cancellable1 = shared!.start(into: first)
      #expect(try await first.next() == .value(0))
      cancellable1.cancel()
      #expect(log.cancels.value == 0)

      // Fetched without subscribers, and kept for the next one.
      #expect(try await values.next() == 0)
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await values.next() == 1)
      let second = ObservationInbox<Received>()
      let cancellable2 = shared!.start(into: second)
      #expect(try await second.next() == .value(1))
      #expect(log.starts.value == 1)
      cancellable2.cancel()
      #expect(log.cancels.value == 0)

      shared = nil
      #expect(log.cancels.value == 1)
    }

    @Test(
      "an error reaches every subscriber; whileObserved starts again on the next subscription",
      arguments: [false, true])
    func errorWhileObserved(immediate: Bool) async throws {
      let dbQueue = try makePlayerQueue()
      let shared =
        immediate
        ? failingPlayerCount(from: 1).shared(in: dbQueue, scheduling: .immediate)
        : failingPlayerCount(from: 1).shared(in: dbQueue, scheduling: .async(onQueue: deliveryQueue))
      let first = ObservationInbox<Received>()
      let second = ObservationInbox<Received>()
      let cancellable1 = shared.start(into: first)
      let cancellable2 = shared.start(into: second)
      #expect(try await first.next() == .value(0))
      #expect(try await second.next() == .value(0))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await first.next() == .error(1))
      #expect(try await second.next() == .error(1))

      // A new subscription starts a new observation, which fetches again.
      try await dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
      let third = ObservationInbox<Received>()
      let cancellable3 = shared.start(into: third)
      #expect(try await third.next() == .value(0))
      cancellable1.cancel()
      cancellable2.cancel()
      cancellable3.cancel()
    }

    @Test("with observationLifetime, a subscriber that comes after an error receives it")
    func errorObservationLifetime() async throws {
      let dbQueue = try makePlayerQueue()
      let shared = failingPlayerCount(from: 1).shared(
        in: dbQueue, scheduling: .async(onQueue: deliveryQueue), extent: .observationLifetime)
      let first = ObservationInbox<Received>()
      let cancellable1 = shared.start(into: first)
      #expect(try await first.next() == .value(0))
      try await insertPlayer(dbQueue, id: 1)
      #expect(try await first.next() == .error(1))

      try await dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
      let late = ObservationInbox<Received>()
      let cancellable2 = shared.start(into: late)
      #expect(try await late.next() == .error(1))
      cancellable1.cancel()
      cancellable2.cancel()
    }

    @Test("values() iterates a subscription to the shared observation")
    func values() async throws {
      let dbQueue = try makePlayerQueue()
      let log = ObservationLog()
      let shared = playerCount(log).shared(in: dbQueue, scheduling: .async(onQueue: deliveryQueue))
      let other = ObservationInbox<Received>()
      let cancellable = shared.start(into: other)
      #expect(try await other.next() == .value(0))
      var received: [Int] = []
      for try await count in shared.values() {
        received.append(count)
        if count == 2 { break }
        try await insertPlayer(dbQueue, id: count + 1)
      }
      #expect(received == [0, 1, 2])
      #expect(try await other.next() == .value(1))
      #expect(try await other.next() == .value(2))
      #expect(log.starts.value == 1)
      #expect(log.fetches.value == 3)
      cancellable.cancel()
    }
  }
}
