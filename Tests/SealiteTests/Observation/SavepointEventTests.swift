import Foundation
import Sealite
import Testing

private func itemsQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    for index in 1...4 {
      try db.execute(sql: "CREATE TABLE items\(index) (id INTEGER PRIMARY KEY)")
    }
  }
  return dbQueue
}

private func insert(_ db: Database, _ table: Int) throws {
  try db.execute(sql: "INSERT INTO items\(table) (id) VALUES (NULL)")
}

extension ObservationTests {
  @Suite("Savepoint events")
  struct SavepointEventTests {
    @Test("a savepoint outside of a transaction is a transaction: its rows are told when it is released")
    func savepointAsTransaction() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "SAVEPOINT sp1")
        #expect(db.isInsideTransaction)
        try insert(db, 1)
        try insert(db, 2)
        #expect(observer.events.isEmpty)
        try db.execute(sql: "RELEASE SAVEPOINT sp1")
        #expect(!db.isInsideTransaction)
      }
      #expect(observer.log == ["insert items1 1", "insert items2 1", "willCommit", "commit"])
    }

    @Test("rows of a savepoint still open at COMMIT are told before willCommit")
    func savepointInsideTransaction() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN TRANSACTION")
        try insert(db, 1)
        #expect(observer.events.count == 1)
        try db.execute(sql: "SAVEPOINT sp1")
        try insert(db, 2)
        #expect(observer.events.count == 1)
        try db.execute(sql: "COMMIT")
      }
      #expect(observer.log == ["insert items1 1", "insert items2 1", "willCommit", "commit"])
    }

    @Test("savepoints of the same name: RELEASE releases the innermost; the rows are told when none is open")
    func identicalNames() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN TRANSACTION")
        try insert(db, 1)
        try db.execute(sql: "SAVEPOINT sp1")
        try insert(db, 2)
        try db.execute(sql: "SAVEPOINT SP1")
        try insert(db, 3)
        try db.execute(sql: "RELEASE SAVEPOINT sp1")
        #expect(observer.events.count == 1)
        try db.execute(sql: "RELEASE SAVEPOINT sp1")
        #expect(observer.events.count == 3)
        try insert(db, 4)
        #expect(observer.events.count == 4)
        try db.execute(sql: "COMMIT")
      }
      #expect(
        observer.events == ["insert items1 1", "insert items2 1", "insert items3 1", "insert items4 1"])
    }

    @Test("ROLLBACK TO forgets the rows since the savepoint, which stays open")
    func multipleRollbacks() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN TRANSACTION")
        try insert(db, 1)
        try db.execute(sql: "SAVEPOINT sp1")
        try insert(db, 2)
        try insert(db, 3)
        try db.execute(sql: "ROLLBACK TO SAVEPOINT sp1")
        try insert(db, 4)
        #expect(observer.events.count == 1)
        try db.execute(sql: "ROLLBACK TO SAVEPOINT sp1")
        try insert(db, 4)
        #expect(observer.events.count == 1)
        try db.execute(sql: "COMMIT")
      }
      #expect(observer.log == ["insert items1 1", "insert items4 1", "willCommit", "commit"])
    }

    @Test("a released inner savepoint's rows go with its outer savepoint when that one rolls back")
    func rollbackOuterSavepoint() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN TRANSACTION")
        try insert(db, 1)
        try db.execute(sql: "SAVEPOINT sp1")
        try insert(db, 2)
        try db.execute(sql: "SAVEPOINT sp2")
        try insert(db, 3)
        try db.execute(sql: "RELEASE SAVEPOINT sp2")
        try db.execute(sql: "ROLLBACK TO SAVEPOINT sp1")
        try insert(db, 4)
        #expect(observer.events.count == 1)
        try db.execute(sql: "COMMIT")
      }
      #expect(observer.events == ["insert items1 1", "insert items4 1"])
    }

    @Test("inSavepoint rolled back: its rows are never told, the transaction commits the others")
    func inSavepointRollback() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in
        try insert(db, 1)
        try db.inSavepoint {
          try insert(db, 2)
          return .rollback
        }
        try db.inSavepoint {
          try insert(db, 3)
          return .commit
        }
      }
      #expect(observer.log == ["insert items1 1", "insert items3 1", "willCommit", "commit"])
    }

    @Test("ROLLBACK of the transaction forgets the rows of open savepoints")
    func rollbackWithOpenSavepoint() throws {
      let dbQueue = try itemsQueue()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(sql: "BEGIN TRANSACTION")
        try db.execute(sql: "SAVEPOINT sp1")
        try insert(db, 1)
        try db.execute(sql: "ROLLBACK")
        try insert(db, 2)
      }
      #expect(observer.log == ["rollback", "insert items2 1", "willCommit", "commit"])
    }
  }
}
