import Dispatch
import Foundation
import Sealite
import Testing

/// How a call made on another thread ended, or that it did not end in time.
private enum Outcome: Sendable {
  case returned
  case threw(any Error)
  case hung
}

/// Runs `body` on another thread and waits for it at most `timeout` seconds,
/// so that a deadlock fails the test instead of hanging the suite.
private func outcome(timeout: Double = 10, _ body: @escaping @Sendable () throws -> Void) -> Outcome {
  let result = Shared<Outcome?>(nil)
  let done = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    do {
      try body()
      result.update { $0 = .returned }
    } catch {
      result.update { $0 = .threw(error) }
    }
    done.signal()
  }
  guard done.wait(timeout: .now() + timeout) == .success else { return .hung }
  return result.value ?? .hung
}

private func inBackground(_ body: @escaping @Sendable () -> Void) {
  DispatchQueue.global().async(execute: body)
}

/// Long enough for a wrongly admitted access to show up; the tests never
/// depend on it for correct behaviour (they pass faster, not slower, when it is short).
private let admissionWindow = DispatchTimeInterval.milliseconds(300)

private func waitFor(_ semaphore: DispatchSemaphore, seconds: Int = 10) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
}

@Suite("DatabasePool")
struct DatabasePoolTests {
  private func makePool(
    _ directory: TemporaryDirectory, encrypted: Bool = true, maximumReaderCount: Int = 5
  ) throws -> DatabasePool {
    var config = encrypted ? rawKeyConfiguration() : Configuration()
    config.maximumReaderCount = maximumReaderCount
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try pool.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    return pool
  }

