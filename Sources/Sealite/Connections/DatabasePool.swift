import Dispatch
import Foundation
import Synchronization

/// A database in WAL mode with one writer connection and up to
/// ``Configuration/maximumReaderCount`` reader connections: reads run
/// concurrently with each other and with the write, each in its own snapshot.
///
///     var config = Configuration()
///     config.key = .passphrase("secret")
///     let dbPool = try DatabasePool(path: "/path/to/db.sqlite", configuration: config)
///     let count = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
///
/// Every reader is keyed like the writer. ``changePassphrase(_:)`` waits for the
/// reads in progress, re-encrypts, and reconnects readers with the new key.
public final class DatabasePool: DatabaseWriter {
  /// The path of the database file.
  public let path: String
  private let currentConfiguration: Locked<Configuration>
  let writer: SerializedDatabase
  let readers: ReaderPool
  /// Reads run on this concurrent queue; barrier writes wait for them and
  /// hold new ones back.
  let barrier: DispatchQueue
  /// Set on the barrier queue and on the queue of every reader connection of
  /// this pool: an access that finds it is nested in a read of the same pool.
  private let accessKey: DispatchSpecificKey<Bool>
  /// True while a barrier write holds the barrier: a read started from the
  /// writer connection then would wait for itself.
  let barrierIsHeld = Locked(false)
  let snapshotNumbers = SnapshotNumbers()

  /// The configuration of the pool's connections.
  public var configuration: Configuration { currentConfiguration.value }

  /// Opens (or creates) the database at `path` and switches it to WAL mode.
  public init(path: String, configuration: Configuration = Configuration()) throws {
    guard configuration.maximumReaderCount > 0 else {
      throw DatabaseError.misuse("maximumReaderCount must be at least 1")
    }
    self.path = path
    let label = configuration.label ?? "Sealite.DatabasePool"
    let accessKey = DispatchSpecificKey<Bool>()
    self.accessKey = accessKey
    // One key derivation for the whole pool: a passphrase is stretched here,
    // with the file's salt, and every connection is keyed with the result.
    var configuration = configuration
    let derivedKey = KeyDerivation.pooledKey(for: configuration, path: path)
    do {
      var keyed = configuration
      keyed.rekeyedKey = derivedKey ?? configuration.rekeyedKey
      keyed.derivesPassphraseForReaders = true
      writer = try SerializedDatabase(
        path: path, configuration: keyed, readOnly: configuration.readonly, label: "\(label).writer")
      configuration = keyed
      configuration.derivesPassphraseForReaders = false
    } catch let error as DatabaseError where derivedKey != nil && error.resultCode == .SQLITE_NOTADB {
      // Settings the derivation does not know (or a wrong passphrase, which
      // SQLCipher's own derivation now reports as usual).
      writer = try SerializedDatabase(
        path: path, configuration: configuration, readOnly: configuration.readonly, label: "\(label).writer")
    }
    if derivedKey == nil, let derived = try writer.sync({ db in try KeyDerivation.pooledKey(from: db) }) {
      // The writer was keyed with a passphrase in prepareDatabase: its readers
      // use the key it derived before its first read, or, for a new file (no
      // salt before the writer made it), the same key derived once more here.
      configuration.rekeyedKey = derived
    }
    if !configuration.readonly {
      try writer.sync { db in try db.setJournalModeWAL() }
      if configuration.publishesChangedTables {
        try writer.sync { db in try ChangeJournal.install(on: db) }
      }
    }
    let currentConfiguration = Locked(configuration)
    self.currentConfiguration = currentConfiguration
    try writer.sync { db in
      db.observeKeyChanges { key in currentConfiguration.withLock { $0.rekeyedKey = key } }
    }
    barrier = DispatchQueue(label: "\(label).barrier", attributes: .concurrent)
    barrier.setSpecific(key: accessKey, value: true)
    readers = ReaderPool(maximumCount: configuration.maximumReaderCount) { [currentConfiguration] number in
      var readerConfiguration = currentConfiguration.value
      readerConfiguration.readersWaitForLocks = true
      return try SerializedDatabase(
        path: path, configuration: readerConfiguration, readOnly: true,
        label: "\(label).reader.\(number)", ownerKey: accessKey)
    }
  }

  /// Closes every connection. Further accesses throw.
  public func close() throws {
    readers.close()
    try writer.close()
  }

  /// Interrupts the statements running on every connection of the pool, from
  /// any thread.
  public func interrupt() {
    writer.interrupt()
    readers.interrupt()
  }

  // MARK: - Reentrancy
  //
  // GRDB's rules: a read (or unsafe read) inside a read of the same pool is an
  // error; a write inside a read, and a read inside a write, are allowed (they
  // use other connections); a write inside a write is an error. Sealite adds
  // thrown errors where GRDB would deadlock: a barrier write inside any access
  // of the pool, and a read inside a barrier write.

  /// True on the dispatch queues of the pool's reads (the barrier queue and
  /// every reader connection's queue).
  private var isInsideRead: Bool { DispatchQueue.getSpecific(key: accessKey) == true }

  private func checkReadIsNotNested() throws {
    if isInsideRead {
      throw DatabaseError.misuse(
        "database access is not reentrant: do not read from inside another read of the same pool")
    }
    if writer.isOnQueue && barrierIsHeld.value {
      throw DatabaseError.misuse(
        "a read can not start from inside a barrier write of the same pool: it waits for the barrier to end")
    }
  }

