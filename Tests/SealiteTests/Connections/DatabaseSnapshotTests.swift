import Dispatch
import Foundation
import Sealite
import Testing

/// Pools to take snapshots of: plaintext and encrypted.
enum SnapshotBackend: String, CaseIterable, Sendable {
  case plaintext
  case encrypted

  func makePool(_ directory: TemporaryDirectory, label: String? = nil) throws -> DatabasePool {
    var configuration = self == .encrypted ? passphraseConfiguration() : Configuration()
    configuration.label = label
    let pool = try DatabasePool(path: directory.path(), configuration: configuration)
    try pool.write { db in
      try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
      try db.execute(sql: "INSERT INTO player(name) VALUES ('Arthur')")
    }
    return pool
  }
}

private func playerCount(_ db: Database) throws -> Int {
  try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
}

@Suite("DatabaseSnapshot")
struct DatabaseSnapshotTests {
  @Test(
    "A snapshot reads the content of its creation, whatever is committed later",
    arguments: SnapshotBackend.allCases)
  func unchangingContent(backend: SnapshotBackend) async throws {
    let directory = TemporaryDirectory()
    let pool = try backend.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    try await pool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Barbara')") }
    #expect(try await snapshot.read(playerCount) == 1)
    #expect(try await snapshot.read { db in try playerCount(db) } == 1)
    #expect(try await snapshot.unsafeRead(playerCount) == 1)
    #expect(try await pool.read(playerCount) == 2)
    // Another snapshot reads the new state.
    #expect(try await pool.makeSnapshot().read(playerCount) == 2)
    #expect(snapshot.path == pool.path)
    #expect(snapshot.configuration.readonly)
  }

  @Test("A snapshot made inside writeWithoutTransaction reads exactly the last commit")
  func snapshotFromTheWriter() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.plaintext.makePool(directory)
    let snapshot = try pool.writeWithoutTransaction { db -> DatabaseSnapshot in
      try db.execute(sql: "DELETE FROM player")
      let snapshot = try pool.makeSnapshot()
      try db.execute(sql: "INSERT INTO player(name) VALUES ('Craig')")
      return snapshot
    }
    #expect(try snapshot.read(playerCount) == 0)
  }

  @Test("makeSnapshot() inside a transaction is a misuse error, not a snapshot of uncommitted changes")
  func snapshotInsideTransaction() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.plaintext.makePool(directory)
    try pool.write { db in
      let error = #expect(throws: DatabaseError.self) { try pool.makeSnapshot() }
      #expect(error?.resultCode == .SQLITE_MISUSE)
    }
  }

  @Test("A snapshot can not write", arguments: SnapshotBackend.allCases)
  func readOnly(backend: SnapshotBackend) throws {
    let directory = TemporaryDirectory()
    let pool = try backend.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    let error = #expect(throws: DatabaseError.self) {
      try snapshot.read { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Eve')") }
    }
    #expect(error?.resultCode == .SQLITE_READONLY)
    #expect(try pool.read(playerCount) == 1)
  }

  @Test("Reads nest in a snapshot through reentrantRead and unsafeReentrantRead")
  func reentrantReads() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.plaintext.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    let count = try snapshot.read { _ in
      try snapshot.reentrantRead { db in try snapshot.unsafeReentrantRead { _ in try playerCount(db) } }
    }
    #expect(count == 1)
  }

  @Test("asyncRead and asyncUnsafeRead read the snapshot off the caller's thread")
  func asynchronousReads() async throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.plaintext.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    try await pool.write { db in try db.execute(sql: "DELETE FROM player") }
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      group.addTask {
        try await withCheckedThrowingContinuation { continuation in
          snapshot.asyncRead { result in continuation.resume(with: Result { try playerCount(result.get()) }) }
        }
      }
      group.addTask {
        try await withCheckedThrowingContinuation { continuation in
          snapshot.asyncUnsafeRead { result in
            continuation.resume(with: Result { try playerCount(result.get()) })
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts == [1, 1])
  }

  @Test("A ValueObservation of a snapshot delivers the snapshot's value, and no other")
  func observation() async throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.encrypted.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    let values = Shared<[Int]>([])
    let cancellable = ValueObservation.tracking(playerCount).start(
      in: snapshot, scheduling: anyImmediate, onError: { _ in },
      onChange: { count in values.update { $0.append(count) } })
    #expect(values.value == [1])
    try await pool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Barbara')") }
    // The same observation of the pool sees the write; the snapshot's does not.
    let poolValues = Shared<[Int]>([])
    let poolCancellable = ValueObservation.tracking(playerCount).start(
      in: pool, scheduling: anyImmediate, onError: { _ in },
      onChange: { count in poolValues.update { $0.append(count) } })
    try await pool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Craig')") }
    #expect(await eventually { poolValues.value == [2, 3] })
    #expect(values.value == [1])
    cancellable.cancel()
    poolCancellable.cancel()
  }

  @Test("A live snapshot keeps the WAL from being checkpointed past its state; released, it does not")
  func checkpointsWaitForSnapshots() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.encrypted.makePool(directory)
    var snapshot: DatabaseSnapshot? = try pool.makeSnapshot()
    try pool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Barbara')") }
    let partial = try pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    #expect(partial.walFrameCount > 0)
    #expect(partial.checkpointedFrameCount < partial.walFrameCount)
    #expect(try snapshot?.read(playerCount) == 1)
    let error = #expect(throws: DatabaseError.self) {
      try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
    #expect(error?.resultCode == .SQLITE_BUSY)
    snapshot = nil
    let full = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    #expect(full.walFrameCount == 0)
    #expect(try FileManager.default.attributesOfItem(atPath: pool.path + "-wal")[.size] as? Int == 0)
    #expect(try pool.read(playerCount) == 2)
  }

  @Test("A snapshot survives a key change of its pool, and reads its own state")
  func keyChange() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.encrypted.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    try pool.changePassphrase("another passphrase")
    try pool.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Barbara')") }
    #expect(try snapshot.read(playerCount) == 1)
    #expect(try pool.read(playerCount) == 2)
    var configuration = Configuration()
    configuration.key = .passphrase("another passphrase")
    #expect(try DatabaseQueue(path: pool.path, configuration: configuration).read(playerCount) == 2)
  }

  @Test("A closed snapshot throws")
  func close() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.plaintext.makePool(directory)
    let snapshot = try pool.makeSnapshot()
    try snapshot.close()
    #expect(throws: DatabaseError.self) { try snapshot.read(playerCount) }
  }
}