  @Test("a pool runs in WAL mode, on the writer and on the readers", arguments: [false, true])
  func walMode(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory, encrypted: encrypted)
    #expect(try pool.write { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    #expect(try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    #expect(directory.fileNames().contains("db.sqlite-wal"))
    try pool.close()
    let queue = try DatabaseQueue(
      path: directory.path(), configuration: encrypted ? rawKeyConfiguration() : Configuration())
    #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
  }

  @Test("reads use read-only connections; the writer can write")
  func readerConnectionsAreReadOnly() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    #expect(try pool.read { db in db.isReadOnly })
    #expect(try !pool.write { db in db.isReadOnly })
  }

  @Test("maximumReaderCount reads run inside their closures at the same time", arguments: [2, 4])
  func concurrentReads(readerCount: Int) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory, maximumReaderCount: readerCount)
    try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('a')") }
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let counts = Shared<[Int]>([])
    for _ in 0..<readerCount {
      finished.enter()
      inBackground {
        defer { finished.leave() }
        let count = try? pool.read { db -> Int? in
          entered.signal()
          _ = waitFor(release)
          return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")
        }
        counts.update { $0.append((count ?? nil) ?? -1) }
      }
    }
    var inside = 0
    while inside < readerCount, waitFor(entered) { inside += 1 }
    #expect(inside == readerCount, "all \(readerCount) reads must be inside their closures at once")
    for _ in 0..<readerCount { release.signal() }
    #expect(finished.wait(timeout: .now() + 20) == .success)
    #expect(counts.value == Array(repeating: 1, count: readerCount))
  }

  @Test("maximumReaderCount = 1 serializes reads")
  func singleReaderSerializesReads() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory, maximumReaderCount: 1)
    let firstInside = Shared(false)
    let firstEntered = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let secondEntered = DispatchSemaphore(value: 0)
    let secondSawFirstInside = Shared<Bool?>(nil)
    let finished = DispatchGroup()
    finished.enter()
    inBackground {
      defer { finished.leave() }
      try? pool.read { _ in
        firstInside.update { $0 = true }
        firstEntered.signal()
        _ = waitFor(releaseFirst)
        firstInside.update { $0 = false }
      }
    }
    #expect(waitFor(firstEntered))
    finished.enter()
    inBackground {
      defer { finished.leave() }
      try? pool.read { _ in
        secondSawFirstInside.update { $0 = firstInside.value }
        secondEntered.signal()
      }
    }
    // The second read must not start while the first one holds the only reader.
    #expect(secondEntered.wait(timeout: .now() + admissionWindow) == .timedOut)
    releaseFirst.signal()
    #expect(waitFor(secondEntered))
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(secondSawFirstInside.value == false)
  }

  @Test(
    "a write commits while a read is in progress, and that read keeps its snapshot", arguments: [false, true])
  func readsRunConcurrentlyWithTheWriterOnASnapshot(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory, encrypted: encrypted)
    try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('before')") }
    let entered = DispatchSemaphore(value: 0)
    let writeCommitted = DispatchSemaphore(value: 0)
    let readDone = DispatchSemaphore(value: 0)
    let seen = Shared<[String]?>(nil)
    let writeArrivedDuringRead = Shared(false)
    inBackground {
      let names = try? pool.read { db -> [String] in
        entered.signal()
        // The first query runs after the write committed: the snapshot is
        // still the one of the start of the read.
        let arrived = waitFor(writeCommitted)
        writeArrivedDuringRead.update { $0 = arrived }
        let first = try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name")
        let second = try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name")
        return first + ["|"] + second
      }
      seen.update { $0 = names }
      readDone.signal()
    }
    #expect(waitFor(entered))
    try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('during')") }
    // A read that starts now sees the committed write, while the first read is still open.
    let fresh = try pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") }
    writeCommitted.signal()
    #expect(waitFor(readDone))
    #expect(writeArrivedDuringRead.value, "the write must commit while the read is in its closure")
    #expect(seen.value == ["before", "|", "before"])
    #expect(fresh == ["before", "during"])
  }

  @Test("barrierWriteWithoutTransaction waits for the reads in progress")
  func barrierWaitsForReads() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let readEntered = DispatchSemaphore(value: 0)
    let releaseRead = DispatchSemaphore(value: 0)
    let readEnded = Shared(false)
    let barrierRan = DispatchSemaphore(value: 0)
    let barrierSawReadEnded = Shared<Bool?>(nil)
    inBackground {
      try? pool.read { _ in
        readEntered.signal()
        _ = waitFor(releaseRead)
        readEnded.update { $0 = true }
      }
    }
    #expect(waitFor(readEntered))
    inBackground {
      try? pool.barrierWriteWithoutTransaction { db in
        barrierSawReadEnded.update { $0 = readEnded.value }
        try db.execute(sql: "INSERT INTO item (name) VALUES ('barrier')")
      }
      barrierRan.signal()
    }
    #expect(barrierRan.wait(timeout: .now() + admissionWindow) == .timedOut)
    releaseRead.signal()
    #expect(waitFor(barrierRan))
    #expect(barrierSawReadEnded.value == true)
    #expect(try pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["barrier"])
  }

  @Test("no read starts while barrierWriteWithoutTransaction runs")
  func barrierBlocksNewReads() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let barrierActive = Shared(false)
    let barrierEntered = DispatchSemaphore(value: 0)
    let releaseBarrier = DispatchSemaphore(value: 0)
    let readEntered = DispatchSemaphore(value: 0)
    let readSawBarrierActive = Shared<Bool?>(nil)
    let readResult = Shared<[String]?>(nil)
    inBackground {
      try? pool.barrierWriteWithoutTransaction { db in
        barrierActive.update { $0 = true }
        barrierEntered.signal()
        _ = waitFor(releaseBarrier)
        try db.execute(sql: "INSERT INTO item (name) VALUES ('barrier')")
        barrierActive.update { $0 = false }
      }
    }
    #expect(waitFor(barrierEntered))
    inBackground {
      let names = try? pool.read { db -> [String] in
        readSawBarrierActive.update { $0 = barrierActive.value }
        return try String.fetchAll(db, sql: "SELECT name FROM item")
      }
      readResult.update { $0 = names }
      readEntered.signal()
    }
    #expect(readEntered.wait(timeout: .now() + admissionWindow) == .timedOut)
    releaseBarrier.signal()
    #expect(waitFor(readEntered))
    #expect(readSawBarrierActive.value == false)
    #expect(readResult.value == ["barrier"])
  }

  @Test(
    "a read inside a read of the same pool throws a misuse error instead of deadlocking", arguments: [1, 5])
  func readInsideRead(maximumReaderCount: Int) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory, maximumReaderCount: maximumReaderCount)
    let result = outcome { try pool.read { _ in try pool.read { _ in } } }
    guard case .threw(let error) = result else {
      Issue.record("expected a misuse error, got \(result)")
      return
    }
    #expect((error as? DatabaseError)?.resultCode == .SQLITE_MISUSE)
  }

  @Test("a barrier write inside a read of the same pool throws a misuse error instead of deadlocking")
  func barrierInsideRead() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let result = outcome { try pool.read { _ in try pool.barrierWriteWithoutTransaction { _ in } } }
    guard case .threw(let error) = result else {
      Issue.record("expected a misuse error, got \(result)")
      return
    }
    #expect((error as? DatabaseError)?.resultCode == .SQLITE_MISUSE)
  }

  @Test("a write inside a write of the same pool throws a misuse error")
  func writeInsideWrite() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory)
    let result = outcome { try pool.write { _ in try pool.write { _ in } } }
    guard case .threw(let error) = result else {
      Issue.record("expected a misuse error, got \(result)")
      return
    }
    #expect((error as? DatabaseError)?.resultCode == .SQLITE_MISUSE)
    try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('still works')") }
  }

  @Test("maximumReaderCount below 1 is refused when the pool opens")
  func invalidReaderCount() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = Configuration()
    config.maximumReaderCount = 0
    let error = #expect(throws: DatabaseError.self) {
      try DatabasePool(path: directory.path(), configuration: config)
    }
    #expect(error?.message?.contains("maximumReaderCount") == true)
  }

  @Test("after close, reads and writes of a pool throw", arguments: [false, true])
  func closedPool(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let pool = try makePool(directory, encrypted: encrypted)
    try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('a')") }
    #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
    try pool.close()
    #expect(throws: DatabaseError.self) {
      try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
    }
    #expect(throws: DatabaseError.self) {
      try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('b')") }
    }
    let reopened = try DatabasePool(
      path: directory.path(), configuration: encrypted ? rawKeyConfiguration() : Configuration())
    #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
  }
}
