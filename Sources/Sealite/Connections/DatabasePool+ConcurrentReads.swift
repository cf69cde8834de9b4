import Dispatch

extension DatabasePool {
  /// From inside a write access, outside of any transaction: reads, on a
  /// reader connection, the state the last commit left, and returns as soon
  /// as that state is taken (`value` then runs concurrently with the writes
  /// that follow).
  ///
  ///     try dbPool.writeWithoutTransaction { db in
  ///       try db.execute(sql: "DELETE FROM player")
  ///       dbPool.asyncConcurrentRead { result in
  ///         // 0, whatever the writes below do.
  ///         let count = try? Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM player")
  ///       }
  ///       try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
  ///     }
  ///
  /// Called from elsewhere, or inside a transaction, `value` gets a misuse
  /// error (GRDB stops the program there). Like a ``DatabaseSnapshot``, the
  /// read does not wait for a barrier write to end, nor does a barrier write
  /// wait for it: it reads its own state, which no write changes. From inside
  /// a barrier write, which promises that no read starts, `value` gets a
  /// misuse error.
  public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    if let misuse = Database.concurrentReadMisuse(onWriter: writer, method: "asyncConcurrentRead") {
      value(.failure(misuse))
      return
    }
    if barrierIsHeld.value {
      value(.failure(DatabaseError.misuse("a concurrent read can not start from inside a barrier write")))
      return
    }
    let reader: SerializedDatabase
    let generation: Int
    do {
      (reader, generation) = try readers.get()
    } catch {
      value(.failure(error))
      return
    }
    // The writer waits until the reader has taken its snapshot: a commit in
    // between would be seen.
    let isolated = DispatchSemaphore(value: 0)
    reader.async { [readers] db in
      defer { readers.release(reader, generation: generation) }
      var started = false
      do {
        try db.readTransaction(isolated: { isolated.signal() }) { db in
          started = true
          value(.success(db))
        }
      } catch {
        // An error of `value`'s own reads is its to see; only a read that
        // never started reports one.
        if !started { value(.failure(error)) }
      }
    }
    isolated.wait()
  }

  /// The same as ``asyncConcurrentRead(_:)``.
  public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    asyncConcurrentRead(value)
  }

  /// Creates a snapshot: a reader of the database as it is now, for as long as
  /// the snapshot lives (see ``DatabaseSnapshot``). Its connection is keyed
  /// like the pool's readers.
  ///
  ///     let snapshot = try dbPool.makeSnapshot()
  ///     let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
  ///
  /// Throws a misuse error when called from inside a transaction of the
  /// writer (GRDB stops the program there): the snapshot could not see what
  /// that transaction has not committed yet, which is never what the caller
  /// meant.
  public func makeSnapshot() throws -> DatabaseSnapshot {
    if writer.isOnQueue, writer.reentrantSync({ db in db.isInsideTransaction }) {
      throw DatabaseError.misuse("makeSnapshot() must not be called from inside a transaction")
    }
    let label = configuration.label ?? "Sealite.DatabasePool"
    return try DatabaseSnapshot(
      path: path, configuration: configuration, label: "\(label).snapshot.\(snapshotNumbers.next())")
  }

  /// Writes in a transaction of the given kind: committed when `updates`
  /// returns `.commit`, rolled back when it returns `.rollback` or throws.
  ///
  ///     try dbPool.writeInTransaction { db in
  ///       try db.execute(sql: "DELETE FROM player")
  ///       return .commit
  ///     }
  public func writeInTransaction(
    _ kind: TransactionKind? = nil, _ updates: (Database) throws -> Database.TransactionCompletion
  ) throws {
    try writeWithoutTransaction { db in try db.inTransaction(kind) { try updates(db) } }
  }
}

/// The numbers in the labels of a pool's snapshots.
final class SnapshotNumbers: Sendable {
  private let last = Locked(0)

  func next() -> Int {
    last.withLock { last in
      last += 1
      return last
    }
  }
}
