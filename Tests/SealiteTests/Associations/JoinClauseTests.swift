import Foundation
import Sealite
import Testing

// Where a joined table's conditions go in the SQL, as GRDB writes them: its
// filters in its ON clause, for an inner join as for an outer one, and the
// joined table's column first.

@Suite("Join clauses: filters in ON, the joined table's column first")
struct JoinClauseTests {
  private struct Parent: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    static let children = hasMany(Child.self)
    static let pets = hasMany(Pet.self, through: children, using: Child.pets)
  }

  private struct Child: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var parentId: Int64
    var name: String
    static let parent = belongsTo(Parent.self)
    static let pets = hasMany(Pet.self)
  }

  private struct Pet: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var childId: Int64
    var name: String
  }

  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE parent (id INTEGER PRIMARY KEY);
          CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER NOT NULL REFERENCES parent(id), name TEXT);
          CREATE TABLE pet (id INTEGER PRIMARY KEY, childId INTEGER NOT NULL REFERENCES child(id), name TEXT);
          INSERT INTO parent VALUES (1), (2);
          INSERT INTO child VALUES (1, 1, 'Ann'), (2, 1, 'Bob'), (3, 2, 'Cid');
          INSERT INTO pet VALUES (1, 1, 'cat'), (2, 2, 'dog'), (3, 3, 'fish');
          """)
    }
    return dbQueue
  }

  @Test("The filter of an inner join goes in its ON clause, as the filter of an outer join does")
  func innerJoinFilterInOn() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      var names: [String] = []
      let request = Child.joining(required: Child.parent.filter(Column("id") == 2)).select(
        Column("name"), as: String.self)
      let sql = try capturedSQL(db) { names = try request.fetchAll(db) }
      #expect(names == ["Cid"])
      #expect(
        sql.last
          == #"SELECT "child"."name" FROM "child" JOIN "parent" ON ("parent"."id" = "child"."parentId") AND ("parent"."id" = ?)"#
      )
      let optional = try capturedSQL(db) {
        names = try Child.joining(optional: Child.parent.filter(Column("id") == 2)).select(
          Column("name"), as: String.self
        )
        .order(Column("id")).fetchAll(db)
      }
      #expect(names == ["Ann", "Bob", "Cid"])
      #expect(
        optional.last?.contains(
          #"LEFT JOIN "parent" ON ("parent"."id" = "child"."parentId") AND ("parent"."id" = ?)"#) == true)
    }
  }

  @Test("request(for:) through another table filters that table in its ON clause, its column first")
  func requestForThrough() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      var pets: [Pet] = []
      let sql = try capturedSQL(db) {
        pets = try Parent(id: 1).request(for: Parent.pets).order(Column("id")).fetchAll(db)
      }
      #expect(pets.map(\.name) == ["cat", "dog"])
      #expect(
        sql.last
          == #"SELECT "pet".* FROM "pet" JOIN "child" ON ("child"."id" = "pet"."childId") AND ("child"."parentId" = ?) ORDER BY "pet"."id""#
      )
    }
  }

  @Test("Uses of one association merge into one join, and a user's alias of a later use names it")
  func mergedJoinKeepsUserAlias() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let parentAlias = TableAlias<Parent>()
      let request = Child.including(required: Child.parent)
        .joining(required: Child.parent.filter(Column("id") == 1))
        .joining(optional: Child.parent.aliased(parentAlias))
        .order(parentAlias[Column("id")].desc, Column("name").desc)
      var rows: [Row] = []
      let sql = try capturedSQL(db) { rows = try Row.fetchAll(db, request) }
      #expect(rows.map { $0["name"] as String } == ["Bob", "Ann"])
      #expect(rows.map { $0.scopes["parent"]?["id"] as Int64? } == [1, 1])
      #expect(
        sql.last
          == #"SELECT "child".*, "parent".* FROM "child" JOIN "parent" ON ("parent"."id" = "child"."parentId") "#
          + #"AND ("parent"."id" = ?) ORDER BY "parent"."id" DESC, "child"."name" DESC"#)
    }
  }
}
