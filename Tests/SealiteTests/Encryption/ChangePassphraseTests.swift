import Foundation
import Sealite
import Testing

@Suite("Changing the key of a queue or a pool")
struct ChangePassphraseTests {
  static let oldPassphrase = "old-passphrase-5d1"
  static let newPassphrase = "new-passphrase-e8c"

  static func populate(_ writer: some DatabaseWriter, rows: Int = 50) throws {
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
      for id in 1...rows { try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["row \(id)"]) }
    }
  }

  static func count(_ reader: some DatabaseReader) throws -> Int? {
    try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
  }

  /// After a key change: the file opens with `newConfig` (rows intact) and not
  /// with `oldConfig` (an error about the key).
  static func expectRekeyed(
    path: String, old oldConfig: Configuration, new newConfig: Configuration, rows: Int
  )
    throws
  {
    let error = try #require(throws: DatabaseError.self) {
      _ = try DatabaseQueue(path: path, configuration: oldConfig)
    }
    #expect(error.resultCode == .SQLITE_NOTADB)
    #expect(error.message?.contains("key does not open") == true, "\(error)")
    let reopened = try DatabaseQueue(path: path, configuration: newConfig)
    #expect(try count(reopened) == rows)
    #expect(
      try reopened.read { db in try String.fetchOne(db, sql: "SELECT name FROM t WHERE id = 1") } == "row 1")
  }

  @Test(
    "changePassphrase on a queue: same queue keeps working, the file opens with the new passphrase only",
    arguments: [JournalModeConfiguration.default, .wal])
  func queueChangePassphrase(journalMode: JournalModeConfiguration) throws {
    let directory = TemporaryDirectory()
    var config = passphraseConfiguration(Self.oldPassphrase)
    config.journalMode = journalMode
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try Self.populate(queue)
    try queue.changePassphrase(Self.newPassphrase)
    #expect(try Self.count(queue) == 50)
    try queue.write { db in try db.execute(sql: "INSERT INTO t(name) VALUES ('after')") }
    try queue.close()
    try Self.expectRekeyed(
      path: directory.path(), old: passphraseConfiguration(Self.oldPassphrase),
      new: passphraseConfiguration(Self.newPassphrase), rows: 51)
  }

  @Test("changeKey(to:) on a queue switches from a passphrase to a raw key")
  func queueChangeToRawKey() throws {
    let directory = TemporaryDirectory()
    let queue = try DatabaseQueue(
      path: directory.path(), configuration: passphraseConfiguration(Self.oldPassphrase))
    try Self.populate(queue)
    try queue.changeKey(to: try .raw(Data(repeating: 0x77, count: 32)))
    #expect(try Self.count(queue) == 50)
    try queue.close()
    try Self.expectRekeyed(
      path: directory.path(), old: passphraseConfiguration(Self.oldPassphrase),
      new: rawKeyConfiguration(byte: 0x77), rows: 50)
  }

  @Test("changePassphrase on a pool: readers used before reconnect with the new key")
  func poolChangePassphrase() throws {
    let directory = TemporaryDirectory()
    var config = passphraseConfiguration(Self.oldPassphrase)
    config.maximumReaderCount = 3
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try Self.populate(pool)
    // Open several readers and leave them idle in the pool.
    try usePoolReaders(pool, count: 3)
    try pool.changePassphrase(Self.newPassphrase)
    #expect(try usePoolReaders(pool, count: 3) == [50, 50, 50])
    try pool.write { db in try db.execute(sql: "INSERT INTO t(name) VALUES ('after')") }
    #expect(try Self.count(pool) == 51)

    // Another connection opens the file with the new key while the pool is open.
    let second = try DatabaseQueue(
      path: directory.path(), configuration: passphraseConfiguration(Self.newPassphrase))
    #expect(try Self.count(second) == 51)
    try second.close()
    try pool.close()
    try Self.expectRekeyed(
      path: directory.path(), old: passphraseConfiguration(Self.oldPassphrase),
      new: passphraseConfiguration(Self.newPassphrase), rows: 51)
  }

  @Test("changePassphrase on a pool lets a read in progress finish first, on the old key")
  func poolChangePassphraseWaitsForReads() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(
      path: directory.path(), configuration: passphraseConfiguration(Self.oldPassphrase))
    try Self.populate(pool)

    let readStarted = DispatchSemaphore(value: 0)
    let releaseRead = DispatchSemaphore(value: 0)
    let readDone = DispatchSemaphore(value: 0)
    let readResult = Locked<Result<[Int], any Error>?>(nil)
    let readFinished = Locked(false)
    pool.asyncRead { result in
      var started = false
      let outcome = Result { () throws -> [Int] in
        let db = try result.get()
        let first = try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1
        started = true
        readStarted.signal()
        releaseRead.wait()
        // The connection is still keyed and usable after the key change was asked for.
        let second = try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1
        let names = try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id")
        return [first, second, names.count]
      }
      if !started { readStarted.signal() }
      readResult.withLock { $0 = outcome }
      readFinished.withLock { $0 = true }
      readDone.signal()
    }
    readStarted.wait()

    let rekeyAboutToStart = DispatchSemaphore(value: 0)
    let rekeyDone = DispatchSemaphore(value: 0)
    let rekeyOutcome = Locked<(Result<Void, any Error>, readWasFinished: Bool)?>(nil)
    Thread {
      rekeyAboutToStart.signal()
      let result = Result { try pool.changePassphrase(Self.newPassphrase) }
      rekeyOutcome.withLock { $0 = (result, readFinished.value) }
      rekeyDone.signal()
    }.start()
    rekeyAboutToStart.wait()
    releaseRead.signal()
    readDone.wait()
    rekeyDone.wait()

    #expect(try readResult.value?.get() == [50, 50, 50])
    let outcome = try #require(rekeyOutcome.value)
    try outcome.0.get()
    #expect(outcome.readWasFinished, "the key changed only once the read in progress had finished")
    #expect(try Self.count(pool) == 50)
    try pool.close()
    try Self.expectRekeyed(
      path: directory.path(), old: passphraseConfiguration(Self.oldPassphrase),
      new: passphraseConfiguration(Self.newPassphrase), rows: 50)
  }

  @Test("DatabasePool.changeKey(to:) with a raw key")
  func poolChangeToRawKey() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration(byte: 0x01))
    try Self.populate(pool)
    try usePoolReaders(pool, count: 2)
    let newKey = try DatabaseKey.raw(Data(repeating: 0x02, count: 32), salt: Data(repeating: 0x03, count: 16))
    try pool.changeKey(to: newKey)
    #expect(try usePoolReaders(pool, count: 2) == [50, 50])
    try pool.close()
    var newConfig = Configuration()
    newConfig.key = newKey
    try Self.expectRekeyed(
      path: directory.path(), old: rawKeyConfiguration(byte: 0x01), new: newConfig, rows: 50)
  }

  @Test("a pool keyed in prepareDatabase opens new readers with the new passphrase after a change")
  func poolKeyedInPrepareDatabase() throws {
    let directory = TemporaryDirectory()
    var config = Configuration()
    config.maximumReaderCount = 2
    config.prepareDatabase { db in try db.usePassphrase(Self.oldPassphrase) }
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    try Self.populate(pool)
    try usePoolReaders(pool, count: 2)
    try pool.changePassphrase(Self.newPassphrase)
    #expect(try usePoolReaders(pool, count: 2) == [50, 50])
    // Readers opened from scratch, after an explicit invalidation, use the new key too.
    pool.invalidateReadOnlyConnections()
    #expect(try usePoolReaders(pool, count: 2) == [50, 50])
    try pool.close()
    try Self.expectRekeyed(
      path: directory.path(), old: passphraseConfiguration(Self.oldPassphrase),
      new: passphraseConfiguration(Self.newPassphrase), rows: 50)
  }

  @Test("changing the key of an unencrypted database is a clear error that changes nothing")
  func changeKeyOfPlaintext() throws {
    let directory = TemporaryDirectory()
    let queue = try DatabaseQueue(path: directory.path())
    try Self.populate(queue, rows: 3)
    let queueError = try #require(throws: DatabaseError.self) {
      try queue.changePassphrase(Self.newPassphrase)
    }
    #expect(queueError.message?.contains("not encrypted") == true, "\(queueError)")
    #expect(!queueError.description.contains(Self.newPassphrase))
    try queue.close()

    let pool = try DatabasePool(path: directory.path())
    let poolError = try #require(throws: DatabaseError.self) { try pool.changePassphrase(Self.newPassphrase) }
    #expect(poolError.message?.contains("not encrypted") == true, "\(poolError)")
    #expect(try Self.count(pool) == 3)
    try pool.close()
    #expect(fileBytes(directory.path())?.starts(with: Data("SQLite format 3".utf8)) == true)
  }

  @Test("changing the key inside a transaction is refused")
  func changeKeyInsideTransaction() throws {
    let directory = TemporaryDirectory()
    let queue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration(byte: 0x09))
    try Self.populate(queue, rows: 3)
    #expect(throws: DatabaseError.self) {
      try queue.write { db in try db.changeKey(to: try .raw(Data(repeating: 0x0A, count: 32))) }
    }
    try queue.close()
    let reopened = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration(byte: 0x09))
    #expect(try Self.count(reopened) == 3)
  }
}

