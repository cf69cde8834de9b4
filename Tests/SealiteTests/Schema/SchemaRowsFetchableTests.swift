import Sealite
import Testing

@Suite("ColumnInfo and ForeignKeyViolation are fetchable records of their pragma rows")
struct SchemaRowsFetchableTests {
  @Test("ColumnInfo.fetchAll of PRAGMA table_info gives what columns(in:) gives")
  func columnInfo() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'Anonymous', score)")
      let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")
      #expect(columns == (try db.columns(in: "player")))
      #expect(columns.map(\.name) == ["id", "name", "score"])
      #expect(columns[1].isNotNull)
      #expect(columns[1].defaultValueSQL == "'Anonymous'")
      #expect(columns[0].primaryKeyIndex == 1)
      #expect(columns[2].type == "")
    }
  }

  @Test("ForeignKeyViolation.fetchAll of PRAGMA foreign_key_check gives what foreignKeyViolations() gives")
  func foreignKeyViolation() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA foreign_keys = OFF")
      try db.execute(
        sql: """
          CREATE TABLE artist (id INTEGER PRIMARY KEY);
          CREATE TABLE track (id INTEGER PRIMARY KEY, artistId INTEGER REFERENCES artist(id));
          INSERT INTO track (id, artistId) VALUES (3, 9);
          """)
      let violations = try ForeignKeyViolation.fetchAll(db, sql: "PRAGMA foreign_key_check")
      let expected = try Array(db.foreignKeyViolations())
      #expect(violations == expected)
      let violation = try #require(violations.first)
      #expect(violation.originTable == "track")
      #expect(violation.originRowID == 3)
      #expect(violation.destinationTable == "artist")
      #expect(violation.foreignKeyId == 0)
    }
  }
}
