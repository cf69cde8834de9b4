import Foundation

/// A reader of an unchanging database content, that other connections can
/// reopen: GRDB's snapshot pool, built on SQLite's WAL snapshots
/// (`sqlite3_snapshot_get` and `sqlite3_snapshot_open`).
///
///     let snapshot = try dbPool.makeSnapshotPool()
///     let count = try snapshot.read { db in try Player.fetchCount(db) }
///
/// SQLite has WAL snapshots only when compiled with `SQLITE_ENABLE_SNAPSHOT`,
/// as ``SQLiteFeatures`` reports (capability
/// ``SQLiteFeatures/Capability/snapshots``). Neither SQLCipher build of
/// Debian is: there, every initializer throws a ``SQLiteFeatureError`` that
/// names the capability. ``DatabasePool/makeSnapshot()`` needs no snapshot
/// API, and reads an unchanging content on every build.
///
/// Where SQLite has the API, the snapshot's reads are serialized on one
/// connection, which holds the snapshot's read transaction for its whole
/// life (the WAL is not checkpointed past it meanwhile).
public final class DatabaseSnapshotPool: DatabaseSnapshotReader {
  private let base: DatabaseSnapshot

  /// The configuration of the snapshot's connection: read-only.
  public var configuration: Configuration { base.configuration }

  /// The path of the database file.
  public var path: String { base.path }

  /// A snapshot of the state that `db` reads: the state of its current read
  /// transaction, or, outside of a transaction, the state committed last.
  /// `db` must not be inside a write transaction.
  ///
  /// - parameter db: a connection to a WAL database.
  /// - parameter configuration: the configuration of the snapshot's
  ///   connection (its key), or nil for that of `db`.
  public init(_ db: Database, configuration: Configuration? = nil) throws {
    try SQLiteFeatures.linked.require(.snapshots)
    var taken: WALSnapshot?
    if db.isInsideTransaction {
      taken = try WALSnapshot(db)
    } else {
      try db.inTransaction(.deferred) {
        // A deferred transaction has a state to take once it has read.
        _ = try Row.fetchAll(db, sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        taken = try WALSnapshot(db)
        return .commit
      }
    }
    guard let snapshot = taken else { throw DatabaseError.misuse("no database snapshot was taken") }
    base = try DatabaseSnapshot(
      path: db.path, configuration: configuration ?? db.configuration,
      label: "\(db.configuration.label ?? "Sealite").snapshotPool",
      openSnapshot: { try snapshot.open(in: $0) })
  }

  /// A snapshot of the state committed last in the WAL database at `path`.
  public init(path: String, configuration: Configuration = Configuration()) throws {
    try SQLiteFeatures.linked.require(.snapshots)
    base = try DatabaseSnapshot(
      path: path, configuration: configuration, label: "\(configuration.label ?? "Sealite").snapshotPool")
  }

  /// Closes the snapshot's connection. Further accesses throw.
  public func close() throws { try base.close() }

  /// Interrupts the statement the snapshot runs now, from any thread.
  public func interrupt() { base.interrupt() }

  /// Runs `value` with the snapshot's connection, which always reads the
  /// same content.
  @_disfavoredOverload
  public func read<T>(_ value: (Database) throws -> T) throws -> T { try base.read(value) }

  /// Runs `value` with the snapshot's connection, without blocking the caller.
  public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await base.read(value)
  }

  /// Runs `value` with the snapshot's connection later, off the caller's thread.
  public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    base.asyncRead(value)
  }

  /// The same as `read(_:)`: nothing is unsafe in a snapshot.
  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T { try base.read(value) }

  /// The same as `read(_:)`, without blocking the caller.
  public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await base.read(value)
  }

  /// Runs `value` with the snapshot's connection, inside the current access
  /// of the snapshot when called from one.
  public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
    try base.unsafeReentrantRead(value)
  }
}

extension DatabasePool {
  /// A ``DatabaseSnapshotPool`` of the state committed last; throws a
  /// ``SQLiteFeatureError`` where SQLite has no WAL snapshots (the SQLCipher
  /// builds of Debian). ``makeSnapshot()`` works on every build.
  ///
  /// Called from inside a transaction of the writer, it is a misuse error.
  public func makeSnapshotPool() throws -> DatabaseSnapshotPool {
    try SQLiteFeatures.linked.require(.snapshots)
    if writer.isOnQueue, writer.reentrantSync({ db in db.isInsideTransaction }) {
      throw DatabaseError.misuse("makeSnapshotPool() must not be called from inside a transaction")
    }
    return try DatabaseSnapshotPool(path: path, configuration: configuration)
  }
}
