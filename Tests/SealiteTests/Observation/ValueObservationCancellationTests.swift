import Dispatch
import Foundation
import Sealite
import Testing

private func makeWriterWithT(_ backend: ObservationBackend, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try backend.makeWriter(directory)
  try writer.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT)") }
  return writer
}

private func insertT(_ writer: some DatabaseWriter) async throws {
  try await writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
}

private let countT = ValueObservation.trackingConstantRegion { db in try Table("t").fetchCount(db) }

extension ObservationTests {
  /// When a cancelled observation stops delivering.
  @Suite("ValueObservation cancellation")
  struct ValueObservationCancellationTests {
    // On a DatabaseQueue, as in GRDB: the first value of a pool may already
    // hold both writes, and then there is no second value to cancel from.
    @Test(
      "cancelling or releasing the cancellable from onChange: no value after that one, even for a commit already made",
      arguments: [false, true])
    func cancelFromOnChange(_ releases: Bool) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriterWithT(.queue, directory)
      let queue = DispatchQueue(label: "Sealite.tests.cancel")
      let cancellable = Shared<AnyDatabaseCancellable?>(nil)
      let values = Shared<[Int]>([])
      // Held until both writes are done: the second value is delivered, and
      // cancels, after the commit of the second write.
      queue.suspend()
      // Only the shared box holds the cancellable, so that releasing it there ends the observation.
      cancellable.update { stored in
        stored = countT.start(in: writer, scheduling: .async(onQueue: queue)) { _ in
        } onChange: { value in
          let count = values.withLock { values in
            values.append(value)
            return values.count
          }
          guard count == 2 else { return }
          if releases {
            cancellable.update { $0 = nil }
          } else {
            cancellable.value?.cancel()
          }
        }
      }
      try await insertT(writer)
      try await insertT(writer)
      queue.resume()
      #expect(await eventually { values.value.count >= 2 })
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      await drain(queue)
      #expect(values.value == [0, 1])
    }

    @Test(
      "releasing the cancellable during a fetch or a map: that fetch delivers nothing",
      arguments: ObservationBackend.allCases, [false, true])
    func releaseDuringFetch(_ backend: ObservationBackend, _ inMap: Bool) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriterWithT(backend, directory)
      let cancellable = Shared<AnyDatabaseCancellable?>(nil)
      let calls = Shared(0)
      let releaseAtSecondCall: @Sendable () -> Void = {
        let count = calls.withLock { count in
          count += 1
          return count
        }
        if count == 2 { cancellable.update { $0 = nil } }
      }
      let observation = ValueObservation.tracking { db -> Int in
        let count = try Table("t").fetchCount(db)
        if !inMap { releaseAtSecondCall() }
        return count
      }.map { count -> Int in
        if inMap { releaseAtSecondCall() }
        return count
      }
      let values = Shared<[Int]>([])
      // Only the shared box holds the cancellable, so that releasing it there ends the observation.
      cancellable.update { stored in
        stored = observation.start(in: writer, scheduling: anyImmediate) { _ in
        } onChange: { value in
          values.update { $0.append(value) }
        }
      }
      #expect(values.value == [0])
      try await insertT(writer)
      #expect(await eventually { calls.value >= 2 })
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      await drain(.main)
      #expect(values.value == [0])
    }

    @Test(
      "a commit queued before cancel() and run after it is not delivered",
      arguments: ObservationBackend.allCases)
    func commitAfterCancel(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriterWithT(backend, directory)
      let queue = DispatchQueue(label: "Sealite.tests.cancel")
      let values = Shared<[Int]>([])
      let cancellable = countT.start(in: writer, scheduling: .async(onQueue: queue)) { _ in
      } onChange: { value in
        values.update { $0.append(value) }
      }
      let gate = DispatchSemaphore(value: 0)
      writer.asyncWriteWithoutTransaction { db in
        gate.wait()
        try? db.execute(sql: "INSERT INTO t DEFAULT VALUES")
      }
      cancellable.cancel()
      gate.signal()
      // A later access runs after the observer's removal.
      try await writer.writeWithoutTransaction { _ in }
      #expect(try await eventually { try !hasTransactionObservers(writer) })
      await drain(queue)
      #expect(!values.value.contains(1))
    }

    @Test(
      "a hundred observations of one table each get the initial value and the change",
      arguments: ObservationBackend.allCases)
    func manyObservations(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriterWithT(backend, directory)
      let initial = Shared(0)
      let changed = Shared(0)
      let queue = DispatchQueue(label: "Sealite.tests.many")
      let cancellables = (0..<100).map { _ in
        ValueObservation.tracking { db in try Table("t").fetchCount(db) }.removeDuplicates()
          .start(in: writer, scheduling: .async(onQueue: queue)) { _ in
          } onChange: { value in
            if value == 0 { initial.update { $0 += 1 } } else { changed.update { $0 += 1 } }
          }
      }
      #expect(await eventually { initial.value == 100 })
      try await insertT(writer)
      #expect(await eventually { changed.value == 100 })
      for cancellable in cancellables { cancellable.cancel() }
    }

    @Test("writes of another connection are not seen, until db.notifyChanges(in:) says so")
    func explicitChangeNotification() async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let first = try DatabaseQueue(path: directory.path())
      try await first.write { db in try db.execute(sql: "CREATE TABLE test(a)") }
      let values = Shared<[Int]>([])
      let queue = DispatchQueue(label: "Sealite.tests.notify")
      let cancellable = ValueObservation.tracking { db in try Table("test").fetchCount(db) }
        .start(in: first, scheduling: anyImmediate) { _ in
        } onChange: { value in
          values.update { $0.append(value) }
        }
      let second = try DatabaseQueue(path: directory.path())
      try await second.write { db in try db.execute(sql: "INSERT INTO test (a) VALUES (1)") }
      try await first.write { db in try db.notifyChanges(in: Table("test")) }
      #expect(await eventually { values.value.count >= 2 })
      await drain(.main)
      await drain(queue)
      #expect(values.value == [0, 1])
      withExtendedLifetime(cancellable) {}
    }

    @Test("a DatabaseRegionObservation cancelled from its onChange is not told of the next commit")
    func regionObservationCancelFromOnChange() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT)")
      }
      let cancellable = Shared<AnyDatabaseCancellable?>(nil)
      let changes = Shared(0)
      cancellable.update { stored in
        stored = DatabaseRegionObservation(tracking: Table("t")).start(in: dbQueue) { _ in
        } onChange: { _ in
          cancellable.value?.cancel()
          changes.update { $0 += 1 }
        }
      }
      try await insertT(dbQueue)
      try await insertT(dbQueue)
      #expect(changes.value == 1)
    }
  }
}
