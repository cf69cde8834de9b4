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

private func insertPlayer(_ writer: some DatabaseWriter, id: Int) async throws {
  try await writer.write { db in
    try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [id, "P\(id)"])
  }
}

private let playerCount = ValueObservation.tracking { db in try ObservedPlayer.fetchCount(db) }

extension ObservationTests {
  @Suite("ValueObservation as an AsyncSequence")
  struct AsyncValueObservationTests {
    @Test(
      "values(in:) yields the current value, then a value after each change",
      arguments: ObservationBackend.allCases)
    func values(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let received = try await withDeadline {
        var received: [Int] = []
        for try await count in playerCount.values(in: writer) {
          received.append(count)
          if count == 3 { break }
          try await insertPlayer(writer, id: count + 1)
        }
        return received
      }
      #expect(received == [0, 1, 2, 3])
      // Leaving the loop stopped the observation.
      #expect(try await eventually { try !hasTransactionObservers(writer) })
    }

    @Test(
      "the sequence ends when its task is cancelled, and the observation stops",
      arguments: ObservationBackend.allCases)
    func endsOnCancellation(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let received = Locked<[Int]>([])
      let task = Task {
        for try await count in playerCount.values(in: writer) {
          received.withLock { $0.append(count) }
        }
        return "ended"
      }
      #expect(await eventually { received.value == [0] })
      try await insertPlayer(writer, id: 1)
      #expect(await eventually { received.value == [0, 1] })
      task.cancel()
      #expect(try await withDeadline { try await task.value } == "ended")
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      try await insertPlayer(writer, id: 2)
      #expect(received.value == [0, 1])
    }

    @Test("an error of the fetch ends the sequence by throwing it")
    func fetchErrorThrows() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let observation = ValueObservation.tracking { db in
        let count = try ObservedPlayer.fetchCount(db)
        if count > 0 { throw TestError(id: 5) }
        return count
      }
      let received = Locked<[Int]>([])
      await #expect(throws: TestError(id: 5)) {
        try await withDeadline {
          for try await count in observation.values(in: dbQueue) {
            received.withLock { $0.append(count) }
            try await insertPlayer(dbQueue, id: 1)
          }
        }
      }
      #expect(received.value == [0])
    }

    @Test("a slow consumer gets the values in order, the last one included")
    func slowConsumer() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let writes = Task {
        for id in 1...50 { try await insertPlayer(dbQueue, id: id) }
      }
      let received = try await withDeadline {
        var received: [Int] = []
        for try await count in playerCount.values(in: dbQueue) {
          received.append(count)
          try await Task.sleep(for: .milliseconds(2))
          if count == 50 { break }
        }
        return received
      }
      try await writes.value
      #expect(received == received.sorted())
      #expect(received.last == 50)
    }

    @Test("bufferingNewest(1) gives a slow consumer the latest value, not a backlog")
    func bufferingNewest() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let delivered = Locked<[Int]>([])
      let observation = playerCount.handleEvents(didReceiveValue: { count in
        delivered.withLock { $0.append(count) }
      })
      let queue = DispatchQueue(label: "Sealite.tests.delivery")
      let values = observation.values(
        in: dbQueue, scheduling: .async(onQueue: queue), bufferingPolicy: .bufferingNewest(1))
      let received = try await withDeadline {
        var received: [Int] = []
        for try await count in values {
          received.append(count)
          if count == 0 {
            // Many commits while the consumer is busy: only the newest value waits.
            for id in 1...20 { try await insertPlayer(dbQueue, id: id) }
            #expect(await eventually { delivered.value.last == 20 })
            await drain(queue)
          }
          if count == 20 { break }
        }
        return received
      }
      #expect(received == [0, 20])
    }

    @Test(
      "debounce coalesces 2,000 transactions for a slow async consumer; the last value is the final count")
    func debounce() async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
      try await dbPool.write { db in try db.execute(sql: observationSchema) }
      let commits = 2000
      let writes = Task {
        for _ in 0..<commits {
          try await dbPool.write { db in try db.execute(sql: "INSERT INTO log (message) VALUES ('x')") }
        }
      }
      let observation = ValueObservation.tracking { db in try Table("log").fetchCount(db) }.debounce(
        for: 0.05)
      let received = try await withDeadline {
        var received: [Int] = []
        for try await count in observation.values(in: dbPool) {
          received.append(count)
          try await Task.sleep(for: .milliseconds(10))
          if count == commits { break }
        }
        return received
      }
      try await writes.value
      #expect(received.last == commits)
      #expect(received.count < commits / 5)
      #expect(received == received.sorted())
    }
  }
}
