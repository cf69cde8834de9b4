import Foundation
import Sealite
import Testing

// A key dictionary (`filter(key: ["a": 1, "b": 2])`, `fetchOne(db, key:)`,
// `deleteOne(db, key:)`…) names the primary key or a unique key of its table.
// GRDB writes its columns in that key's order, the other columns after them,
// and refuses a dictionary that holds no unique key.

@Suite("Key dictionaries")
struct KeyDictionaryFilterTests {
  private struct Citizenship: TableRecord, FetchableRecord, PersistableRecord, Codable, Equatable {
    static let databaseTableName = "citizenship"
    var countryCode: String
    var citizenId: Int64
    var since: Int
  }

  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(
        sql: """
          CREATE TABLE citizenship (
            countryCode TEXT NOT NULL, citizenId INTEGER NOT NULL, since INTEGER NOT NULL,
            PRIMARY KEY (countryCode, citizenId));
          CREATE TABLE person (id INTEGER PRIMARY KEY, lastName TEXT, firstName TEXT, age INTEGER);
          CREATE UNIQUE INDEX person_name ON person(lastName, firstName);
          CREATE VIEW adult AS SELECT * FROM person WHERE age >= 18;
          INSERT INTO citizenship VALUES ('FR', 1, 2000), ('DE', 1, 2010), ('FR', 2, 2020);
          INSERT INTO person VALUES (1, 'Doe', 'John', 30), (2, 'Doe', 'Jane', 12);
          """)
    }
    return dbQueue
  }

  @Test("the columns are compared in the order of the key they hold, other columns last, without LIMIT 1")
  func columnOrder() throws {
    try makeDatabase().read { (db: Database) throws in
      var sql = try capturedSQL(db) {
        _ = try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"])
      }
      #expect(sql.last == #"SELECT * FROM "citizenship" WHERE ("countryCode" = ?) AND ("citizenId" = ?)"#)
      sql = try capturedSQL(db) {
        _ = try Table("person").fetchOne(db, key: ["firstName": "Jane", "age": 12, "lastName": "Doe"])
      }
      #expect(
        sql.last
          == #"SELECT * FROM "person" WHERE ("lastName" = ?) AND ("firstName" = ?) AND ("age" = ?)"#)
      sql = try capturedSQL(db) {
        _ = try Citizenship.fetchAll(
          db, keys: [["citizenId": 1, "countryCode": "FR"], ["citizenId": 2, "countryCode": "FR"]])
      }
      #expect(
        sql.last
          == #"SELECT * FROM "citizenship" WHERE (("countryCode" = ?) AND ("citizenId" = ?)) OR (("countryCode" = ?) AND ("citizenId" = ?))"#
      )
      // The rows found are those of the key.
      #expect(
        try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "DE"])
          == Citizenship(countryCode: "DE", citizenId: 1, since: 2010))
      #expect(
        try Row.fetchOne(db, Table("person").filter(key: ["firstName": "Jane", "lastName": "Doe"]))?["id"]
          == 2)
    }
  }

  @Test("a dictionary that holds no unique key throws a misuse error that names the table and the columns")
  func noUniqueKey() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      for attempt in [
        { _ = try Citizenship.fetchOne(db, key: ["citizenId": 1]) },
        { _ = try Citizenship.deleteOne(db, key: ["since": 2000, "citizenId": 1]) },
        { _ = try Citizenship.exists(db, key: ["citizenId": 1]) },
      ] as [() throws -> Void] {
        #expect {
          try attempt()
        } throws: { error in
          let error = error as? DatabaseError
          return error?.resultCode == .SQLITE_MISUSE
            && error?.message?.contains("table citizenship has no unique key on column(s) citizenId") == true
        }
      }
      #expect {
        try Table("adult").fetchOne(db, key: ["lastName": "Doe"])
      } throws: { error in
        (error as? DatabaseError)?.message == "database view adult has no unique key on column(s) lastName"
      }
      // Nothing was deleted.
      #expect(try Citizenship.fetchCount(db) == 3)
    }
  }

  @Test("a NULL in a key dictionary is compared with IS NULL")
  func nullValue() throws {
    try makeDatabase().read { (db: Database) throws in
      let sql = try capturedSQL(db) {
        _ = try Table("person").fetchOne(db, key: ["lastName": nil, "firstName": "John"])
      }
      #expect(
        sql.last == #"SELECT * FROM "person" WHERE ("lastName" IS NULL) AND ("firstName" = ?) LIMIT 1"#)
    }
  }

  @Test("table(_:hasUniqueKey:) is false for a view or a missing table, as in GRDB")
  func hasUniqueKey() throws {
    try makeDatabase().read { (db: Database) throws in
      #expect(try db.table("person", hasUniqueKey: ["firstName", "lastName"]))
      #expect(try db.table("person", hasUniqueKey: ["ROWID"]))
      #expect(try db.table("citizenship", hasUniqueKey: ["citizenid", "COUNTRYCODE"]))
      #expect(try db.table("citizenship", hasUniqueKey: ["citizenId"]) == false)
      #expect(try db.table("person", hasUniqueKey: []) == false)
      #expect(try db.table("adult", hasUniqueKey: ["id"]) == false)
      #expect(try db.table("missing", hasUniqueKey: ["id"]) == false)
    }
  }
}
