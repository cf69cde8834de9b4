import Dispatch
import Foundation
import Sealite
import Testing

private func waitFor(_ semaphore: DispatchSemaphore, seconds: Int = 10) -> Bool {
  semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
}

/// Opens a queue or a pool on `path`.
private func openWriter(pool: Bool, path: String, _ configuration: Configuration) throws -> any DatabaseWriter
{
  pool
    ? try DatabasePool(path: path, configuration: configuration)
    : try DatabaseQueue(path: path, configuration: configuration)
}

@Suite("Configuration")
struct ConfigurationTests {
  // MARK: prepareDatabase

  @Test("prepareDatabase runs once on a queue's connection")
  func prepareDatabaseOnQueue() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let runs = Shared(0)
    var config = rawKeyConfiguration()
    config.prepareDatabase { db in
      runs.update { $0 += 1 }
      try db.execute(sql: "PRAGMA cache_size = -2345")
    }
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -2345)
    #expect(runs.value == 1)
  }

  @Test("prepareDatabase runs on the writer and on every reader of a pool", arguments: [false, true])
  func prepareDatabaseOnEveryPoolConnection(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let connections = Shared<[Bool]>([])  // isReadOnly of each prepared connection
    var config = encrypted ? rawKeyConfiguration() : Configuration()
    config.maximumReaderCount = 3
    config.prepareDatabase { db in
      connections.update { $0.append(db.isReadOnly) }
      try db.execute(sql: "PRAGMA cache_size = -2345")
    }
    let pool = try DatabasePool(path: directory.path(), configuration: config)
    #expect(try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -2345)

    // Three reads at once need three reader connections.
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let cacheSizes = Shared<[Int]>([])
    for _ in 0..<3 {
      finished.enter()
      DispatchQueue.global().async {
        defer { finished.leave() }
        let size = try? pool.read { db -> Int? in
          entered.signal()
          _ = waitFor(release)
          return try Int.fetchOne(db, sql: "PRAGMA cache_size")
        }
        cacheSizes.update { $0.append((size ?? nil) ?? 0) }
      }
    }
    var inside = 0
    while inside < 3, waitFor(entered) { inside += 1 }
    for _ in 0..<3 { release.signal() }
    #expect(finished.wait(timeout: .now() + 20) == .success)
    #expect(inside == 3)
    #expect(cacheSizes.value == [-2345, -2345, -2345])
    #expect(connections.value.filter { !$0 }.count == 1, "one writer")
    #expect(connections.value.filter { $0 }.count == 3, "three readers")
  }

  @Test("an error thrown by prepareDatabase makes opening fail with that error", arguments: [false, true])
  func prepareDatabaseError(pool: Bool) throws {
    struct SetupFailed: Error, Equatable {}
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = Configuration()
    config.prepareDatabase { _ in throw SetupFailed() }
    #expect(throws: SetupFailed()) { try openWriter(pool: pool, path: directory.path(), config) }
  }

  // MARK: readonly

  @Test("a readonly queue or pool reads, and its writes fail with SQLITE_READONLY", arguments: [false, true])
  func readonly(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let path = directory.path()
    try DatabaseQueue(path: path, configuration: rawKeyConfiguration()).write { db in
      try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item (name) VALUES ('a')")
    }
    let before = fileBytes(path)
    var config = rawKeyConfiguration()
    config.readonly = true
    let writer = try openWriter(pool: pool, path: path, config)
    #expect(try writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["a"])
    let error = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('b')") }
    }
    #expect(error?.resultCode == .SQLITE_READONLY)
    let schemaError = #expect(throws: DatabaseError.self) {
      try writer.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE other (x)") }
    }
    #expect(schemaError?.resultCode == .SQLITE_READONLY)
    try writer.close()
    #expect(fileBytes(path) == before)
  }

  @Test(
    "opening a missing file readonly fails with a clear error and creates nothing", arguments: [false, true])
  func readonlyMissingFile(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let path = directory.path("missing.sqlite")
    var config = Configuration()
    config.readonly = true
    let error = #expect(throws: DatabaseError.self) { try openWriter(pool: pool, path: path, config) }
    #expect(error?.resultCode == .SQLITE_CANTOPEN)
    #expect(error?.message == "unable to open database file")
    #expect(error?.description.contains(path) == true)
    #expect(directory.fileNames().isEmpty)
  }

  // MARK: foreign keys

  private func makeParentChild(_ writer: any DatabaseWriter) throws {
    try writer.write { db in
      try db.execute(
        sql: """
          CREATE TABLE parent (id INTEGER PRIMARY KEY);
          CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
          INSERT INTO parent (id) VALUES (1);
          """)
    }
  }

  @Test("foreign keys are enforced by default", arguments: [false, true])
  func foreignKeysOnByDefault(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let writer = try openWriter(pool: pool, path: directory.path(), rawKeyConfiguration())
    try makeParentChild(writer)
    try writer.write { db in try db.execute(sql: "INSERT INTO child (parentId) VALUES (1)") }
    let error = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: "INSERT INTO child (parentId) VALUES (42)") }
    }
    #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
    #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM child") } == 1)
    #expect(try writer.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
  }

  @Test("foreignKeysEnabled = false lets a dangling reference in", arguments: [false, true])
  func foreignKeysOff(pool: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.foreignKeysEnabled = false
    let writer = try openWriter(pool: pool, path: directory.path(), config)
    try makeParentChild(writer)
    try writer.write { db in try db.execute(sql: "INSERT INTO child (parentId) VALUES (42)") }
    #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT parentId FROM child") } == 42)
    #expect(try writer.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == false)
  }

  // MARK: busy mode

  @Test(
    "busyMode .immediateError: a second writer fails with SQLITE_BUSY, without waiting for the lock to be released",
    arguments: [false, true])
  func busyImmediateError(wal: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.journalMode = wal ? .wal : .default
    config.busyMode = .immediateError
    let first = try DatabaseQueue(path: directory.path(), configuration: config)
    try first.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    let second = try DatabaseQueue(path: directory.path(), configuration: config)
    try first.inTransaction(.immediate) { db throws in
      try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
      let start = Date()
      let error = #expect(throws: DatabaseError.self) {
        try second.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('second')") }
      }
      #expect(error?.resultCode == .SQLITE_BUSY)
      #expect(Date().timeIntervalSince(start) < 2, "an immediate error waits a moment at most (about 100 ms)")
      return .commit
    }
    #expect(try second.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["first"])
  }

  @Test("busyMode .immediateError: a pool's write fails when another connection keeps its lock")
  func busyImmediateErrorPool() throws {
    let directory = TemporaryDirectory()
    let writer = try DatabasePool(path: directory.path())
    try writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
    let held = DispatchSemaphore(value: 0)
    let writeEnded = DispatchSemaphore(value: 0)
    let holder = holdWriteLock(path: directory.path(), held: held) { _ = waitFor(writeEnded) }
    held.wait()
    defer { holder.wait() }
    defer { writeEnded.signal() }
    let error = #expect(throws: DatabaseError.self) {
      try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }
    #expect(error?.resultCode == .SQLITE_BUSY)
  }

  @Test("busyMode .timeout: a second writer waits until the lock is released", arguments: [false, true])
  func busyTimeout(wal: Bool) throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.journalMode = wal ? .wal : .default
    // The first writer waits too: with a rollback journal its COMMIT needs the
    // second connection's brief shared lock (taken between its retries) to go.
    config.busyMode = .timeout(20)
    let first = try DatabaseQueue(path: directory.path(), configuration: config)
    try first.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }

    // The second connection tells when it starts asking for the write lock.
    let secondBegins = DispatchSemaphore(value: 0)
    var secondConfig = config
    secondConfig.busyMode = .timeout(20)
    secondConfig.prepareDatabase { db in
      db.trace { event in
        if event.description.hasPrefix("BEGIN IMMEDIATE") { secondBegins.signal() }
      }
    }
    let second = try DatabaseQueue(path: directory.path(), configuration: secondConfig)
    let secondSaw = Shared<[String]?>(nil)
    let secondFailure = Shared<DatabaseError?>(nil)
    let secondDone = DispatchSemaphore(value: 0)

    try first.inTransaction(.immediate) { db throws in
      try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
      DispatchQueue.global().async {
        do {
          let names = try second.write { db -> [String] in
            try db.execute(sql: "INSERT INTO item (name) VALUES ('second')")
            return try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY rowid")
          }
          secondSaw.update { $0 = names }
        } catch {
          secondFailure.update { $0 = error as? DatabaseError }
        }
        secondDone.signal()
      }
      // Commit only once the second writer is asking for the lock.
      #expect(waitFor(secondBegins))
      return .commit
    }
    #expect(waitFor(secondDone, seconds: 30))
    #expect(secondFailure.value == nil)
    #expect(secondSaw.value == ["first", "second"])
  }

  // MARK: label, journal mode

  @Test("the label names the connections of a queue and of a pool")
  func label() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    config.label = "inventory"
    let queue = try DatabaseQueue(path: directory.path("queue.sqlite"), configuration: config)
    #expect(try queue.read { db in db.description }.contains("inventory"))
    let pool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: config)
    #expect(try pool.write { db in db.description }.contains("inventory"))
    #expect(try pool.read { db in db.description }.contains("inventory"))
    #expect(pool.configuration.label == "inventory")
  }

  @Test("journalMode .wal puts a file queue in WAL mode; the default keeps a rollback journal")
  func queueJournalMode() throws {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    var config = rawKeyConfiguration()
    let defaultQueue = try DatabaseQueue(path: directory.path("default.sqlite"), configuration: config)
    #expect(try defaultQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    config.journalMode = .wal
    let walQueue = try DatabaseQueue(path: directory.path("wal.sqlite"), configuration: config)
    try walQueue.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
    #expect(try walQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    #expect(directory.fileNames().contains("wal.sqlite-wal"))
  }

  @Test("journalMode .wal on an in-memory queue fails with a clear error")
  func walInMemory() throws {
    var config = Configuration()
    config.journalMode = .wal
    let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(configuration: config) }
    #expect(error?.message?.contains("WAL") == true)
  }

  @Test(
    "encrypted connections get a 16 MiB page cache by default; plaintext ones keep SQLite's; a setting wins")
  func pageCacheSize() throws {
    let directory = TemporaryDirectory()
    func cacheSizes(_ config: Configuration, _ name: String) throws -> [Int] {
      var config = config
      config.maximumReaderCount = 1
      let pool = try DatabasePool(path: directory.path(name), configuration: config)
      defer { try? pool.close() }
      let writer = try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0 }
      let reader = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0 }
      return [writer, reader]
    }
    #expect(try cacheSizes(rawKeyConfiguration(), "keyed.sqlite") == [-16384, -16384])
    #expect(try cacheSizes(Configuration(), "plain.sqlite") == [-2000, -2000])
    var small = rawKeyConfiguration()
    small.pageCacheSize = -1000
    #expect(try cacheSizes(small, "small.sqlite") == [-1000, -1000])
  }
}
