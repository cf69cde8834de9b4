import Foundation
import Sealite
import Testing

/// A value stored as an integer.
private struct Points: RawRepresentable, DatabaseValueConvertible, Hashable {
  var rawValue: Int64
}

@Suite("Values fetched from a Table")
struct TableValuesTests {
  @Test("A Table of values fetches the first column of its rows", arguments: [false, true])
  func values(pool: Bool) throws {
    let directory = TemporaryDirectory()
    let writer: any DatabaseWriter =
      pool
      ? try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
      : try DatabaseQueue(path: directory.path())
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE player(score INTEGER, name TEXT)")
      try db.execute(sql: "INSERT INTO player VALUES (10, 'Arthur'), (20, 'Barbara'), (10, 'Craig')")
    }
    try writer.read { (db: Database) throws in
      // Fast path (StatementColumnConvertible), the generic path, and optionals.
      #expect(try Table<Int>("player").fetchAll(db) == [10, 20, 10])
      #expect(try Table<Int>("player").fetchSet(db) == [10, 20])
      #expect(try Table<Int>("player").fetchOne(db) == 10)
      #expect(try Array(Table<Int>("player").fetchCursor(db)) == [10, 20, 10])
      #expect(
        try Table<Points>("player").fetchAll(db) == [
          Points(rawValue: 10), Points(rawValue: 20), Points(rawValue: 10),
        ])
      #expect(try Table<Points>("player").fetchSet(db).count == 2)
      #expect(try Array(Table<Points>("player").fetchCursor(db)).count == 3)
      #expect(try Table<Int?>("player").fetchAll(db) == [10, 20, 10])
      #expect(
        try Table<String>("player").select(Column("name")).order(Column("name").desc).fetchAll(db) == [
          "Craig", "Barbara", "Arthur",
        ])
    }
  }
}