/// Runs `count` reads that are in progress at the same time, so that the pool
/// opens (or reuses) `count` reader connections; returns each read's row count.
@discardableResult
private func usePoolReaders(_ pool: DatabasePool, count: Int) throws -> [Int] {
  let rendezvous = ReadRendezvous(count: count)
  let done = DispatchGroup()
  let results = Locked<[Result<Int, any Error>]>([])
  for _ in 0..<count {
    done.enter()
    Thread {
      var arrived = false
      let result = Result {
        try pool.read { db in
          let value = try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1
          arrived = true
          rendezvous.arriveAndWait()
          return value
        }
      }
      // A read that failed before arriving must not leave the others waiting.
      if !arrived { rendezvous.arriveAndWait() }
      results.withLock { $0.append(result) }
      done.leave()
    }.start()
  }
  done.wait()
  return try results.value.map { try $0.get() }
}

/// Lets `count` threads wait for each other.
private final class ReadRendezvous: Sendable {
  private let count: Int
  private let arrived = Locked(0)
  private let allArrived = DispatchSemaphore(value: 0)

  init(count: Int) { self.count = count }

  func arriveAndWait() {
    let isLast = arrived.withLock { arrived in
      arrived += 1
      return arrived == count
    }
    if isLast { for _ in 0..<count { allArrived.signal() } }
    allArrived.wait()
  }
}
