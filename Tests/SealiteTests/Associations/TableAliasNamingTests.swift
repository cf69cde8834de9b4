import Foundation
import Sealite
import Testing

// GRDB names the tables of a request in its SQL: a table that appears once
// keeps its name; a table that appears several times is numbered, every copy
// of it ("b1", "b2"), but the copies the program named.

@Suite("Table names in the SQL of a request with joins, as GRDB writes them")
struct TableAliasNamingTests {
  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE b (id INTEGER PRIMARY KEY, name TEXT);
          CREATE TABLE a (id INTEGER PRIMARY KEY, bid INTEGER REFERENCES b(id), otherBid INTEGER REFERENCES b(id));
          CREATE TABLE node (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES node(id), name TEXT);
          INSERT INTO b VALUES (1, 'one'), (2, 'two');
          INSERT INTO a VALUES (1, 1, 2);
          INSERT INTO node VALUES (1, NULL, 'root'), (2, 1, 'leaf');
          """)
    }
    return dbQueue
  }

  @Test("A table joined twice is numbered from 1, each copy of it; the others keep their names")
  func numberedCopies() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let a = Table("a")
      let first = a.belongsTo(Table("b"), key: "first", using: ForeignKey(["bid"]))
      let second = a.belongsTo(Table("b"), key: "second", using: ForeignKey(["otherBid"]))
      var rows: [Row] = []
      let sql = try capturedSQL(db) {
        rows = try Row.fetchAll(db, a.including(required: first).including(required: second))
      }
      #expect(
        sql.last
          == #"SELECT "a".*, "b1".*, "b2".* FROM "a" JOIN "b" "b1" ON "b1"."id" = "a"."bid" JOIN "b" "b2" ON "b2"."id" = "a"."otherBid""#
      )
      #expect(rows.count == 1)
      #expect(rows.first?.scopes["first"]?["name"] == "one")
      #expect(rows.first?.scopes["second"]?["name"] == "two")
    }
  }

  @Test("A table joined to itself is numbered, the request's own table too; a named copy keeps its name")
  func selfJoin() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let node = Table("node")
      let parent = node.belongsTo(node, key: "parent", using: ForeignKey(["parentId"]))
      var rows: [Row] = []
      let sql = try capturedSQL(db) { rows = try Row.fetchAll(db, node.including(required: parent)) }
      #expect(rows.count == 1)
      #expect(
        sql.last
          == #"SELECT "node1".*, "node2".* FROM "node" "node1" JOIN "node" "node2" ON "node2"."id" = "node1"."parentId""#
      )
      let named = try capturedSQL(db) {
        rows = try Row.fetchAll(db, node.including(required: parent.aliased(TableAlias(name: "up"))))
      }
      #expect(rows.count == 1)
      #expect(
        named.last
          == #"SELECT "node".*, "up".* FROM "node" JOIN "node" "up" ON "up"."id" = "node"."parentId""#)
    }
  }
}
