import Dispatch
import Foundation

/// One connection and the serial dispatch queue that owns it: every use of the
/// connection happens on that queue.
// Sendable: the only mutable state, `database`, is touched on `queue` alone
// (init and deinit aside, when no other reference exists).
final class SerializedDatabase: @unchecked Sendable {
  private let database: Database
  let queue: DispatchQueue
  private let queueKey = DispatchSpecificKey<ObjectIdentifier>()
  /// Runs the `async` accesses, on `queue`.
  private let actor: ConnectionActor
  /// How ``interrupt()`` reaches the connection from any thread; cleared
  /// before the connection closes.
  private let interruptTarget: Locked<Database.InterruptHandle?>

  /// - parameter ownerKey: marks the queue as belonging to a pool, so that the
  ///   pool can refuse an access made from inside another of its accesses.
  init(
    path: String, configuration: Configuration, readOnly: Bool, label: String,
    ownerKey: DispatchSpecificKey<Bool>? = nil
  ) throws {
    // A reader follows the read settings; the writer (and a queue's single
    // connection) the write settings.
    if let target = readOnly
      ? configuration.targetQueue : configuration.writeTargetQueue ?? configuration.targetQueue
    {
      queue = DispatchQueue(label: label, target: target)
    } else {
      queue = DispatchQueue(label: label, qos: readOnly ? configuration.readQoS : configuration.writeQoS)
    }
    if let ownerKey { queue.setSpecific(key: ownerKey, value: true) }
    actor = ConnectionActor(queue: queue)
    let database = try SerializedDatabase.open(
      path: path, label: label, configuration: configuration, readOnly: readOnly)
    self.database = database
    interruptTarget = Locked(database.interruptHandle)
    queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
  }

  private static func open(path: String, label: String, configuration: Configuration, readOnly: Bool) throws
    -> Database
  {
    do {
      let database = try Database(
        path: path, description: label, configuration: configuration, readOnly: readOnly)
      try database.setUp()
      return database
    } catch is ReopenNeeded {
      // Another connection created the encrypted file while this one was
      // keyed: a new connection reads the salt now on disk.
      let database = try Database(
        path: path, description: label, configuration: configuration, readOnly: readOnly)
      try database.setUp()
      return database
    }
  }

  deinit {
    // Close on the owning queue unless this is the last reference released from it.
    if isOnQueue {
      closeConnection()
    } else {
      queue.sync { closeConnection() }
    }
  }

  /// Closes the connection, after the work already queued. Later accesses get a
  /// closed connection, whose every statement throws.
  func close() throws {
    guard !isOnQueue else {
      throw DatabaseError.misuse("a database can not be closed from inside one of its own accesses")
    }
    queue.sync { closeConnection() }
  }

  private func closeConnection() {
    guard database.sqliteConnection != nil else { return }
    interruptTarget.withLock { $0 = nil }
    // Only a connection that wrote has statistics worth refreshing; others
    // would commit for nothing, and wake observers in other processes.
    if SQLiteFeatures.linked.supports(.optimizePragma), !database.isReadOnlyConnection,
      database.hasWrittenContent
    {
      database.withAccess { db in try? db.execute(sql: "PRAGMA optimize") }
    }
    database.close()
  }

  var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) }

  /// Runs `body` with the connection, blocking until the queue is free.
  func sync<T>(_ body: (Database) throws -> T) throws -> T {
    guard !isOnQueue else {
      throw DatabaseError.misuse(
        "database access is not reentrant: do not call read/write from inside another read/write of the same "
          + "queue or pool")
    }
    return try queue.sync { try database.withAccess(body) }
  }

  /// Runs `body` with the connection, blocking until the queue is free. For
  /// the `rethrows` methods, which have no error of their own to throw: a
  /// nested access is a programming error that stops the program (GRDB's
  /// "Database methods are not reentrant").
  func syncRethrowing<T>(_ body: (Database) throws -> T) rethrows -> T {
    precondition(
      !isOnQueue,
      "Database methods are not reentrant: do not call read/write from inside another read/write of the same "
        + "queue or pool")
    return try queue.sync { try database.withAccess(body) }
  }

  /// Runs `body` with the connection when already on its queue.
  func reentrantSync<T>(_ body: (Database) throws -> T) rethrows -> T {
    if isOnQueue { return try body(database) }
    return try queue.sync { try database.withAccess(body) }
  }

  /// Runs `body` with the connection inside the calling task, on the
  /// connection's queue, without blocking a thread while it waits for the
  /// queue. Task cancellation reaches the access through `Database.TaskCancellation`.
  func execute<T: Sendable>(_ body: @Sendable (Database, Database.TaskCancellation) throws -> T) async throws
    -> T
  {
    let cancellation = Database.TaskCancellation()
    return try await withTaskCancellationHandler {
      try await actor.run { [self] in
        try database.withAccess { db in try body(db, cancellation) }
      }
    } onCancel: {
      cancellation.cancel()
    }
  }

  /// Interrupts the statement the connection runs now, from any thread.
  func interrupt() {
    interruptTarget.withLock { $0?.interrupt() }
  }

  /// Runs `body` with the connection later, on its queue.
  func async(_ body: @escaping @Sendable (Database) -> Void) {
    queue.async { [self] in database.withAccess(body) }
  }
}
