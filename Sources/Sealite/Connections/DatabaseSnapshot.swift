import Dispatch

/// A reader of an unchanging database content: the content of the database
/// when the snapshot was made with ``DatabasePool/makeSnapshot()``.
///
///     let dbPool = try DatabasePool(path: "/path/to/db.sqlite", configuration: config)
///     let snapshot = try dbPool.makeSnapshot()
///     try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
///     // Still the players that existed when the snapshot was made:
///     let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
///
/// A snapshot is one reader connection, keyed like the pool's readers, that
/// holds one read transaction of the WAL for its whole life: it needs no
/// snapshot API of SQLite's. Its accesses are serialized. It does not keep other connections
/// from writing, but while it lives the WAL can not be checkpointed past the
/// state it reads, so the `-wal` file grows with the writes made meanwhile:
/// release snapshots when they are no longer needed.
///
/// To choose the state a snapshot reads, make it from inside
/// `writeWithoutTransaction(_:)`, outside of
/// any transaction: no other write can run in between.
///
///     let snapshot = try dbPool.writeWithoutTransaction { db in
///       try db.execute(sql: "DELETE FROM player")
///       return try dbPool.makeSnapshot()  // guaranteed to see no player
///     }
///
/// A snapshot is a ``DatabaseReader``: a ``ValueObservation`` started in one
/// delivers one value, the snapshot's, and no other.
public final class DatabaseSnapshot: DatabaseSnapshotReader {
  private let reader: SerializedDatabase

  /// The configuration of the snapshot's connection: the pool's, read-only.
  public let configuration: Configuration

  /// The path of the database file.
  public let path: String

  /// - parameter openSnapshot: called inside the read transaction, before its
  ///   first read, to choose the state it reads (`sqlite3_snapshot_open`);
  ///   nil for the state committed last.
  init(
    path: String, configuration: Configuration, label: String,
    openSnapshot: ((Database) throws -> Void)? = nil
  ) throws {
    var configuration = configuration
    configuration.readonly = true
    configuration.readersWaitForLocks = true
    configuration.maximumReaderCount = 1
    // The read transaction outlives each access on purpose.
    configuration.allowsUnsafeTransactions = true
    // Nothing changes what a snapshot reads: no watch of other processes.
    configuration.observesOtherProcesses = false
    configuration.observesOtherProcessesByPolling = false
    self.path = path
    self.configuration = configuration
    reader = try SerializedDatabase(path: path, configuration: configuration, readOnly: true, label: label)
    try reader.sync { db in
      try db.beginTransaction(.deferred)
      try openSnapshot?(db)
      // A deferred transaction takes its snapshot at its first read: now.
      _ = try db.cachedStatement(sql: "SELECT rootpage FROM sqlite_master LIMIT 1").execute()
    }
  }

  deinit {
    reader.reentrantSync(DatabaseSnapshot.endReadTransaction)
  }

  /// Ends the read transaction, before the connection closes (a commit of a
  /// read transaction only fails when interrupted: then roll back).
  private static func endReadTransaction(_ db: Database) {
    guard db.isInsideTransaction else { return }
    do { try db.commit() } catch { try? db.rollback() }
  }

  /// Closes the snapshot's connection. Further accesses throw.
  public func close() throws {
    try reader.sync(DatabaseSnapshot.endReadTransaction)
    try reader.close()
  }

  /// Interrupts the statement the snapshot runs now, from any thread.
  public func interrupt() {
    reader.interrupt()
  }

  /// Runs `value` with the snapshot's connection, which always reads the
  /// same content; nested in another access of the same snapshot, it stops
  /// the program, as in GRDB (use ``unsafeReentrantRead(_:)`` there).
  @_disfavoredOverload
  public func read<T>(_ value: (Database) throws -> T) rethrows -> T {
    try reader.syncRethrowing(value)
  }

  /// Runs `value` with the snapshot's connection, without blocking the caller.
  public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await reader.execute { db, cancellation in try cancellation.run(db, value) }
  }

  /// Runs `value` with the snapshot's connection later, off the caller's thread.
  public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    reader.async { db in value(.success(db)) }
  }

  /// The same as `read(_:)`: nothing is unsafe in a
  /// snapshot, whose content never changes.
  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
    try reader.syncRethrowing(value)
  }

  /// The same as `read(_:)`, without blocking the caller.
  public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await read(value)
  }

  /// The same as ``asyncRead(_:)``.
  public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    asyncRead(value)
  }

  /// Runs `value` with the snapshot's connection, inside the current access
  /// of the snapshot when called from one.
  public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
    try reader.reentrantSync(value)
  }
}

/// A reader whose content never changes, such as ``DatabaseSnapshot``. Reads may nest, and "unsafe" reads are reads.
///
///     func playerCount(in snapshot: some DatabaseSnapshotReader) throws -> Int {
///       try snapshot.reentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
///     }
public protocol DatabaseSnapshotReader: DatabaseReader {}

extension DatabaseSnapshotReader {
  /// Runs `value`, inside the current access when called from one: safe in a
  /// snapshot, whose content never changes.
  public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
    try unsafeReentrantRead(value)
  }

  /// The same as `read`: nothing is unsafe in a snapshot.
  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
    try read(value)
  }

  /// The same as `asyncRead`: nothing is unsafe in a snapshot.
  public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    asyncRead(value)
  }
}
