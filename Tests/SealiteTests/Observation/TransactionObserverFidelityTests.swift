import Foundation
import Sealite
import Testing

/// `artist` and `artwork` (a NOT NULL foreign key to artist, ON DELETE CASCADE),
/// as in GRDB's transaction observer tests.
private func artistQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE artwork (
          id INTEGER PRIMARY KEY,
          artistId INTEGER NOT NULL REFERENCES artist(id) ON DELETE CASCADE ON UPDATE CASCADE,
          title TEXT);
        """)
  }
  return dbQueue
}

extension ObservationTests {
  @Suite("Transaction observers, as GRDB's tests state them")
  struct TransactionObserverFidelityTests {
    // MARK: - Cascades

    @Test("a cascade table in which no row changed gets no databaseDidChange()")
    func cascadeWithoutChange() throws {
      let dbQueue = try artistQueue()
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO artist (id, name) VALUES (1, 'Gerhard')") }
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM artist WHERE id = 1") }
      #expect(observer.log == ["delete artist 1", "willCommit", "commit"])
    }

    @Test("a cascade reports the rows it deletes, in the order SQLite deletes them")
    func cascadeWithChanges() throws {
      let dbQueue = try artistQueue()
      try dbQueue.write { db in
        try db.execute(
          sql: """
            INSERT INTO artist (id, name) VALUES (1, 'Gerhard');
            INSERT INTO artwork (id, artistId, title) VALUES (1, 1, 'a'), (2, 1, 'b');
            """)
      }
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM artist WHERE id = 1") }
      #expect(observer.counts == .init(didChangeWithEvent: 3, willCommit: 1, didCommit: 1))
      #expect(Set(observer.events) == ["delete artist 1", "delete artwork 1", "delete artwork 2"])
    }

    @Test("an observer of the cascaded table only hears of that table")
    func cascadeFiltered() throws {
      let dbQueue = try artistQueue()
      try dbQueue.write { db in
        try db.execute(
          sql: """
            INSERT INTO artist (id, name) VALUES (1, 'Gerhard');
            INSERT INTO artwork (id, artistId, title) VALUES (1, 1, 'a');
            """)
      }
      let observer = FidelityObserver { $0.tableName == "artwork" }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM artist") }
      #expect(observer.events == ["delete artwork 1"])
    }

    @Test("a WITHOUT ROWID table that changed is announced with databaseDidChange()")
    func withoutRowIDTable() throws {
      let dbQueue = try DatabaseQueue()
      try dbQueue.write { db in try db.execute(sql: "CREATE TABLE w (k TEXT PRIMARY KEY) WITHOUT ROWID") }
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO w (k) VALUES ('a')")
        try db.execute(sql: "DELETE FROM w WHERE k = 'missing'")
      }
      #expect(observer.log == ["change", "willCommit", "commit"])
    }

    // MARK: - Rollbacks

    @Test("a statement that fails outside of a transaction is not reported as a rollback")
    func implicitTransactionFailure() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      #expect(throws: DatabaseError.self) {
        try dbQueue.writeWithoutTransaction { db in
          try db.execute(sql: "INSERT INTO artwork (title) VALUES ('meh')")
        }
      }
      #expect(observer.counts == .init())
    }

    @Test("a statement that fails inside a transaction: the rollback that follows is reported once")
    func explicitTransactionFailure() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      #expect(throws: DatabaseError.self) {
        try dbQueue.inTransaction { db in
          try db.execute(sql: "INSERT INTO artwork (title) VALUES ('meh')")
          return .commit
        }
      }
      #expect(observer.counts == .init(didRollback: 1))
    }

    @Test("an observer that refuses an implicit commit: the statement throws its error, after one rollback")
    func refusedImplicitCommit() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      observer.refuseCommits(with: RefusedCommit())
      dbQueue.add(transactionObserver: observer)
      let counts = try dbQueue.writeWithoutTransaction { db in
        #expect(throws: RefusedCommit.self) {
          try db.execute(sql: "INSERT INTO artist (name) VALUES ('Gerhard')")
        }
        return observer.counts
      }
      #expect(counts == .init(didChangeWithEvent: 1, willCommit: 1, didRollback: 1))
      #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM artist") } == 0)
    }

    @Test("an observer that refuses an explicit commit: the transaction throws its error, after one rollback")
    func refusedExplicitCommit() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      observer.refuseCommits(with: RefusedCommit())
      dbQueue.add(transactionObserver: observer)
      #expect(throws: RefusedCommit.self) {
        try dbQueue.inTransaction { db in
          try db.execute(sql: "INSERT INTO artist (name) VALUES ('Gerhard')")
          return .commit
        }
      }
      #expect(observer.counts == .init(didChangeWithEvent: 1, willCommit: 1, didRollback: 1))
    }

    @Test("a database error supersedes an observer that would refuse the commit")
    func databaseErrorSupersedesObserver() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      observer.refuseCommits(with: RefusedCommit())
      dbQueue.add(transactionObserver: observer)
      #expect(throws: DatabaseError.self) {
        try dbQueue.writeWithoutTransaction { db in
          try db.execute(sql: "INSERT INTO artwork (title) VALUES ('meh')")
        }
      }
      #expect(observer.counts == .init())
    }

    // MARK: - Transaction completions

    @Test("an empty transaction is a transaction: observers hear it commit")
    func emptyTransaction() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN DEFERRED TRANSACTION")
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "SAVEPOINT s")
        try db.execute(sql: "RELEASE SAVEPOINT s")
      }
      #expect(observer.log == ["willCommit", "commit", "willCommit", "commit"])
    }

    @Test("a read access tells observers of nothing")
    func readAccess() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.read { db in
        _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM artist")
        try db.notifyChanges(in: .fullDatabase)
      }
      #expect(observer.counts == .init())
    }

    @Test("each statement outside a transaction commits on its own")
    func implicitTransactions() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "INSERT INTO artist (id, name) VALUES (1, 'a')")
        try db.execute(sql: "INSERT INTO artist (id, name) VALUES (2, 'b')")
      }
      #expect(
        observer.log == [
          "insert artist 1", "willCommit", "commit", "insert artist 2", "willCommit", "commit",
        ])
    }

    @Test("ROLLBACK is reported as a rollback, with no willCommit")
    func explicitRollback() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.inTransaction { db in
        try db.execute(sql: "INSERT INTO artist (id, name) VALUES (1, 'a')")
        return .rollback
      }
      #expect(observer.log == ["insert artist 1", "rollback"])
    }

    // MARK: - Extents

    @Test("an observer added for the next transaction hears one transaction only")
    func nextTransactionExtent() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      try dbQueue.write { db in db.add(transactionObserver: observer, extent: .nextTransaction) }
      // The transaction the observer was added in was its next one.
      #expect(observer.counts == .init(willCommit: 1, didCommit: 1))
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO artist (name) VALUES ('a')") }
      #expect(observer.counts == .init(willCommit: 1, didCommit: 1))
    }

    @Test(
      "an observer kept for the observer's lifetime is released with it; one kept for the database's lifetime is not"
    )
    func lifetimeExtents() throws {
      let dbQueue = try artistQueue()
      weak var weakObserver: FidelityObserver?
      do {
        let observer = FidelityObserver()
        weakObserver = observer
        dbQueue.add(transactionObserver: observer, extent: .observerLifetime)
      }
      #expect(weakObserver == nil)
      let kept: FidelityObserver
      weak var weakKept: FidelityObserver?
      do {
        let observer = FidelityObserver()
        weakKept = observer
        dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
      }
      kept = try #require(weakKept)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO artist (name) VALUES ('a')") }
      #expect(kept.counts == .init(didChangeWithEvent: 1, willCommit: 1, didCommit: 1))
    }

    @Test("stopObservingDatabaseChangesUntilNextTransaction silences the rest of the transaction only")
    func stopObserving() throws {
      let dbQueue = try artistQueue()
      let observer = StoppingObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO artist (id, name) VALUES (1, 'a'), (2, 'b')")
        try db.execute(sql: "INSERT INTO artist (id, name) VALUES (3, 'c')")
      }
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO artist (id, name) VALUES (4, 'd')")
      }
      #expect(observer.log.value == ["insert 1", "commit", "insert 4", "commit"])
    }

    // MARK: - notifyChanges(in:)

    @Test("notifyChanges(in:) asks observers about updates of every column")
    func notifyChangesAsksAboutColumns() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver { kind in
        if case .update("artist", let columns) = kind { return columns.contains("name") }
        return false
      }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.notifyChanges(in: .fullDatabase) }
      #expect(observer.counts == .init(didChange: 1, willCommit: 1, didCommit: 1))
      observer.reset()
      try dbQueue.write { db in try db.notifyChanges(in: Table("artist")) }
      #expect(observer.counts == .init(didChange: 1, willCommit: 1, didCommit: 1))
      observer.reset()
      try dbQueue.write { db in try db.notifyChanges(in: Table("artwork")) }
      #expect(observer.counts == .init(willCommit: 1, didCommit: 1))
    }

    @Test("notifyChanges(in:) ignores sqlite_temp_master while there is no temp schema")
    func notifyChangesTempSchema() throws {
      let dbQueue = try DatabaseQueue()
      let observer = FidelityObserver { $0.tableName == "sqlite_temp_master" }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.notifyChanges(in: Table("sqlite_temp_master")) }
      #expect(observer.counts == .init(willCommit: 1, didCommit: 1))
      observer.reset()
      try dbQueue.write { db in
        try db.execute(sql: "CREATE TEMPORARY TABLE t(a)")
        try db.notifyChanges(in: Table("sqlite_temp_master"))
      }
      #expect(observer.counts == .init(didChange: 1, willCommit: 1, didCommit: 1))
    }

    @Test("notifyChanges(in:) reaches observers of sqlite_master only when the region names it")
    func notifyChangesSQLiteMaster() throws {
      let dbQueue = try DatabaseQueue()
      let observer = FidelityObserver { $0.tableName == "sqlite_master" }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.notifyChanges(in: .fullDatabase) }
      #expect(observer.counts.didChange == 0)
      try dbQueue.write { db in try db.notifyChanges(in: Table("sqlite_master")) }
      #expect(observer.counts.didChange == 1)
    }

    @Test("notifyChanges(in:) of a table that does not exist tells nobody")
    func notifyChangesMissingTable() throws {
      let dbQueue = try artistQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.notifyChanges(in: Table("nowhere")) }
      #expect(observer.counts == .init(willCommit: 1, didCommit: 1))
    }
  }
}

/// Stops observing after the first row of each transaction.
private final class StoppingObserver: TransactionObserver, Sendable {
  let log = Shared<[String]>([])

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }

  func databaseDidChange(with event: DatabaseEvent) {
    log.withLock { $0.append("insert \(event.rowID)") }
    stopObservingDatabaseChangesUntilNextTransaction()
  }

  func databaseDidCommit(_ db: Database) { log.withLock { $0.append("commit") } }
  func databaseDidRollback(_ db: Database) { log.withLock { $0.append("rollback") } }
}
