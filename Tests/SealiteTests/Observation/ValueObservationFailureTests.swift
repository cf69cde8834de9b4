import Dispatch
import Foundation
import Sealite
import Testing

private struct FetchFailure: Error {}

private func makeWriterWithT(_ backend: ObservationBackend, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try backend.makeWriter(directory)
  try writer.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT)") }
  return writer
}

private let schedulers: [any ValueObservationScheduler] = [
  anyImmediate, .async(onQueue: .main), .async(onQueue: DispatchQueue(label: "Sealite.tests.failure")),
]

extension ObservationTests {
  /// How a fetch error ends an observation.
  @Suite("ValueObservation failures")
  struct ValueObservationFailureTests {
    @Test(
      "with .immediate, an error of the first fetch reaches onError before start returns",
      arguments: ObservationBackend.allCases)
    func immediateError(_ backend: ObservationBackend) throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriterWithT(backend, directory)
      let errors = Shared(0)
      let cancellable = ValueObservation.trackingConstantRegion { _ -> Int in throw FetchFailure() }
        .start(in: writer, scheduling: anyImmediate) { error in
          if error is FetchFailure { errors.update { $0 += 1 } }
        } onChange: { _ in
        }
      #expect(errors.value == 1)
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "an error ends the observation: no value after it, even for later commits",
      arguments: ObservationBackend.allCases)
    func errorEndsObservation(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriterWithT(backend, directory)
      let failsNext = Shared(false)
      let log = Shared<[String]>([])
      let queue = DispatchQueue(label: "Sealite.tests.failure")
      let observation = ValueObservation.trackingConstantRegion { db -> Int in
        let count = try Table("t").fetchCount(db)
        if failsNext.value { throw FetchFailure() }
        return count
      }
      let cancellable = observation.start(in: writer, scheduling: .async(onQueue: queue)) { error in
        log.update { $0.append(error is FetchFailure ? "error" : "other error") }
      } onChange: { value in
        log.update { $0.append("value \(value)") }
        failsNext.update { $0 = true }
        // The commit that makes the next fetch fail.
        try! writer.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
      }
      #expect(await eventually { log.value.contains("error") })
      // Later commits do not fetch again: the observation is over.
      try await writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
      await drain(queue)
      #expect(log.value == ["value 0", "error"])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "a fetch that writes fails with SQLITE_READONLY unless the observation requires write access",
      arguments: ObservationBackend.allCases)
    func readOnlyFetch(_ backend: ObservationBackend) async throws {
      for scheduler in schedulers {
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let writer = try makeWriterWithT(backend, directory)
        let errors = Shared<[DatabaseError]>([])
        let values = Shared(0)
        let cancellable = ValueObservation.trackingConstantRegion { db -> Int in
          try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
          return 0
        }.start(in: writer, scheduling: scheduler) { error in
          if let error = error as? DatabaseError { errors.update { $0.append(error) } }
        } onChange: { _ in
          values.update { $0 += 1 }
        }
        #expect(await eventually { !errors.value.isEmpty })
        let error = try #require(errors.value.first)
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.message == "attempt to write a readonly database")
        #expect(error.sql == "INSERT INTO t DEFAULT VALUES")
        #expect(values.value == 0)
        #expect(try await writer.read { db in try Table("t").fetchCount(db) } == 0)
        withExtendedLifetime(cancellable) {}
      }
    }

    @Test(
      "requiresWriteAccess: the writes of a fetch that throws are rolled back",
      arguments: ObservationBackend.allCases)
    func writeAccessRollback(_ backend: ObservationBackend) async throws {
      for scheduler in schedulers {
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let writer = try makeWriterWithT(backend, directory)
        var observation = ValueObservation.trackingConstantRegion { db -> Int in
          try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
          throw FetchFailure()
        }
        observation.requiresWriteAccess = true
        let errors = Shared(0)
        let cancellable = observation.start(in: writer, scheduling: scheduler) { error in
          if error is FetchFailure { errors.update { $0 += 1 } }
        } onChange: { _ in
        }
        #expect(await eventually { errors.value == 1 })
        #expect(try await writer.read { db in try Table("t").fetchCount(db) } == 0)
        withExtendedLifetime(cancellable) {}
      }
    }
  }
}
