import Foundation
import Sealite
import Testing

// A single result (fetchOne, find) is asked with LIMIT 1, unless the filters
// fix every column of a unique key with `=`: the request then selects one row
// at most, and GRDB writes no LIMIT. The same row is read either way.

@Suite("LIMIT 1 of single results, left out on unique keys as GRDB leaves it")
struct SingleResultLimitTests {
  private struct Item: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "item"
    var id: Int64
    var code: String?
  }

  private func lastSelect(_ db: Database, _ request: QueryInterfaceRequest<Item>) throws -> String? {
    try capturedSQL(db) { _ = try request.fetchOne(db) }.last
  }

  @Test("keys, unique indexes and their conjunctions select one row; other filters keep LIMIT 1")
  func limits() throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT, a INTEGER, b INTEGER, score INTEGER);
          CREATE UNIQUE INDEX item_code ON item(code);
          CREATE UNIQUE INDEX item_ab ON item(a, b);
          INSERT INTO item VALUES (1, 'x', 1, 1, 10), (2, 'y', 1, 2, 20), (3, NULL, 2, 1, 30);
          """)
      let unlimited = #"SELECT * FROM "item" WHERE "#
      #expect(try lastSelect(db, Item.filter(key: 1)) == unlimited + #""id" = ?"#)
      #expect(try lastSelect(db, Item.filter(Column("code") == "x")) == unlimited + #""code" = ?"#)
      #expect(
        try lastSelect(db, Item.filter(Column("a") == 1 && Column("b") == 2))
          == unlimited + #"("a" = ?) AND ("b" = ?)"#)
      #expect(
        try lastSelect(db, Item.filter(Column("id") == 1).filter(Column("score") > 0))
          == unlimited + #"("id" = ?) AND ("score" > ?)"#)
      // Not a whole key, a NULL (a unique index holds several), another
      // collation, or another operator: LIMIT 1.
      #expect(try lastSelect(db, Item.filter(Column("a") == 1)) == unlimited + #""a" = ? LIMIT 1"#)
      #expect(
        try lastSelect(db, Item.filter(Column("code") == nil)) == unlimited + #""code" IS NULL LIMIT 1"#)
      #expect(
        try lastSelect(db, Item.filter(Column("code").collating(.nocase) == "X"))?.hasSuffix(" LIMIT 1")
          == true)
      #expect(try lastSelect(db, Item.filter(Column("id") > 1)) == unlimited + #""id" > ? LIMIT 1"#)
      #expect(
        try lastSelect(db, Item.filter(Column("a") == 1 || Column("b") == 1))?.hasSuffix(" LIMIT 1") == true)
      // The same rows either way.
      #expect(try Item.filter(Column("a") == 1 && Column("b") == 2).fetchOne(db)?.id == 2)
      #expect(try Item.filter(Column("a") == 1).order(Column("id").desc).fetchOne(db)?.id == 2)
      #expect(try Item.fetchOne(db, key: ["a": 2, "b": 1])?.id == 3)
    }
  }
}
