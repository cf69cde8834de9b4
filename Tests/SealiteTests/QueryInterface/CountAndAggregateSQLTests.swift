import Foundation
import Sealite
import Testing

// How a request is counted, and whether a single result needs LIMIT 1, as
// GRDB writes them; the counts are those of the rows the request fetches.

@Suite("Counting requests, and single results of aggregates")
struct CountAndAggregateSQLTests {
  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE reader (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT);
          INSERT INTO reader VALUES (1, 'Arthur', 30), (2, 'Barbara', NULL), (3, 'Arthur', 30), (4, 'Craig', NULL);
          """)
    }
    return dbQueue
  }

  /// The count of `request`, the number of rows it fetches, and the SQL of the count.
  private func counted(_ db: Database, _ request: QueryInterfaceRequest<Row>) throws -> (Int, Int, String?) {
    var count = 0
    let sql = try capturedSQL(db) { count = try request.fetchCount(db) }
    return (count, try request.fetchAll(db).count, sql.last)
  }

  @Test("DISTINCT on a column that holds no NULL is counted with COUNT(DISTINCT column)")
  func distinctColumn() throws {
    try makeDatabase().read { (db: Database) throws in
      let reader = Table("reader")
      #expect(
        try counted(db, reader.select(Column("name")).distinct())
          == (3, 3, #"SELECT COUNT(DISTINCT "name") FROM "reader""#))
      #expect(
        try counted(db, reader.select(Column("name").forKey("n")).distinct().filter(Column("id") > 1))
          == (3, 3, #"SELECT COUNT(DISTINCT "name") FROM "reader" WHERE "id" > ?"#))
      #expect(
        try counted(db, reader.select(Column("id")).distinct())
          == (4, 4, #"SELECT COUNT(DISTINCT "id") FROM "reader""#))
    }
  }

  @Test("DISTINCT on a value that may be NULL counts the NULL as one value, as fetchAll returns it")
  func distinctNullable() throws {
    try makeDatabase().read { (db: Database) throws in
      let reader = Table("reader")
      // COUNT(DISTINCT "age") would say 1: GRDB's count leaves the NULL out.
      #expect(
        try counted(db, reader.select(Column("age")).distinct())
          == (2, 2, #"SELECT COUNT(*) FROM (SELECT DISTINCT "age" FROM "reader")"#))
      #expect(
        try counted(db, reader.select(Column("age") * 2).distinct())
          == (2, 2, #"SELECT COUNT(*) FROM (SELECT DISTINCT "age" * ? FROM "reader")"#))
    }
  }

  @Test(
    "a selection that keeps the rows is counted with COUNT(*); aliases, aggregates and DISTINCT rows as a subquery"
  )
  func selections() throws {
    try makeDatabase().read { (db: Database) throws in
      let reader = Table("reader")
      #expect(try counted(db, reader.select(Column("age") * 2)) == (4, 4, #"SELECT COUNT(*) FROM "reader""#))
      #expect(
        try counted(db, reader.select(Column("name"), Column("age"))) == (
          4, 4, #"SELECT COUNT(*) FROM "reader""#
        ))
      #expect(
        try counted(db, reader.select(.allColumns(excluding: ["unknown"])).distinct())
          == (4, 4, #"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "reader")"#))
      #expect(
        try counted(db, reader.select(Column("name"), Column("age")).distinct())
          == (3, 3, #"SELECT COUNT(*) FROM (SELECT DISTINCT "name", "age" FROM "reader")"#))
      #expect(
        try counted(db, reader.select(max(Column("age"))))
          == (1, 1, #"SELECT COUNT(*) FROM (SELECT MAX("age") FROM "reader")"#))
      // A filter may name an alias of the selection: the count keeps it
      // (`COUNT(*) FROM "reader" WHERE years > 20` failed: no such column).
      let renamed = reader.select(AllColumns(), Column("age").forKey("years")).filter(sql: "years > 20")
      #expect(
        try counted(db, renamed)
          == (2, 2, #"SELECT COUNT(*) FROM (SELECT *, "age" AS "years" FROM "reader" WHERE years > 20)"#))
      let aliased = reader.select(AllColumns(), (Column("age") + 1).forKey("next")).filter(sql: "next > 30")
      #expect(
        try counted(db, aliased)
          == (2, 2, #"SELECT COUNT(*) FROM (SELECT *, "age" + ? AS "next" FROM "reader" WHERE next > 30)"#))
    }
  }

  @Test("allColumns(excluding:) that excludes no column of the table is written *")
  func allColumnsExcludingNothing() throws {
    try makeDatabase().read { (db: Database) throws in
      let reader = Table("reader")
      var sql = try capturedSQL(db) {
        _ = try reader.select(.allColumns(excluding: ["unknown"])).fetchAll(db)
      }
      #expect(sql.last == #"SELECT * FROM "reader""#)
      sql = try capturedSQL(db) { _ = try reader.select(.allColumns(excluding: [String]())).fetchAll(db) }
      #expect(sql.last == #"SELECT * FROM "reader""#)
      sql = try capturedSQL(db) { _ = try reader.select(.allColumns(excluding: ["AGE"])).fetchAll(db) }
      #expect(sql.last == #"SELECT "id", "name" FROM "reader""#)
    }
  }

  @Test("a single result of an aggregate without GROUP BY has no LIMIT 1; a scalar MAX, a grouping keep it")
  func aggregateSingleResult() throws {
    try makeDatabase().read { (db: Database) throws in
      let reader = Table("reader")
      func lastSQL(_ request: QueryInterfaceRequest<Row>) throws -> String? {
        try capturedSQL(db) { _ = try request.fetchOne(db) }.last
      }
      #expect(try lastSQL(reader.select(max(Column("age")))) == #"SELECT MAX("age") FROM "reader""#)
      #expect(
        try lastSQL(reader.select(count(Column("age")) + 1).filter(Column("id") > 1))
          == #"SELECT COUNT("age") + ? FROM "reader" WHERE "id" > ?"#)
      #expect(
        try lastSQL(reader.select(max(Column("age"), Column("id"))))
          == #"SELECT MAX("age", "id") FROM "reader" LIMIT 1"#)
      #expect(
        try lastSQL(reader.select(max(Column("age"))).group(Column("name")))
          == #"SELECT MAX("age") FROM "reader" GROUP BY "name" LIMIT 1"#)
      #expect(try reader.select(max(Column("id")), as: Int.self).fetchOne(db) == 4)
    }
  }
}
