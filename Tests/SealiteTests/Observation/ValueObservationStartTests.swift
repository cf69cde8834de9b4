import Dispatch
import Foundation
import Sealite
import Testing

/// The number of players, through `COUNT(*)`: its region is the whole
/// player table, so that every commit that touches it refreshes.
private let playerCount = ValueObservation.tracking { db in
  try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
}

private func insertPlayer(_ db: Database, id: Int) throws {
  try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [id, "P\(id)"])
}

extension ObservationTests {
  @Suite("ValueObservation start and values, as in GRDB")
  struct ValueObservationStartTests {
    @Test(
      "start with an asynchronous scheduling returns without waiting for the writer",
      arguments: ObservationBackend.allCases)
    func asyncStartDoesNotWaitForWriter(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      let writer = try backend.makeWriter(directory)
      try await writer.write { db in try db.execute(sql: observationSchema) }
      let recorder = ValueRecorder<Int>()
      let cancellable = Locked<AnyDatabaseCancellable?>(nil)
      // The write waits for a start made on another thread: a start that
      // waited for the writer would wait for this write, which waits for it.
      let startReturned = try await writer.write { db in
        try insertPlayer(db, id: 1)
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          let started = recorder.start(playerCount, in: writer)
          cancellable.withLock { $0 = started }
          returned.signal()
        }
        return returned.wait(timeout: .now() + 30) == .success
      }
      #expect(startReturned)
      // The first value comes once the write committed, and includes it.
      #expect(await eventually { recorder.values.value == [1] })
      try await writer.write { db in try insertPlayer(db, id: 2) }
      #expect(await eventually { recorder.values.value == [1, 2] })
      #expect(recorder.errors.value.isEmpty)
      cancellable.withLock { $0?.cancel() }
    }

    @Test("on a DatabaseQueue, commits that follow each other at once give one value each")
    func queueDeliversOneValuePerCommit() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let recorder = ValueRecorder<Int>()
      let cancellable = recorder.start(playerCount, in: dbQueue)
      // Queued right behind the start, before any value was fetched.
      for id in 1...5 {
        dbQueue.asyncWriteWithoutTransaction { db in
          try? db.inTransaction {
            try insertPlayer(db, id: id)
            return .commit
          }
        }
      }
      #expect(await eventually { recorder.last == 5 })
      #expect(recorder.values.value == [0, 1, 2, 3, 4, 5])
      cancellable.cancel()
    }

    @Test(
      "on a DatabaseQueue, a commit that leaves the value unchanged delivers it again, unless removeDuplicates()"
    )
    func queueRemoveDuplicates() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let all = ValueRecorder<Int>()
      let distinct = ValueRecorder<Int>()
      let cancellables = [
        all.start(playerCount, in: dbQueue), distinct.start(playerCount.removeDuplicates(), in: dbQueue),
      ]
      #expect(await eventually { all.values.value == [0] && distinct.values.value == [0] })
      try await dbQueue.write { db in try insertPlayer(db, id: 1) }
      try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1") }
      try await dbQueue.write { db in try insertPlayer(db, id: 2) }
      #expect(await eventually { all.last == 2 && distinct.last == 2 })
      #expect(all.values.value == [0, 1, 1, 2])
      #expect(distinct.values.value == [0, 1, 2])
      for cancellable in cancellables { cancellable.cancel() }
    }

    @Test(".immediate started inside a write delivers the write's state before start returns")
    func immediateInsideWrite() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try db.execute(sql: observationSchema) }
      let recorder = ValueRecorder<Int>()
      let (firstValues, cancellable) = try await dbQueue.write { db in
        try insertPlayer(db, id: 1)
        let cancellable = recorder.start(playerCount, in: dbQueue, scheduling: .immediate)
        return (recorder.values.value, cancellable)
      }
      #expect(firstValues == [1])
      try await dbQueue.write { db in try insertPlayer(db, id: 2) }
      #expect(await eventually { recorder.values.value == [1, 2] })
      cancellable.cancel()
    }
  }
}
