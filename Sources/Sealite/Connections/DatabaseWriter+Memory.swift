extension DatabaseQueue {
  /// Frees as much memory as possible: SQLite's page cache, the cached
  /// statements and schema facts (see ``Database/releaseMemory()``). Waits
  /// for the access in progress.
  ///
  ///     dbQueue.releaseMemory()
  public func releaseMemory() {
    writer.syncRethrowing { db in db.releaseMemory() }
  }

  /// From inside a write access, outside of any transaction: runs `value`
  /// in a read-only transaction before returning (a queue has one
  /// connection, so the read comes before the writes that follow). See
  /// ``DatabaseWriter/spawnConcurrentRead(_:)``.
  public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    if let misuse = Database.concurrentReadMisuse(onWriter: writer, method: "spawnConcurrentRead") {
      value(.failure(misuse))
      return
    }
    writer.reentrantSync { db in
      var started = false
      do {
        try db.readTransaction { db in
          started = true
          value(.success(db))
        }
      } catch {
        if !started { value(.failure(error)) }
      }
    }
  }
}

extension DatabasePool {
  /// Frees as much memory as possible, and returns when it is done: the
  /// writer's caches (see ``Database/releaseMemory()``), and the reader
  /// connections, closed once the reads in progress end (or, with
  /// ``Configuration/persistentReadOnlyConnections``, kept and emptied).
  /// Reads wait meanwhile; ``releaseMemoryEventually()`` does not block them.
  ///
  ///     dbPool.releaseMemory()
  public func releaseMemory() {
    precondition(
      readers.current == nil, "releaseMemory() can not be called from inside a read of the same pool")
    writer.syncRethrowing { db in db.releaseMemory() }
    // The barrier waits for the reads in progress and holds new ones back,
    // so that every reader is idle here.
    barrier.sync(flags: .barrier) {
      if configuration.persistentReadOnlyConnections {
        for reader in readers.idle {
          reader.syncRethrowing { db in db.releaseMemory() }
        }
      } else {
        readers.invalidate()
      }
    }
  }

  /// Frees as much memory as possible, without waiting: idle readers now,
  /// busy ones when their read ends, the writer after its current access
  /// (with ``Configuration/persistentReadOnlyConnections``, readers are kept
  /// and emptied instead).
  ///
  ///     dbPool.releaseMemoryEventually()
  public func releaseMemoryEventually() {
    if configuration.persistentReadOnlyConnections {
      for reader in readers.idle {
        reader.async { db in db.releaseMemory() }
      }
    } else {
      readers.invalidate()
    }
    writer.async { db in db.releaseMemory() }
  }
}
