import Dispatch
import Foundation

/// A database connection that serializes all accesses: one read or write at a
/// time, in a file or in memory.
///
///     var config = Configuration()
///     config.key = .passphrase("secret")
///     let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
///     try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
///     let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
///
/// Opening fails with a clear error when the key does not open the file, the
/// file is encrypted and no key is given, a key is given for a plaintext file,
/// or the file is not a database; nothing is written to the file then.
public final class DatabaseQueue: DatabaseWriter {
  /// The configuration of the connection.
  public let configuration: Configuration
  /// The path of the database file, `:memory:` for an in-memory database.
  public let path: String
  let writer: SerializedDatabase

  /// Opens (or creates) the database at `path`.
  public init(path: String, configuration: Configuration = Configuration()) throws {
    self.path = path
    self.configuration = configuration
    let label = configuration.label ?? "Sealite.DatabaseQueue"
    writer = try SerializedDatabase(path: path, configuration: configuration, readOnly: false, label: label)
    if configuration.journalMode == .wal, !configuration.readonly {
      try writer.sync { db in try db.setJournalModeWAL() }
    }
    if configuration.publishesChangedTables, !configuration.readonly {
      try writer.sync { db in try ChangeJournal.install(on: db) }
    }
  }

  /// Opens a private in-memory database.
  public convenience init(configuration: Configuration = Configuration()) throws {
    try self.init(path: ":memory:", configuration: configuration)
  }

  /// Closes the connection. Further accesses throw.
  public func close() throws {
    try writer.close()
  }

  /// Interrupts the statement the connection runs now, from any thread.
  public func interrupt() {
    writer.interrupt()
  }

  @_disfavoredOverload
  public func read<T>(_ value: (Database) throws -> T) throws -> T {
    try writer.sync { db in try db.readTransaction(value) }
  }

  public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await writer.execute { db, cancellation in
      try db.readTransaction { db in try cancellation.run(db, value) }
    }
  }

  public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    writer.async { db in
      do {
        try db.readTransaction { db in value(.success(db)) }
      } catch {
        value(.failure(error))
      }
    }
  }

  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
    try writer.syncRethrowing(value)
  }

  public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await writer.execute { db, cancellation in try cancellation.run(db, value) }
  }

  public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    writer.async { db in value(.success(db)) }
  }

  /// Runs `value` with the connection, inside the current access if called
  /// from one (no transaction, writes allowed).
  public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
    try writer.reentrantSync(value)
  }

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

  /// A queue has no concurrent reads: the same as the blocking `writeWithoutTransaction`.
  @_disfavoredOverload
  public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    try writer.sync { db in try db.withoutTransaction(updates) }
  }

  /// A queue has no concurrent reads: the same as the `async` `writeWithoutTransaction`.
  public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T)
    async throws -> T
  {
    try await writeWithoutTransaction(updates)
  }

  public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
    writer.async(updates)
  }

  public func asyncBarrierWriteWithoutTransaction(
    _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
  ) {
    writer.async { db in updates(.success(db)) }
  }

  /// Runs `updates` with the connection, inside the current access if called
  /// from one (no transaction).
  public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
    try writer.reentrantSync(updates)
  }

  /// Runs `updates` with the connection, outside of any transaction (GRDB's name).
  public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
    try writer.syncRethrowing(updates)
  }

  /// Runs `updates` in a transaction of the given kind.
  public func inTransaction(
    _ kind: TransactionKind? = nil, _ updates: (Database) throws -> TransactionCompletion
  ) throws {
    try writer.sync { db in try db.inTransaction(kind) { try updates(db) } }
  }

  /// Re-encrypts the database with a new passphrase.
  public func changePassphrase(_ passphrase: String) throws {
    try changeKey(to: .passphrase(passphrase))
  }

  /// Re-encrypts the database with a new key.
  public func changeKey(to key: DatabaseKey) throws {
    try writer.sync { db in try db.changeKey(to: key) }
  }
}

extension Database {
  /// Switches to WAL, and checks SQLite agreed (an in-memory database can not).
  func setJournalModeWAL() throws {
    let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
    guard mode?.lowercased() == "wal" else {
      throw DatabaseError(
        resultCode: .SQLITE_ERROR, message: "could not enable WAL mode (journal mode is \(mode ?? "unknown"))"
      )
    }
    try execute(sql: "PRAGMA synchronous = NORMAL")
    try createNonEmptyWAL()
  }

  /// Makes sure the `-wal` and `-shm` files exist and the WAL holds a commit,
  /// as GRDB does: a read-only connection can not create them and fails with
  /// `SQLITE_CANTOPEN` without them, and a WAL left empty by a persistent-WAL
  /// setup gives readers nothing to open.
  private func createNonEmptyWAL() throws {
    let walPath = path + "-wal"
    let attributes = try? FileManager.default.attributesOfItem(atPath: walPath)
    let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
    guard size == 0 else { return }
    try inSavepoint {
      if try ChangeJournal.exists(in: self) {
        // Observers in other processes read this commit's entry, which names
        // no table: they refresh nothing for it.
        try ChangeJournal.recordCommitWithoutChanges(in: self)
      } else {
        // A schema change that leaves no trace but a commit in the WAL.
        try execute(sql: "CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY); DROP TABLE grdb_issue_102")
      }
      return .commit
    }
  }
}

extension DatabaseQueue {
  /// Opens a shared in-memory database: every queue opened with the same name
  /// in this process sees the same data, until the last one is released.
  public convenience init(named name: String, configuration: Configuration = Configuration()) throws {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-_.")
    let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    try self.init(path: "file:\(encoded)?mode=memory&cache=shared", configuration: configuration)
  }
}