  private func checkBarrierIsNotNested() throws {
    if isInsideRead || writer.isOnQueue {
      throw DatabaseError.misuse(
        "a barrier write can not start from inside another access of the same pool: it waits for that access to end"
      )
    }
  }

  private func withReader<T>(_ body: (SerializedDatabase) throws -> T) throws -> T {
    let (reader, generation) = try readers.get()
    defer { readers.release(reader, generation: generation) }
    return try body(reader)
  }

  /// Holds the barrier queue (shared by reads, exclusive for barrier writes)
  /// for an `async` access: a dispatch thread holds it until the lease ends,
  /// while the task awaits its connection.
  private func leaseBarrier(exclusive: Bool) async throws -> AccessLease<Void> {
    try await withCheckedThrowingContinuation { continuation in
      barrier.async(flags: exclusive ? .barrier : []) { [barrierIsHeld] in
        let lease = AccessLease(())
        if exclusive { barrierIsHeld.withLock { $0 = true } }
        continuation.resume(returning: lease)
        lease.waitForEnd()
        if exclusive { barrierIsHeld.withLock { $0 = false } }
      }
    }
  }

  /// A reader connection for an `async` read, with the barrier held in shared
  /// mode until the lease ends.
  private func leaseReader() async throws -> AccessLease<SerializedDatabase> {
    try await withCheckedThrowingContinuation { continuation in
      barrier.async { [readers] in
        let reader: SerializedDatabase
        let generation: Int
        do {
          (reader, generation) = try readers.get()
        } catch {
          continuation.resume(throwing: error)
          return
        }
        let lease = AccessLease(reader)
        continuation.resume(returning: lease)
        lease.waitForEnd()
        readers.release(reader, generation: generation)
      }
    }
  }

  // MARK: - Reading

  @_disfavoredOverload
  public func read<T>(_ value: (Database) throws -> T) throws -> T {
    try checkReadIsNotNested()
    return try barrier.sync {
      try withReader { reader in try reader.sync { db in try db.readTransaction(value) } }
    }
  }

  public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    let lease = try await leaseReader()
    defer { lease.end() }
    return try await lease.value.execute { db, cancellation in
      try db.readTransaction { db in try cancellation.run(db, value) }
    }
  }

  public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    barrier.async { [self] in
      do {
        try withReader { reader in
          try reader.sync { db in
            do {
              try db.readTransaction { db in value(.success(db)) }
            } catch {
              value(.failure(error))
            }
          }
        }
      } catch {
        value(.failure(error))
      }
    }
  }

  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
    try checkReadIsNotNested()
    return try barrier.sync {
      try withReader { reader in try reader.sync(value) }
    }
  }

  public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    let lease = try await leaseReader()
    defer { lease.end() }
    return try await lease.value.execute { db, cancellation in try cancellation.run(db, value) }
  }

  public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    barrier.async { [self] in
      do {
        try withReader { reader in try reader.sync { db in value(.success(db)) } }
      } catch {
        value(.failure(error))
      }
    }
  }

  /// Runs `value` inside the current access when called from one (the reader
  /// connection of a read, the writer connection of a write), with a reader
  /// connection otherwise.
  public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
    if let reader = readers.current {
      return try reader.reentrantSync(value)
    }
    if writer.isOnQueue {
      return try writer.reentrantSync(value)
    }
    return try unsafeRead(value)
  }

  // MARK: - Writing

  @_disfavoredOverload
  public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
    try writer.syncRethrowing { db in try db.withoutTransactionRethrowing(updates) }
  }

  public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws
    -> T
  {
    try await writer.execute { db, cancellation in
      try db.withoutTransaction { db in try cancellation.run(db, updates) }
    }
  }

  @_disfavoredOverload
  public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    try checkBarrierIsNotNested()
    return try barrier.sync(flags: .barrier) {
      barrierIsHeld.withLock { $0 = true }
      defer { barrierIsHeld.withLock { $0 = false } }
      return try writer.sync { db in try db.withoutTransaction(updates) }
    }
  }

  public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T)
    async throws -> T
  {
    let lease = try await leaseBarrier(exclusive: true)
    defer { lease.end() }
    return try await writer.execute { db, cancellation in
      try db.withoutTransaction { db in try cancellation.run(db, updates) }
    }
  }

  public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
    writer.async(updates)
  }

  public func asyncBarrierWriteWithoutTransaction(
    _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
  ) {
    barrier.async(flags: .barrier) { [writer, barrierIsHeld] in
      barrierIsHeld.withLock { $0 = true }
      defer { barrierIsHeld.withLock { $0 = false } }
      do {
        try writer.sync { db in updates(.success(db)) }
      } catch {
        updates(.failure(error))
      }
    }
  }

  /// Runs `updates` with the writer connection, inside the current write
  /// access if called from one (no transaction).
  public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
    try writer.reentrantSync(updates)
  }

  /// Closes idle reader connections, and busy ones when their read ends; new
  /// reads open fresh connections.
  public func invalidateReadOnlyConnections() {
    readers.invalidate()
  }

  /// Re-encrypts the database with a new passphrase: waits for the reads in
  /// progress, rekeys, and reconnects readers with the new passphrase.
  public func changePassphrase(_ passphrase: String) throws {
    try changeKey(to: .passphrase(passphrase))
  }

  /// Re-encrypts the database with a new key; see ``changePassphrase(_:)``.
  public func changeKey(to key: DatabaseKey) throws {
    try barrierWriteWithoutTransaction { db in
      // The writer's key change observer records the key for new readers.
      try db.changeKey(to: key)
      readers.invalidate()
    }
  }
}
