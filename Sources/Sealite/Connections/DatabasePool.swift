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
  private let readers: ReaderPool
  /// Reads run on this concurrent queue; barrier writes wait for them and
  /// hold new ones back.
  private let barrier: DispatchQueue
  /// Set on the barrier queue and on every connection queue of this pool: an
  /// access that finds it is nested in another access of the same pool.
  private let accessKey: DispatchSpecificKey<Bool>

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
      writer = try SerializedDatabase(
        path: path, configuration: keyed, readOnly: configuration.readonly, label: "\(label).writer",
        ownerKey: accessKey)
      configuration = keyed
    } catch let error as DatabaseError where derivedKey != nil && error.resultCode == .SQLITE_NOTADB {
      // Settings the derivation does not know (or a wrong passphrase, which
      // SQLCipher's own derivation now reports as usual).
      writer = try SerializedDatabase(
        path: path, configuration: configuration, readOnly: configuration.readonly, label: "\(label).writer",
        ownerKey: accessKey)
    }
    if derivedKey == nil, let derived = try writer.sync({ db in try KeyDerivation.pooledKey(from: db) }) {
      // The writer derived the key itself (a new file, a passphrase given in
      // prepareDatabase): its readers use the same key, derived once more here.
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
      db.keyChangeObserver = { key in currentConfiguration.withLock { $0.rekeyedKey = key } }
    }
    barrier = DispatchQueue(label: "\(label).barrier", attributes: .concurrent)
    barrier.setSpecific(key: accessKey, value: true)
    readers = ReaderPool(maximumCount: configuration.maximumReaderCount) { [currentConfiguration] number in
      try SerializedDatabase(
        path: path, configuration: currentConfiguration.value, readOnly: true,
        label: "\(label).reader.\(number)", ownerKey: accessKey)
    }
  }

  /// Closes every connection. Further accesses throw.
  public func close() throws {
    readers.close()
    try writer.close()
  }

  private func checkNotReentrant() throws {
    if DispatchQueue.getSpecific(key: accessKey) == true {
      throw DatabaseError.misuse(
        "database access is not reentrant: do not read or write from inside another read or write of the same pool"
      )
    }
  }

  private func withReader<T>(_ body: (SerializedDatabase) throws -> T) throws -> T {
    let (reader, generation) = try readers.get()
    defer { readers.release(reader, generation: generation) }
    return try body(reader)
  }

  public func read<T>(_ value: (Database) throws -> T) throws -> T {
    try checkNotReentrant()
    return try barrier.sync {
      try withReader { reader in try reader.sync { db in try db.readTransaction(value) } }
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

  public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
    try checkNotReentrant()
    return try barrier.sync {
      try withReader { reader in try reader.sync(value) }
    }
  }

  public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    try checkNotReentrant()
    return try writer.sync { db in try db.withoutTransaction(updates) }
  }

  public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    try checkNotReentrant()
    return try barrier.sync(flags: .barrier) {
      try writer.sync { db in try db.withoutTransaction(updates) }
    }
  }

  public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
    writer.async(updates)
  }

  public func asyncBarrierWriteWithoutTransaction(
    _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
  ) {
    barrier.async(flags: .barrier) { [writer] in
      do {
        try writer.sync { db in updates(.success(db)) }
      } catch {
        updates(.failure(error))
      }
    }
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

extension DatabasePool {
  // The async variants are declared here, not only in a protocol extension, so
  // that `try await X.read { … }` picks them over the blocking methods.

  /// Runs `value` in a read-only transaction, without blocking the caller.
  public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await awaitRead(value)
  }

  /// Runs `updates` without a transaction, without blocking the caller.
  public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T)
    async throws -> T
  {
    try await awaitWriteWithoutTransaction(updates)
  }

  /// Runs `updates` after every read in progress, without blocking the caller.
  public func barrierWriteWithoutTransaction<T: Sendable>(
    _ updates: @escaping @Sendable (Database) throws -> T
  ) async throws -> T {
    try await awaitBarrierWriteWithoutTransaction(updates)
  }
}
