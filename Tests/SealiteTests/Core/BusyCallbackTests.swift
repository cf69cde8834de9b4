import Dispatch
import Foundation
import Sealite
import Testing

@Suite("Busy callback")
struct BusyCallbackTests {
  @Test(
    "A busy callback that returns false makes the statement fail with SQLITE_BUSY", arguments: [false, true])
  func givingUp(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    let base = encrypted ? rawKeyConfiguration() : Configuration()
    try DatabaseQueue(path: directory.path(), configuration: base).write { db in
      try db.execute(sql: "CREATE TABLE t(a)")
    }
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = holdWriteLock(path: directory.path(), configuration: base, held: held) { release.wait() }
    held.wait()
    defer {
      release.signal()
      holder.wait()
    }
    let log = Locked<[Int]>([])
    var configuration = base
    configuration.busyMode = .callback { numberOfTries in
      log.withLock { $0.append(numberOfTries) }
      return numberOfTries < 3
    }
    let waiter = try DatabaseQueue(path: directory.path(), configuration: configuration)
    let error = #expect(throws: DatabaseError.self) {
      try waiter.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }
    #expect(error?.resultCode == .SQLITE_BUSY)
    #expect(log.value == [0, 1, 2, 3])
  }

  @Test("A busy callback that returns true tries again, until the lock is released")
  func retrying() throws {
    let directory = TemporaryDirectory()
    try DatabaseQueue(path: directory.path()).write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = holdWriteLock(path: directory.path(), held: held) { release.wait() }
    held.wait()
    let log = Locked<[Int]>([])
    var configuration = Configuration()
    configuration.busyMode = Database.BusyMode.callback { numberOfTries in
      log.withLock { $0.append(numberOfTries) }
      if numberOfTries == 2 { release.signal() }
      // From the third try on, wait for the holder to commit and release the
      // lock, then try again.
      if numberOfTries >= 2 { _ = holder.wait(timeout: .now() + 60) }
      return true
    }
    let waiter = try DatabaseQueue(path: directory.path(), configuration: configuration)
    try waiter.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    holder.wait()
    #expect(try waiter.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    #expect(log.value.count >= 3)
    #expect(log.value.prefix(3) == [0, 1, 2])
  }
}
