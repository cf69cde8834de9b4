import Foundation
import Sealite
import Testing

private func queueWithRows() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE other (id INTEGER PRIMARY KEY);
        INSERT INTO t (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');
        INSERT INTO other (id) VALUES (1);
        """)
  }
  return dbQueue
}

extension ObservationTests {
  @Suite("Truncate optimization")
  struct TruncateOptimizationTests {
    @Test("DELETE without WHERE reports each deleted row to an observer of deletions")
    func deleteAllReportsRows() throws {
      let dbQueue = try queueWithRows()
      let observer = FidelityObserver { kind in
        if case .delete(let table) = kind { return table == "t" }
        return false
      }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM t") }
      #expect(observer.events == ["delete t 1", "delete t 2", "delete t 3"])
      #expect(observer.counts.didChange == 0)
      #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test("table names of a DELETE are matched without case")
    func deleteAllCaseInsensitive() throws {
      let dbQueue = try queueWithRows()
      let observer = FidelityObserver { kind in kind.tableName.lowercased() == "t" }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM T") }
      #expect(observer.events.count == 3)
    }

    @Test("a cached DELETE compiled before the observer came reports each row")
    func cachedDeleteStatement() throws {
      let dbQueue = try queueWithRows()
      try dbQueue.write { db in
        // Compiled without observers: SQLite may empty the table at once.
        _ = try db.cachedStatement(sql: "DELETE FROM t")
      }
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.cachedStatement(sql: "DELETE FROM t").execute() }
      #expect(observer.events == ["delete t 1", "delete t 2", "delete t 3"])
    }

    @Test("a prepared DELETE reports each row to an observer of deletions")
    func preparedDeleteStatement() throws {
      let dbQueue = try queueWithRows()
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.makeStatement(sql: "DELETE FROM t").execute() }
      #expect(observer.events.count == 3)
    }

    @Test("an observer of another table hears nothing of a whole-table DELETE")
    func unobservedTable() throws {
      let dbQueue = try queueWithRows()
      let observer = FidelityObserver { kind in kind.tableName == "other" }
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM t") }
      #expect(observer.events.isEmpty)
      #expect(observer.counts == .init(willCommit: 1, didCommit: 1))
    }

    @Test(
      "dropping observed schema objects works",
      arguments: [
        "DROP TABLE t", "DROP VIEW v", "DROP INDEX i", "DROP TRIGGER tr", "DROP TABLE temp_t",
        "DROP VIEW temp_v",
      ])
    func observedDrop(_ sql: String) throws {
      let dbQueue = try queueWithRows()
      try dbQueue.write { db in
        try db.execute(
          sql: """
            CREATE VIEW v AS SELECT * FROM t;
            CREATE INDEX i ON t(name);
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;
            CREATE TEMPORARY TABLE temp_t (id INTEGER PRIMARY KEY);
            CREATE TEMPORARY VIEW temp_v AS SELECT * FROM t;
            """)
      }
      let observer = FidelityObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in try db.execute(sql: sql) }
      #expect(observer.counts.didCommit == 1)
      #expect(observer.events.isEmpty)
    }
  }
}
