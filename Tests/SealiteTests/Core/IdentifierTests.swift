import Foundation
import Sealite
import Testing

// SQLite compares names ignoring the case of ASCII letters only: "é" and "É"
// are two columns, two tables, where "a" and "A" are one. Rows, records,
// schema introspection and observation must agree with SQLite.

private struct Accents: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "accents"
  var lower: Int
  var upper: Int
  // Coding keys, and columns, that differ by the case of an accented letter.
  enum CodingKeys: String, CodingKey {
    case lower = "é"
    case upper = "É"
  }
}

@Suite("Names compare as SQLite compares them: ASCII case only")
struct IdentifierTests {
  @Test("a persistence container finds a column by any ASCII case of its name, short or long, and only so")
  func containerColumns() {
    // 32 bytes: a string stored out of line, where names of up to 15 bytes
    // are held in the string itself. Both spellings are built at run time, so
    // that no two share their storage.
    let long = String(repeating: "column_", count: 4) + "name"
    var container = PersistenceContainer()
    container["player_name"] = 1
    container[long] = 2
    container["é"] = 3
    container["[x]"] = 4
    func value(_ column: String) -> DatabaseValue? { container[column]?.databaseValue }
    #expect(value("PLAYER_NAME") == 1.databaseValue)
    #expect(value("Player_Name") == 1.databaseValue)
    #expect(value(long.uppercased()) == 2.databaseValue)
    #expect(value(String(long.dropLast()) + "E") == 2.databaseValue)
    #expect(value(String(long.dropLast()) + "f") == nil)
    #expect(value("É") == nil)
    // "{" and "[" differ by the bit that tells "a" from "A": not letters.
    #expect(value("{x}") == nil)
    #expect(value("[X]") == 4.databaseValue)
    #expect(value("player_nam") == nil)
    #expect(value("player_namf") == nil)
    // Names that differ by their first byte only, a letter or not.
    container["xa"] = 6
    #expect(value("XA") == 6.databaseValue)
    #expect(value("ya") == nil)
    #expect(value("") == nil)
    // Set by another case, a column keeps its place and first spelling.
    container["PLAYER_NAME"] = 5
    #expect(container.columns == ["player_name", long, "é", "[x]", "xa"])
    #expect(value("player_name") == 5.databaseValue)
  }

  @Test("a row tells \"é\" from \"É\", and takes \"a\" and \"A\" for one column")
  func rowColumns() throws {
    let dbQueue = try DatabaseQueue()
    let row = try dbQueue.read { db in
      try #require(try Row.fetchOne(db, sql: #"SELECT 1 AS "é", 2 AS "É", 3 AS "A""#))
    }
    #expect(row["é"] as Int? == 1)
    #expect(row["É"] as Int? == 2)
    #expect(row["a"] as Int? == 3)
    #expect(row["A"] as Int? == 3)
    #expect(row.hasColumn("É"))
    #expect(!row.hasColumn("e"))
  }

  @Test("a record whose coding keys differ by the case of an accented letter writes and reads each column")
  func recordColumns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: #"CREATE TABLE accents ("é" INTEGER, "É" INTEGER)"#)
      try Accents(lower: 1, upper: 2).insert(db)
      #expect(try Row.fetchOne(db, sql: #"SELECT "é", "É" FROM accents"#) == ["é": 1, "É": 2])
      #expect(try Accents.fetchOne(db) == Accents(lower: 1, upper: 2))
      try Accents.updateAll(db, Column("É").set(to: 3))
      #expect(try Accents.fetchOne(db) == Accents(lower: 1, upper: 3))
    }
  }

  @Test("tables \"é\" and \"É\" are two tables to introspection and to observation")
  func tables() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: #"CREATE TABLE "é" (a); CREATE TABLE "É" (b)"#)
    }
    try dbQueue.read { (db: Database) throws in
      #expect(try db.columns(in: "é").map(\.name) == ["a"])
      #expect(try db.columns(in: "É").map(\.name) == ["b"])
      #expect(try db.tableExists("é"))
      #expect(try db.tableExists("É"))
    }
    let changes = Shared(0)
    let cancellable = DatabaseRegionObservation(tracking: Table("é")).start(
      in: dbQueue, onError: { Issue.record($0) }, onChange: { _ in changes.update { $0 += 1 } })
    defer { cancellable.cancel() }
    try dbQueue.write { db in try db.execute(sql: #"INSERT INTO "É" (b) VALUES (1)"#) }
    #expect(changes.value == 0, "a change of \"É\" is no change of \"é\"")
    try dbQueue.write { db in try db.execute(sql: #"INSERT INTO "é" (a) VALUES (1)"#) }
    #expect(changes.value == 1)
    // ASCII letters still fold: "T" is "t".
    try dbQueue.write { db in try db.execute(sql: #"CREATE TABLE t (a)"#) }
    let asciiChanges = Shared(0)
    let ascii = DatabaseRegionObservation(tracking: Table("T")).start(
      in: dbQueue, onError: { Issue.record($0) }, onChange: { _ in asciiChanges.update { $0 += 1 } })
    defer { ascii.cancel() }
    try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
    #expect(asciiChanges.value == 1)
  }
}
