import Foundation
import Sealite
import Testing

// A view that INSTEAD OF triggers make writable: SQLite's count of changes
// leaves out the rows its triggers change, and GRDB counts them.

@Suite("deleteAll and updateAll of a view with INSTEAD OF triggers")
struct ViewBatchChangesTests {
  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0);
          CREATE VIEW personView AS SELECT * FROM person;
          CREATE TRIGGER personView_delete INSTEAD OF DELETE ON personView BEGIN
            DELETE FROM person WHERE id = old.id;
          END;
          CREATE TRIGGER personView_update INSTEAD OF UPDATE ON personView BEGIN
            UPDATE person SET score = new.score WHERE id = old.id;
          END;
          INSERT INTO person (id, name) VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
          """)
    }
    return dbQueue
  }

  @Test("the rows the triggers changed are counted")
  func counts() throws {
    try makeDatabase().write { (db: Database) throws in
      let view = Table("personView")
      #expect(try view.filter(Column("id") > 1).updateAll(db, Column("score").set(to: 5)) == 2)
      #expect(try Int.fetchAll(db, sql: "SELECT score FROM person ORDER BY id") == [0, 5, 5])
      #expect(try view.filter(Column("id") > 5).deleteAll(db) == 0)
      #expect(try view.filter(Column("id") > 1).deleteAll(db) == 2)
      #expect(try Table("person").fetchCount(db) == 1)
    }
  }

  @Test("a table still counts its own rows only, not those its triggers change")
  func tableCountsItsRows() throws {
    try makeDatabase().write { (db: Database) throws in
      try db.execute(
        sql: """
          CREATE TABLE log (message TEXT);
          CREATE TRIGGER person_log AFTER DELETE ON person BEGIN
            INSERT INTO log VALUES ('a'); INSERT INTO log VALUES ('b');
          END;
          """)
      #expect(try Table("person").filter(Column("id") > 1).deleteAll(db) == 2)
      #expect(try Table("log").fetchCount(db) == 4)
    }
  }
}
