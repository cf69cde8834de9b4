import Foundation
import Sealite
import Testing

/// The seed's migration chain, as a GRDB user writes it.
private func seedMigrator() -> DatabaseMigrator {
  var migrator = DatabaseMigrator()
  migrator.registerMigration("v1") { db in
    try db.create(table: "tracks") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("title", .text).notNull()
      t.column("artist", .text).notNull()
      t.column("duration", .double)
    }
  }
  migrator.registerMigration("v2") { db in
    try db.alter(table: "tracks") { t in t.add(column: "genre", .text) }
  }
  migrator.registerMigration("v3") { db in
    try db.create(index: "tracks_on_artist", on: "tracks", columns: ["artist"])
    try db.create(index: "tracks_on_genre_title", on: "tracks", columns: ["genre", "title"])
  }
  migrator.registerMigration("v4") { db in
    try db.create(table: "artists") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("name", .text).notNull().unique()
    }
    try db.execute(sql: "INSERT INTO artists (name) SELECT DISTINCT artist FROM tracks ORDER BY artist")
    try db.alter(table: "tracks") { t in
      t.add(column: "artistId", .integer).references("artists", onDelete: .cascade)
    }
    try db.execute(sql: "UPDATE tracks SET artistId = (SELECT id FROM artists WHERE name = tracks.artist)")
  }
  return migrator
}

private func insertTracks(_ db: Database) throws {
  try db.execute(
    sql: """
      INSERT INTO tracks (title, artist, duration, genre) VALUES
        ('Sinnerman', 'Nina Simone', 622, 'jazz'),
        ('Feeling Good', 'Nina Simone', 178, 'jazz'),
        ('So What', 'Miles Davis', 562, 'jazz')
      """)
}

private func checkMigrated(_ reader: some DatabaseReader) throws {
  try reader.read { db in
    #expect(try seedMigrator().completedMigrations(db) == ["v1", "v2", "v3", "v4"])
    #expect(
      try String.fetchAll(db, sql: "SELECT name FROM artists ORDER BY id") == ["Miles Davis", "Nina Simone"])
    let pairs = try Row.fetchAll(
      db,
      sql:
        "SELECT tracks.title, artists.name FROM tracks JOIN artists ON artists.id = tracks.artistId ORDER BY 1"
    )
    #expect(pairs.map { $0[1] as String } == ["Nina Simone", "Nina Simone", "Miles Davis"])
    let foreignKey = try #require(try db.foreignKeys(on: "tracks").first)
    #expect(foreignKey.destinationTable == "artists" && foreignKey.onDelete == "CASCADE")
    #expect(Set(try db.indexes(on: "tracks").map(\.name)) == ["tracks_on_artist", "tracks_on_genre_title"])
  }
}

@Suite("Migrator: the seed's migration chain on encrypted databases")
struct MigratorSeedChainTests {
  @Test("The chain migrates an encrypted queue step by step, and deleting an artist cascades")
  func encryptedQueue() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try seedMigrator().migrate(dbQueue, upTo: "v3")
    try dbQueue.write(insertTracks)
    try seedMigrator().migrate(dbQueue)
    try checkMigrated(dbQueue)
    try dbQueue.write { db in
      try db.execute(sql: "DELETE FROM artists WHERE name = 'Nina Simone'")
      #expect(try String.fetchAll(db, sql: "SELECT title FROM tracks") == ["So What"])
    }
    try dbQueue.close()
    // The file is encrypted: without the key, it is not a database.
    #expect(throws: (any Error).self) {
      try DatabaseQueue(path: directory.path()).read { db in try db.tableExists("tracks") }
    }
  }

  @Test("The chain migrates an encrypted pool, and readers see the result")
  func encryptedPool() async throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try seedMigrator().migrate(dbPool, upTo: "v3")
    try await dbPool.write { db in try insertTracks(db) }
    try seedMigrator().migrate(dbPool)
    try checkMigrated(dbPool)
    // A fresh connection, with the same key, sees the same.
    try dbPool.close()
    let reopened = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try checkMigrated(reopened)
  }

  @Test("A failing migration on a pool leaves readers with the last good state")
  func failureOnPool() throws {
    struct Failure: Error {}
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try seedMigrator().migrate(dbPool, upTo: "v3")
    try dbPool.write(insertTracks)
    var failing = seedMigrator()
    failing.registerMigration("v5") { db in
      try db.drop(table: "tracks")
      throw Failure()
    }
    #expect(throws: Failure.self) { try failing.migrate(dbPool) }
    try dbPool.read { db throws in
      #expect(try failing.appliedMigrations(db) == ["v1", "v2", "v3", "v4"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tracks") == 3)
    }
  }
}
