import Foundation
import Sealite
import Synchronization
import Testing

private func makeQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in try db.execute(sql: observationSchema) }
  return dbQueue
}

private func playerCount(_ reader: some DatabaseReader) throws -> Int {
  try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1 }
}

extension ObservationTests {
  @Suite("Transaction observers")
  struct TransactionObserverTests {
    // MARK: - Events

    @Test(
      "an observer hears each inserted, updated and deleted row, with its table and rowid, then the commit")
    func rowEvents() throws {
      let dbQueue = try makeQueue()
      let observer = RecordingObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 2")
        try db.execute(sql: "DELETE FROM player WHERE id = 1")
      }
      #expect(
        observer.log == [
          "insert player 1", "insert player 2", "update player 2", "delete player 1", "willCommit", "commit",
        ])
      let event = try #require(observer.events.last)
      #expect(event.kind == .delete)
      #expect(event.tableName == "player")
      #expect(event.rowID == 1)
    }

    @Test(
      "observers of a queue and of a pool hear the rows and the commit",
      arguments: ObservationBackend.allCases)
    func eventsOnEveryBackend(_ backend: ObservationBackend) throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try backend.makeWriter(directory)
      try writer.write { db in try db.execute(sql: observationSchema) }
      let observer = RecordingObserver()
      writer.add(transactionObserver: observer)
      try writer.write { db in
        try db.execute(sql: "INSERT INTO team (id, name) VALUES (7, 'red')")
        try db.execute(sql: "INSERT INTO player (id, name, teamId) VALUES (3, 'Craig', 7)")
      }
      #expect(observer.log == ["insert team 7", "insert player 3", "willCommit", "commit"])
    }

    @Test("observes(eventsOfKind:) is asked with the table and updated columns; declining silences the rows")
    func eventKindFiltering() throws {
      let dbQueue = try makeQueue()
      let teamObserver = RecordingObserver(tables: ["team"])
      dbQueue.add(transactionObserver: teamObserver)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        try db.execute(sql: "UPDATE player SET Score = 5 WHERE id = 1")
      }
      #expect(teamObserver.rows.isEmpty)
      #expect(teamObserver.commitCount == 1)
      #expect(teamObserver.askedKinds.contains(.insert(tableName: "player")))
      #expect(teamObserver.askedKinds.contains(.update(tableName: "player", columnNames: ["score"])))
      #expect(DatabaseEventKind.update(tableName: "player", columnNames: []).tableName == "player")
    }

    // MARK: - Commits and rollbacks

    @Test(
      "a throwing databaseWillCommit makes the commit throw that very error, and rolls the data back",
      arguments: ObservationBackend.allCases)
    func willCommitThrows(_ backend: ObservationBackend) throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try backend.makeWriter(directory)
      try writer.write { db in try db.execute(sql: observationSchema) }
      let observer = RecordingObserver()
      writer.add(transactionObserver: observer)
      observer.refuseCommits(with: TestError(id: 42))

      #expect(throws: TestError(id: 42)) {
        try writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      }
      #expect(try playerCount(writer) == 0)
      #expect(observer.log == ["insert player 1", "willCommit", "rollback"])

      // An explicit COMMIT throws the same error, and leaves no transaction open.
      try writer.writeWithoutTransaction { db in
        try db.beginTransaction()
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        #expect(throws: TestError(id: 42)) { try db.commit() }
        #expect(!db.isInsideTransaction)
      }
      // So does the RELEASE of a savepoint that opened the transaction.
      try writer.writeWithoutTransaction { db in
        try db.execute(sql: "SAVEPOINT outer")
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'Diana')")
        #expect(throws: TestError(id: 42)) { try db.execute(sql: "RELEASE SAVEPOINT outer") }
        #expect(!db.isInsideTransaction)
      }
      #expect(try playerCount(writer) == 0)
      #expect(observer.commitCount == 0)
      #expect(observer.rollbackCount == 3)

      // Once the observer accepts commits again, they succeed.
      observer.refuseCommits(with: nil)
      try writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')") }
      #expect(try playerCount(writer) == 1)
      #expect(observer.log.suffix(2) == ["willCommit", "commit"])
    }

    @Test("observers hear the rollback of a rolled-back transaction, never a commit")
    func rollbackIsNotACommit() throws {
      let dbQueue = try makeQueue()
      let observer = RecordingObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.inTransaction { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        return .rollback
      }
      #expect(observer.log == ["insert player 1", "rollback"])

      // A write that throws rolls back as well.
      #expect(throws: TestError(id: 1)) {
        try dbQueue.write { db in
          try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
          throw TestError(id: 1)
        }
      }
      #expect(observer.commitCount == 0)
      #expect(observer.rollbackCount == 2)
      #expect(!observer.log.contains("willCommit"))
    }

    @Test("databaseDidCommit may read the committed state with the connection")
    func didCommitReadsCommittedState() throws {
      let dbQueue = try makeQueue()
      let counts = Locked<[Int]>([])
      let observer = RecordingObserver(onCommit: { db in
        let count = (try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")) ?? -1
        counts.withLock { $0.append(count) }
      })
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
      #expect(counts.value == [1, 2])
    }

    // MARK: - Savepoints

    @Test(
      "rows changed in a savepoint that is rolled back are not reported; those of released savepoints are")
    func savepoints() throws {
      let dbQueue = try makeQueue()
      let observer = RecordingObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        try db.inSavepoint {
          try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
          return .rollback
        }
        try db.inSavepoint {
          try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
          try db.inSavepoint {
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'Diana')")
            return .rollback
          }
          try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 3")
          return .commit
        }
      }
      #expect(try playerCount(dbQueue) == 2)
      #expect(
        observer.log == ["insert player 1", "insert player 3", "update player 3", "willCommit", "commit"])
    }

    @Test("a savepoint opened outside of a transaction is a transaction: releasing it commits")
    func savepointAsTransaction() throws {
      let dbQueue = try makeQueue()
      let observer = RecordingObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "SAVEPOINT outer")
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        try db.execute(sql: "SAVEPOINT inner")
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        try db.execute(sql: "ROLLBACK TO SAVEPOINT inner")
        try db.execute(sql: "RELEASE SAVEPOINT outer")
      }
      #expect(try playerCount(dbQueue) == 1)
      #expect(observer.log == ["insert player 1", "willCommit", "commit"])

      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "SAVEPOINT outer")
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (5, 'Eric')")
        try db.execute(sql: "ROLLBACK TRANSACTION")
      }
      #expect(try playerCount(dbQueue) == 1)
      #expect(observer.commitCount == 1)
      #expect(observer.log.last == "rollback")
      #expect(!observer.rows.contains("insert player 5"))
    }

    // MARK: - Extents and removal

    @Test(".nextTransaction: the observer hears one transaction, and is then removed and released")
    func nextTransactionExtent() throws {
      let dbQueue = try makeQueue()
      weak var weakObserver: RecordingObserver?
      do {
        let observer = RecordingObserver()
        weakObserver = observer
        dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
      }
      #expect(weakObserver != nil)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      #expect(weakObserver == nil)

      // It ends with a rollback too; later transactions are not heard.
      let observer = RecordingObserver()
      dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
      try dbQueue.inTransaction { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        return .rollback
      }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')") }
      #expect(observer.log == ["insert player 2", "rollback"])
    }

    @Test(
      ".observerLifetime: the database does not keep the observer, which is released with its last reference")
    func observerLifetimeExtent() throws {
      let dbQueue = try makeQueue()
      var observer: RecordingObserver? = RecordingObserver()
      weak let weakObserver = observer
      dbQueue.add(transactionObserver: observer!)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      #expect(observer?.commitCount == 1)
      observer = nil
      #expect(weakObserver == nil)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
      #expect(try !hasTransactionObservers(dbQueue))
    }

    @Test(".databaseLifetime: the database keeps the observer until it is closed")
    func databaseLifetimeExtent() throws {
      let dbQueue = try makeQueue()
      weak var weakObserver: RecordingObserver?
      do {
        let observer = RecordingObserver()
        weakObserver = observer
        dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
      }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
      #expect(weakObserver?.commitCount == 2)
      try dbQueue.close()
      #expect(weakObserver == nil)
    }

    @Test("remove(transactionObserver:) stops the notifications, from the writer or from inside an access")
    func removeObserver() throws {
      let dbQueue = try makeQueue()
      let first = RecordingObserver()
      let second = RecordingObserver()
      dbQueue.add(transactionObserver: first)
      dbQueue.add(transactionObserver: second, extent: .databaseLifetime)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      dbQueue.remove(transactionObserver: first)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        db.remove(transactionObserver: second)
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
      }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'Diana')") }
      #expect(first.log == ["insert player 1", "willCommit", "commit"])
      #expect(second.log == ["insert player 1", "willCommit", "commit", "insert player 2"])
      #expect(try !hasTransactionObservers(dbQueue))
    }

    @Test("stopObservingDatabaseChangesUntilNextTransaction() silences rows until the transaction ends")
    func stopObservingUntilNextTransaction() throws {
      let dbQueue = try makeQueue()
      let observer = RecordingObserver()
      observer.stopAfterFirstEvent()
      let other = RecordingObserver()
      dbQueue.add(transactionObserver: observer)
      dbQueue.add(transactionObserver: other)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
      }
      try dbQueue.write { db in
        try db.execute(sql: "UPDATE player SET score = 1")
      }
      #expect(
        observer.log == [
          "insert player 1", "willCommit", "commit", "update player 1", "willCommit", "commit",
        ])
      // Other observers are not affected.
      #expect(other.rows.count == 6)
    }

    @Test("afterNextTransaction runs onCommit once, after the commit, with the committed state")
    func afterNextTransactionCommit() throws {
      let dbQueue = try makeQueue()
      let heard = Locked<[String]>([])
      try dbQueue.write { db in
        db.afterNextTransaction { db in
          let count = (try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")) ?? -1
          heard.withLock { $0.append("commit \(count)") }
        } onRollback: { _ in
          heard.withLock { $0.append("rollback") }
        }
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        #expect(heard.value.isEmpty)
      }
      #expect(heard.value == ["commit 1"])
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
      #expect(heard.value == ["commit 1"])
    }

    @Test("afterNextTransaction runs onRollback once, after a rollback")
    func afterNextTransactionRollback() throws {
      let dbQueue = try makeQueue()
      let heard = Locked<[String]>([])
      try dbQueue.inTransaction { db in
        db.afterNextTransaction { _ in
          heard.withLock { $0.append("commit") }
        } onRollback: { _ in
          heard.withLock { $0.append("rollback") }
        }
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        return .rollback
      }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
      #expect(heard.value == ["rollback"])
    }

    // MARK: - Writes the update hook does not report

    @Test("changes to a WITHOUT ROWID table reach its observers, as changes without rows")
    func withoutRowIDTable() throws {
      let dbQueue = try makeQueue()
      try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE tag (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID")
      }
      let observer = RecordingObserver(tables: ["tag"])
      let playerObserver = RecordingObserver(tables: ["player"])
      dbQueue.add(transactionObserver: observer)
      dbQueue.add(transactionObserver: playerObserver)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO tag VALUES ('a', 'A'), ('b', 'B')") }
      try dbQueue.write { db in try db.execute(sql: "UPDATE tag SET label = 'AA' WHERE code = 'a'") }
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM tag WHERE code = 'b'") }
      // A statement that changes nothing is not a change.
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM tag WHERE code = 'none'") }
      #expect(observer.rows.isEmpty)
      #expect(observer.changeCount == 3)
      #expect(observer.commitCount == 4)
      #expect(playerObserver.changeCount == 0)
    }

    @Test("rows deleted by ON DELETE CASCADE reach observers of the child table")
    func cascadeDeletes() throws {
      let dbQueue = try makeQueue()
      try dbQueue.write { db in
        try db.execute(
          sql: """
            CREATE TABLE badge (
              code TEXT PRIMARY KEY, playerId INTEGER REFERENCES player(id) ON DELETE CASCADE) WITHOUT ROWID;
            INSERT INTO team (id, name) VALUES (1, 'red'), (2, 'blue');
            INSERT INTO player (id, name, teamId) VALUES (10, 'Arthur', 1), (11, 'Barbara', 1), (12, 'Craig', 2);
            INSERT INTO badge VALUES ('gold', 10);
            """)
      }
      let playerObserver = RecordingObserver(tables: ["player"])
      let badgeObserver = RecordingObserver(tables: ["badge"])
      dbQueue.add(transactionObserver: playerObserver)
      dbQueue.add(transactionObserver: badgeObserver)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM team WHERE id = 1") }
      #expect(Set(playerObserver.rows) == ["delete player 10", "delete player 11"])
      #expect(badgeObserver.changeCount == 1)
      #expect(try playerCount(dbQueue) == 1)
    }

    @Test("writes made by triggers reach observers of the tables they write")
    func triggerWrites() throws {
      let dbQueue = try makeQueue()
      try dbQueue.write { db in
        try db.execute(
          sql: """
            CREATE TABLE audit (event TEXT PRIMARY KEY, count INTEGER) WITHOUT ROWID;
            CREATE TRIGGER playerInserted AFTER INSERT ON player BEGIN
              INSERT INTO log (message) VALUES ('inserted ' || NEW.name);
              INSERT OR REPLACE INTO audit VALUES ('insert', 1);
            END;
            """)
      }
      let logObserver = RecordingObserver(tables: ["log"])
      let auditObserver = RecordingObserver(tables: ["audit"])
      dbQueue.add(transactionObserver: logObserver)
      dbQueue.add(transactionObserver: auditObserver)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      #expect(logObserver.log == ["insert log 1", "willCommit", "commit"])
      #expect(auditObserver.changeCount == 1)
    }

    @Test("dropping a table tells its observers")
    func dropTable() throws {
      let dbQueue = try makeQueue()
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO log (message) VALUES ('a')") }
      let observer = RecordingObserver(tables: ["log"])
      let playerObserver = RecordingObserver(tables: ["player"])
      dbQueue.add(transactionObserver: observer)
      dbQueue.add(transactionObserver: playerObserver)
      try dbQueue.write { db in try db.execute(sql: "DROP TABLE log") }
      #expect(observer.rows.count == 1 || observer.changeCount == 1)
      #expect(observer.commitCount == 1)
      #expect(playerObserver.changeCount == 0)
    }

    @Test("a trigger created after a statement was cached reaches observers when the statement runs again")
    func triggerCreatedAfterCaching() throws {
      let dbQueue = try makeQueue()
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
      }
      let observer = RecordingObserver(tables: ["log"])
      dbQueue.add(transactionObserver: observer)
      // Record deletion uses a cached statement.
      _ = try dbQueue.write { db in try ObservedPlayer(id: 1, name: "Arthur").delete(db) }
      try dbQueue.write { db in
        try db.execute(
          sql: """
            CREATE TRIGGER playerDeleted AFTER DELETE ON player BEGIN
              INSERT INTO log (message) VALUES ('deleted ' || OLD.name);
            END
            """)
      }
      _ = try dbQueue.write { db in try ObservedPlayer(id: 2, name: "Barbara").delete(db) }
      #expect(
        try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT message FROM log") } == [
          "deleted Barbara"
        ])
      #expect(observer.rows == ["insert log 1"])
    }

    @Test("DELETE without WHERE (the truncate optimization) still notifies observers")
    func truncate() throws {
      let dbQueue = try makeQueue()
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO log (message) VALUES ('a'), ('b'), ('c')")
      }
      let observer = RecordingObserver(tables: ["log"])
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM log") }
      #expect(observer.rows.count == 3 || observer.changeCount == 1)
      #expect(observer.commitCount == 1)
    }

    // MARK: - Explicit notifications

    @Test("db.notifyChanges(in:) tells the observers of the region, inside a transaction or as one")
    func notifyChanges() throws {
      let dbQueue = try makeQueue()
      let playerObserver = RecordingObserver(tables: ["player"])
      let teamObserver = RecordingObserver(tables: ["team"])
      dbQueue.add(transactionObserver: playerObserver)
      dbQueue.add(transactionObserver: teamObserver)

      try dbQueue.write { db in try db.notifyChanges(in: Table("player")) }
      #expect(playerObserver.log == ["change", "willCommit", "commit"])
      #expect(teamObserver.changeCount == 0)

      try dbQueue.writeWithoutTransaction { db in try db.notifyChanges(in: Table("player")) }
      #expect(playerObserver.log == ["change", "willCommit", "commit", "change", "willCommit", "commit"])

      // A rolled-back transaction is not committed, whatever it notified.
      try dbQueue.inTransaction { db in
        try db.notifyChanges(in: DatabaseRegion.fullDatabase)
        return .rollback
      }
      #expect(playerObserver.commitCount == 2)
      #expect(playerObserver.log.last == "rollback")
      #expect(teamObserver.changeCount == 1)
    }
  }
}