@Suite("Concurrent reads spawned from a write")
struct ConcurrentReadTests {
  @Test("A pool's concurrent read sees the last commit, not the writes that follow")
  func poolConcurrentRead() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.encrypted.makePool(directory)
    let count = Shared<Result<Int, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    try pool.writeWithoutTransaction { db in
      try db.execute(sql: "DELETE FROM player")
      pool.asyncConcurrentRead { result in
        count.update { $0 = Result { try playerCount(result.get()) } }
        done.signal()
      }
      try db.execute(sql: "INSERT INTO player(name) VALUES ('Barbara')")
    }
    done.wait()
    #expect(try count.value?.get() == 0)
    #expect(try pool.read(playerCount) == 1)
  }

  @Test(
    "A queue's concurrent read runs before spawnConcurrentRead returns, and can not write",
    arguments: [false, true])
  func queueConcurrentRead(erased: Bool) throws {
    let queue = try DatabaseQueue()
    let writer: any DatabaseWriter = erased ? AnyDatabaseWriter(queue) : queue
    try writer.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)") }
    let observed = Shared<(count: Int?, writeFailed: Bool)>((nil, false))
    try writer.writeWithoutTransaction { db in
      try db.execute(sql: "INSERT INTO player(name) VALUES ('Arthur')")
      writer.spawnConcurrentRead { result in
        let db = try! result.get()
        let count = try? playerCount(db)
        let writeFailed = (try? db.execute(sql: "DELETE FROM player")) == nil
        observed.update { $0 = (count, writeFailed) }
      }
      #expect(observed.value.count == 1)
      #expect(observed.value.writeFailed)
      #expect(!db.isInsideTransaction)
    }
  }

  @Test("A concurrent read asked outside a write, or inside a transaction, gets a misuse error")
  func misuses() throws {
    let directory = TemporaryDirectory()
    let pool = try SnapshotBackend.plaintext.makePool(directory)
    let queue = try DatabaseQueue()
    for writer in [pool, queue] as [any DatabaseWriter] {
      let errors = Shared<[ResultCode]>([])
      let record: @Sendable (Result<Database, any Error>) -> Void = { result in
        if case .failure(let error as DatabaseError) = result {
          errors.update { $0.append(error.resultCode) }
        }
      }
      writer.spawnConcurrentRead(record)
      try writer.write { _ in writer.spawnConcurrentRead(record) }
      #expect(errors.value == [.SQLITE_MISUSE, .SQLITE_MISUSE])
    }
  }
}

@Suite("AnyDatabaseReader and AnyDatabaseWriter")
struct TypeErasedDatabaseTests {
  @Test("The erased reader and writer forward every access", arguments: ObservationBackend.allCases)
  func forwarding(backend: ObservationBackend) async throws {
    let directory = TemporaryDirectory()
    let base = try backend.makeWriter(directory)
    let writer = AnyDatabaseWriter(base)
    let reader = AnyDatabaseReader(base)
    #expect(writer.path == base.path)
    #expect(reader.configuration.maximumReaderCount == base.configuration.maximumReaderCount)
    try await writer.write { db in
      try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
    }
    try await writer.write { db in try db.execute(sql: "INSERT INTO player(name) VALUES ('Arthur')") }
    try await writer.barrierWriteWithoutTransaction { db in
      try db.execute(sql: "INSERT INTO player(name) VALUES ('Barbara')")
    }
    #expect(try await reader.read(playerCount) == 2)
    #expect(try await reader.read { db in try playerCount(db) } == 2)
    #expect(try await reader.unsafeRead(playerCount) == 2)
    #expect(try writer.unsafeReentrantWrite { db in try writer.unsafeReentrantRead(playerCount) } == 2)
    let values = Shared<[Int]>([])
    let cancellable = ValueObservation.tracking(playerCount).start(
      in: writer, scheduling: anyImmediate, onError: { _ in },
      onChange: { count in values.update { $0.append(count) } })
    try await writer.write { db in try db.execute(sql: "DELETE FROM player") }
    #expect(await eventually { values.value == [2, 0] })
    cancellable.cancel()
    try writer.close()
    #expect(throws: (any Error).self) { try base.read(playerCount) }
  }
}
