import Dispatch
import Foundation
import Testing

// Testable: whether a connection waits for a lock, and a pool reader's busy
// mode, are seen nowhere in the public API (a pool's readers meet a lock only
// in rare cases that a test can not make).
@testable import Sealite

@Suite("Writers and locks held for a moment")
struct WriterContentionTests {
  // A reader that finds the WAL index header torn (a writer is updating it at
  // commit) takes the write lock for a moment to read it again; a writer that
  // begins its transaction in that moment met a locked database. In a C loop
  // with three busy readers, one commit in sixty failed that way with
  // `.immediateError`. This test holds the lock the same way, for as long as
  // it takes the writer to meet it.
  @Test(
    "With .immediateError, a write waits for a lock another connection holds for a moment",
    arguments: [false, true])
  func momentaryLock(pool: Bool) throws {
    let directory = TemporaryDirectory()
    let writer: any DatabaseWriter =
      pool ? try DatabasePool(path: directory.path()) : try DatabaseQueue(path: directory.path())
    try writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    let waits = try writer.writeWithoutTransaction { db in db.busyCalls }
    let held = DispatchSemaphore(value: 0)
    // The holder lets go once the writer has found the database locked (or
    // after 10 seconds, if the writer never does: the test then fails).
    let holder = holdWriteLock(path: directory.path(), held: held) {
      _ = waits.waitForFirstCall(timeout: .now() + 10)
    }
    held.wait()
    defer { holder.wait() }
    try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    #expect(waits.value > 0, "the write never met the lock")
    #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 1)
  }

  // GRDB gives a pool's readers a 10-second busy timeout, whatever the busy
  // mode: readers of a WAL database meet locks only in rare cases (another
  // process's recovery of the WAL index, or its last connection closing), and
  // a read of a pool is not expected to fail then.
  @Test("A pool's readers and snapshots wait up to 10 seconds for locks, whatever the busy mode")
  func readersWait() throws {
    let directory = TemporaryDirectory()
    var configuration = Configuration()
    configuration.busyMode = .timeout(1)
    for configuration in [Configuration(), configuration] {
      let pool = try DatabasePool(path: directory.path(), configuration: configuration)
      try pool.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t(a)") }
      let modes = try [
        pool.read { db in db.busyMode },
        pool.makeSnapshot().read { db in db.busyMode },
        pool.writeWithoutTransaction { db in db.busyMode },
      ]
      guard case .timeout(10) = modes[0], case .timeout(10) = modes[1] else {
        Issue.record("readers: \(modes)")
        continue
      }
      switch (configuration.busyMode, modes[2]) {
      case (.immediateError, .immediateError), (.timeout(1), .timeout(1)): break
      default: Issue.record("writer: \(modes[2])")
      }
    }
  }
}
