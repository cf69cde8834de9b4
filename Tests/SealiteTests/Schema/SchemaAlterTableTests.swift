import Foundation
import Testing

// @testable: alter(table:forcingTableRebuild:) runs the rebuild path where ALTER TABLE would do.
@testable import Sealite

/// Artists and their tracks: a parent and a child table with indexes (plain,
/// partial, unique), an AUTOINCREMENT sequence, a cascading foreign key, a
/// trigger and a view.
private func makeMusicSchema(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE artist (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        country TEXT CHECK (length(country) = 2),
        legacyCode TEXT);
      CREATE INDEX artist_on_country ON artist(country);
      CREATE INDEX artist_named_with_country ON artist(name) WHERE country IS NOT NULL;
      CREATE TABLE track (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        artistId INTEGER REFERENCES artist(id) ON DELETE CASCADE,
        note TEXT);
      CREATE INDEX track_on_artistId ON track(artistId);
      CREATE TABLE log (message TEXT);
      CREATE TRIGGER track_inserted AFTER INSERT ON track BEGIN
        INSERT INTO log (message) VALUES ('added ' || NEW.title);
      END;
      CREATE VIEW trackView AS
        SELECT track.title, artist.name FROM track JOIN artist ON artist.id = track.artistId;
      INSERT INTO artist (id, name, country, legacyCode) VALUES (1, 'Nina', 'US', 'x'), (2, 'Miles', 'US', 'y');
      INSERT INTO artist (id, name, country) VALUES (3, 'Gone', NULL);
      DELETE FROM artist WHERE id = 3;
      INSERT INTO track (id, title, artistId, note) VALUES
        (1, 'Sinnerman', 1, 'long'), (2, 'Feeling Good', 1, NULL), (3, 'So What', 2, 'modal');
      DELETE FROM log;
      """)
}

/// True if the alteration goes through the table rebuild.
private func rebuilds(forcing: Bool) -> Bool {
  forcing || !SQLiteFeatures.linked.supports(.renameColumn) || !SQLiteFeatures.linked.supports(.dropColumn)
}

@Suite("Schema: altering tables")
struct SchemaAlterTableTests {
  @Test("The linked SQLite has native RENAME/DROP COLUMN exactly on the primary leg")
  func legs() {
    let features = SQLiteFeatures.linked
    if TestEnvironment.isLegacy {
      #expect(!features.supports(.renameColumn) && !features.supports(.dropColumn))
    } else if TestEnvironment.leg == "primary" {
      #expect(features.supports(.renameColumn) && features.supports(.dropColumn))
    }
  }

  @Test("add(column:) adds a column with its default, reference and index")
  func addColumn() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeMusicSchema(db)
      try db.alter(table: "track") { t in
        t.add(column: "genre", .text).notNull().defaults(to: "jazz").indexed()
        t.add(column: "featuringId", .integer).references("artist", onDelete: .setNull)
        t.addColumn(sql: "rating INTEGER")
      }
      #expect(try db.columns(in: "track").map(\.name).suffix(3) == ["genre", "featuringId", "rating"])
      #expect(try String.fetchAll(db, sql: "SELECT DISTINCT genre FROM track") == ["jazz"])
      #expect(try db.indexes(on: "track").contains { $0.name == "track_on_genre" })
      #expect(try db.foreignKeys(on: "track").contains { $0.originColumns == ["featuringId"] })
    }
  }

  @Test(
    "Renaming and dropping a column of a child table keeps rows, indexes, triggers, views and foreign keys",
    arguments: [false, true])
  func alterChildTable(forcingTableRebuild: Bool) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    try dbQueue.writeWithoutTransaction { db in
      try db.alter(table: "track", forcingTableRebuild: forcingTableRebuild) { t in
        t.rename(column: "title", to: "trackTitle")
        t.drop(column: "note")
      }
      #expect(try db.foreignKeysAreEnforced)
    }
    try dbQueue.write { db in
      #expect(try db.columns(in: "track").map(\.name) == ["id", "trackTitle", "artistId"])
      let rows = try Row.fetchAll(db, sql: "SELECT id, trackTitle, artistId FROM track ORDER BY id")
      #expect(
        rows == [
          ["id": 1, "trackTitle": "Sinnerman", "artistId": 1],
          ["id": 2, "trackTitle": "Feeling Good", "artistId": 1],
          ["id": 3, "trackTitle": "So What", "artistId": 2],
        ])
      #expect(try db.indexes(on: "track").map(\.columns) == [["artistId"]])
      #expect(try db.indexes(on: "track").map(\.name) == ["track_on_artistId"])
      // The trigger follows the renamed column.
      try db.execute(sql: "INSERT INTO track (id, trackTitle, artistId) VALUES (4, 'Blue in Green', 2)")
      #expect(try String.fetchAll(db, sql: "SELECT message FROM log") == ["added Blue in Green"])
      // The view too.
      let view = try Row.fetchAll(db, sql: "SELECT * FROM trackView ORDER BY 1")
      #expect(view.count == 4)
      #expect(view.first?[0] == "Blue in Green")
      // The foreign key still cascades.
      let foreignKeys = try db.foreignKeys(on: "track")
      #expect(foreignKeys.map(\.destinationTable) == ["artist"])
      #expect(foreignKeys.map(\.onDelete) == ["CASCADE"])
      try db.execute(sql: "DELETE FROM artist WHERE id = 1")
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM track ORDER BY id") == [3, 4])
      #expect(try Array(db.foreignKeyViolations()).isEmpty)
    }
  }

  @Test(
    "Renaming and dropping a column of a parent table keeps its children, indexes, sequence and checks",
    arguments: [false, true])
  func alterParentTable(forcingTableRebuild: Bool) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    try dbQueue.writeWithoutTransaction { db in
      try db.alter(table: "artist", forcingTableRebuild: forcingTableRebuild) { t in
        t.rename(column: "country", to: "region")
        t.drop(column: "legacyCode")
      }
    }
    try dbQueue.write { db in
      // Dropping the old table ran no ON DELETE CASCADE: every track is here.
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track") == 3)
      #expect(try db.columns(in: "artist").map(\.name) == ["id", "name", "region"])
      #expect(
        try Row.fetchAll(db, sql: "SELECT * FROM artist ORDER BY id") == [
          ["id": 1, "name": "Nina", "region": "US"], ["id": 2, "name": "Miles", "region": "US"],
        ])
      let indexes = try db.indexes(on: "artist")
      let byName = Dictionary(uniqueKeysWithValues: indexes.map { ($0.name, $0) })
      #expect(byName["artist_on_country"]?.columns == ["region"])
      #expect(byName["artist_named_with_country"]?.isPartial == true)
      #expect(indexes.contains { $0.origin == .uniqueConstraint && $0.columns == ["name"] })
      // The CHECK follows the renamed column.
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO artist (name, region) VALUES ('Too long', 'USA')")
      }
      // AUTOINCREMENT does not reuse the rowid of the deleted artist 3.
      try db.execute(sql: "INSERT INTO artist (name) VALUES ('Bill')")
      #expect(db.lastInsertedRowID == 4)
      // Children still refer to it, and still cascade.
      #expect(try db.foreignKeys(on: "track").map(\.destinationTable) == ["artist"])
      try db.execute(sql: "DELETE FROM artist WHERE id = 2")
      #expect(try Int.fetchAll(db, sql: "SELECT id FROM track ORDER BY id") == [1, 2])
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO track (title, artistId) VALUES ('Orphan', 99)")
      }
    }
  }

  @Test("Inside a transaction with foreign keys on, rebuilding a referenced table is refused")
  func rebuildOfParentInTransaction() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    let error = try #require(throws: DatabaseError.self) {
      try dbQueue.write { db in
        try db.alter(table: "artist", forcingTableRebuild: true) { t in t.drop(column: "legacyCode") }
      }
    }
    #expect(error.message?.contains("table track refers to it") == true)
    try dbQueue.read { db throws in
      #expect(try db.columns(in: "artist").map(\.name).contains("legacyCode"))
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track") == 3)
    }
  }

  @Test("A rebuild that finds a foreign key violation is rolled back")
  func rebuildFindsViolation() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try makeMusicSchema(db)
      try db.execute(sql: "PRAGMA foreign_keys = OFF")
      try db.execute(sql: "INSERT INTO track (id, title, artistId) VALUES (9, 'Orphan', 99)")
      try db.execute(sql: "PRAGMA foreign_keys = ON")
      let schema = try String.fetchAll(db, sql: "SELECT IFNULL(sql, name) FROM sqlite_master ORDER BY name")
      let error = try #require(throws: DatabaseError.self) {
        try db.alter(table: "track", forcingTableRebuild: true) { t in t.rename(column: "note", to: "comment")
        }
      }
      #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
      #expect(error.message?.contains("from track(artistId) to artist(id)") == true)
      #expect(
        try String.fetchAll(db, sql: "SELECT IFNULL(sql, name) FROM sqlite_master ORDER BY name") == schema)
      #expect(try db.foreignKeysAreEnforced)
      #expect(!db.isInsideTransaction)
    }
  }

  @Test("Dropping an indexed or primary key column is refused and changes nothing", arguments: [false, true])
  func refusedDrops(forcingTableRebuild: Bool) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    for column in ["artistId", "id"] {
      #expect(throws: DatabaseError.self) {
        try dbQueue.writeWithoutTransaction { db in
          try db.alter(table: "track", forcingTableRebuild: forcingTableRebuild) { t in t.drop(column: column)
          }
        }
      }
    }
    try dbQueue.read { db throws in
      #expect(try db.columns(in: "track").map(\.name) == ["id", "title", "artistId", "note"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track") == 3)
    }
  }

  @Test("The changes of one alter(table:) are all or nothing", arguments: [false, true])
  func allOrNothing(forcingTableRebuild: Bool) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    #expect(throws: DatabaseError.self) {
      try dbQueue.writeWithoutTransaction { db in
        try db.alter(table: "track", forcingTableRebuild: forcingTableRebuild) { t in
          t.add(column: "genre", .text)
          t.rename(column: "note", to: "comment")
          t.drop(column: "noSuchColumn")
        }
      }
    }
    try dbQueue.read { db throws in
      #expect(try db.columns(in: "track").map(\.name) == ["id", "title", "artistId", "note"])
    }
  }

  @Test("alter(table:) runs GRDB's statements: one alone, several in a transaction with no savepoint")
  func alterStatements() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    let single = try dbQueue.writeWithoutTransaction { db in
      try capturedSQL(db) {
        try db.alter(table: "track") { t in t.add(column: "genre", .text).references("artist") }
      }
    }
    #expect(single.last == #"ALTER TABLE "track" ADD COLUMN "genre" TEXT REFERENCES "artist"("id")"#)
    #expect(!single.contains { $0.hasPrefix("BEGIN") || $0.hasPrefix("SAVEPOINT") })
    let several = try dbQueue.write { db in
      try capturedSQL(db) {
        try db.alter(table: "track") { t in
          t.add(column: "mood", .text).references("artist")
          t.add(column: "tempo", .integer).notNull().defaults(to: 120)
        }
      }
    }
    #expect(
      Array(several.suffix(2)) == [
        #"ALTER TABLE "track" ADD COLUMN "mood" TEXT REFERENCES "artist"("id")"#,
        #"ALTER TABLE "track" ADD COLUMN "tempo" INTEGER NOT NULL DEFAULT 120"#,
      ])
    #expect(!several.contains { $0.hasPrefix("SAVEPOINT") })
    try dbQueue.read { db throws in
      #expect(try db.columns(in: "track").map(\.name).suffix(3) == ["genre", "mood", "tempo"])
    }
  }

  @Test("Renaming handles quoted names and leaves look-alike words alone", arguments: [false, true])
  func quotedNames(forcingTableRebuild: Bool) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.writeWithoutTransaction { db in
      try db.execute(
        sql: """
          CREATE TABLE "odd table" (
            "date" DATE DEFAULT 'date',
            "other date" DATE CHECK ("date" <> 'never'),
            [x] TEXT COLLATE NOCASE,
            ref INTEGER REFERENCES other CHECK ("date" <> 'never either'));
          CREATE TABLE other (id INTEGER PRIMARY KEY);
          CREATE INDEX "odd index" ON "odd table"("date", [x]);
          INSERT INTO "odd table" VALUES ('2024-01-01', '2024-01-02', 'a', NULL);
          """)
      try db.alter(table: "odd table", forcingTableRebuild: forcingTableRebuild) { t in
        t.rename(column: "date", to: "day \"one\"")
      }
      let columns = try db.columns(in: "odd table")
      #expect(columns.map(\.name) == ["day \"one\"", "other date", "x", "ref"])
      #expect(columns.map(\.type) == ["DATE", "DATE", "TEXT", "INTEGER"])
      #expect(columns[0].defaultValueSQL == "'date'")
      #expect(try db.indexes(on: "odd table").first?.columns == ["day \"one\"", "x"])
      #expect(
        try Row.fetchOne(db, sql: "SELECT * FROM \"odd table\"")
          == ["day \"one\"": "2024-01-01", "other date": "2024-01-02", "x": "a", "ref": nil])
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO \"odd table\" (\"day \"\"one\"\"\") VALUES ('never')")
      }
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO \"odd table\" (\"day \"\"one\"\"\") VALUES ('never either')")
      }
    }
  }

  @Test("On the legacy leg, the public alter(table:) rebuilds; on the primary leg, it is native")
  func publicPath() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try makeMusicSchema(db) }
    let statements = try dbQueue.writeWithoutTransaction { db in
      try capturedSQL(db) { try db.alter(table: "track") { t in t.rename(column: "note", to: "comment") } }
    }
    let rebuilt = statements.contains { $0.contains("INSERT INTO \"sealite_rebuild_track\"") }
    #expect(rebuilt == !SQLiteFeatures.linked.supports(.renameColumn))
    if let leg = TestEnvironment.leg { #expect(rebuilt == (leg == "legacy")) }
    try dbQueue.read { db throws in
      #expect(
        try String.fetchAll(db, sql: "SELECT comment FROM track WHERE comment IS NOT NULL ORDER BY id")
          == ["long", "modal"])
    }
  }
}
