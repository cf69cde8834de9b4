// The quick start of README.md, compiled and run by the tests (ReadmeExamplesTests).
//
// Every ```swift block of README.md (and of the DocC articles) quotes a region of the
// sources of this target, between `// README:begin NAME` and `// README:end NAME`;
// scripts/check-readme fails when a block and its region differ. Each step checks its
// results, so the program exits 1 when the library stops doing what the README says.
// It runs in a temporary directory, keyed from the Secret Service (run it under
// scripts/with-keyring, as the tests do).

// README:begin open
import Foundation
import Sealite
import SealiteKeyring

let path = exampleDirectory.appendingPathComponent("library.sqlite").path
let database = try KeyringDatabase(path: path)
try Keyring().store(.randomRaw(), for: database)  // once, when the database is created

var config = Configuration()
try config.useKeyFromKeyring(for: database)  // the program never handles the key
let dbQueue = try DatabaseQueue(path: path, configuration: config)
// README:end open

// MARK: Migrations

// README:begin migrations
var migrator = DatabaseMigrator()
migrator.registerMigration("v1: artists and albums") { db in
  try db.create(table: "artist") { t in
    t.autoIncrementedPrimaryKey("id")
    t.column("name", .text).notNull().unique()
  }
  try db.create(table: "album") { t in
    t.autoIncrementedPrimaryKey("id")
    t.belongsTo("artist", onDelete: .cascade).notNull()  // artistId, indexed
    t.column("title", .text).notNull()
    t.column("year", .integer).notNull()
  }
}
migrator.registerMigration("v2: tracks and plays") { db in
  try db.create(table: "track") { t in
    t.autoIncrementedPrimaryKey("id")
    t.belongsTo("album", onDelete: .cascade).notNull()
    t.column("title", .text).notNull()
    t.column("duration", .integer).notNull()
  }
  try db.create(table: "play") { t in
    t.autoIncrementedPrimaryKey("id")
    t.belongsTo("track", onDelete: .cascade).notNull()
    t.column("playedAt", .datetime).notNull()
  }
}
migrator.registerMigration("v3: ratings") { db in
  try db.alter(table: "track") { t in t.add(column: "rating", .integer) }
}
try migrator.migrate(dbQueue)
// README:end migrations

let migrations = try dbQueue.read { db in try migrator.appliedMigrations(db) }
check(migrations.count == 3, "applied migrations: \(migrations)")

// MARK: Records

// README:begin insert
try dbQueue.write { db in
  var miles = Artist(id: nil, name: "Miles Davis")
  try miles.insert(db)  // didInsert sets miles.id
  var kindOfBlue = Album(id: nil, artistId: miles.id!, title: "Kind of Blue", year: 1959)
  try kindOfBlue.insert(db)
  for (title, duration) in [("So What", 545), ("Freddie Freeloader", 589), ("Blue in Green", 337)] {
    var track = Track(id: nil, albumId: kindOfBlue.id!, title: title, duration: duration)
    try track.insert(db)
  }
  var sketches = Album(id: nil, artistId: miles.id!, title: "Sketches of Spain", year: 1960)
  try sketches.insert(db)
  var concierto = Track(id: nil, albumId: sketches.id!, title: "Concierto de Aranjuez", duration: 976)
  try concierto.insert(db)
}
// README:end insert

// MARK: Raw SQL with arguments

// README:begin raw-sql
try dbQueue.write { db in
  // Positional arguments
  try db.execute(sql: "INSERT INTO artist (name) VALUES (?)", arguments: ["Nina Simone"])
  let nina = db.lastInsertedRowID
  try db.execute(
    sql: "INSERT INTO album (artistId, title, year) VALUES (?, ?, ?)",
    arguments: [nina, "Pastel Blues", 1965])
  let pastelBlues = db.lastInsertedRowID
  try db.execute(
    sql: "INSERT INTO track (albumId, title, duration) VALUES (?, ?, ?), (?, ?, ?)",
    arguments: [pastelBlues, "Sinnerman", 622, pastelBlues, "Be My Husband", 137])

  // Named arguments
  let plays = [
    ("So What", 3), ("Blue in Green", 1), ("Concierto de Aranjuez", 2), ("Sinnerman", 3),
    ("Be My Husband", 1),
  ]
  for (title, count) in plays {
    for _ in 0..<count {
      try db.execute(
        sql: "INSERT INTO play (trackId, playedAt) SELECT id, :date FROM track WHERE title = :title",
        arguments: ["title": title, "date": Date()])
    }
  }
}

let longTracks = try dbQueue.read { db in
  try Track.fetchAll(
    db, sql: "SELECT * FROM track WHERE duration > ? ORDER BY duration DESC", arguments: [600])
}
print(longTracks.map(\.title))  // ["Concierto de Aranjuez", "Sinnerman"]
// README:end raw-sql

check(longTracks.map(\.title) == ["Concierto de Aranjuez", "Sinnerman"], "long tracks: \(longTracks)")
let playCount = try dbQueue.read { db in try Play.fetchCount(db) }
check(playCount == 10, "plays: \(playCount)")

// MARK: A join with GROUP BY and HAVING

// README:begin join
struct ArtistPlays: Decodable, FetchableRecord {
  var artist: String
  var playCount: Int
  var trackCount: Int
}

let minimumPlays = 3
let mostPlayed = try dbQueue.read { db in
  let request: SQLRequest<ArtistPlays> = """
    SELECT artist.name AS artist, COUNT(play.id) AS playCount, COUNT(DISTINCT track.id) AS trackCount
    FROM artist
    JOIN album ON album.artistId = artist.id
    JOIN track ON track.albumId = album.id
    JOIN play ON play.trackId = track.id
    GROUP BY artist.id
    HAVING COUNT(play.id) >= \(minimumPlays)
    ORDER BY playCount DESC, artist.name
    """
  return try request.fetchAll(db)  // \(minimumPlays) is a statement argument, not text
}
for row in mostPlayed {
  print("\(row.artist): \(row.playCount) plays of \(row.trackCount) tracks")
}
// Miles Davis: 6 plays of 3 tracks
// Nina Simone: 4 plays of 2 tracks

// The same report with the query interface, through the records' associations
struct ArtistInfo: Decodable, FetchableRecord {
  var artist: Artist
  var playCount: Int
}

let popular = try dbQueue.read { db in
  try Artist
    .annotated(with: Artist.plays.count)
    .having(Artist.plays.count >= minimumPlays)
    .order(Artist.plays.count.desc, Column("name"))
    .asRequest(of: ArtistInfo.self)
    .fetchAll(db)
}
// README:end join

check(
  mostPlayed.map { "\($0.artist) \($0.playCount) \($0.trackCount)" } == [
    "Miles Davis 6 3", "Nina Simone 4 2",
  ],
  "most played: \(mostPlayed)")
check(
  popular.map { "\($0.artist.name) \($0.playCount)" } == ["Miles Davis 6", "Nina Simone 4"],
  "popular: \(popular)")

// MARK: Upsert without clobbering local edits

let soWhatId = try dbQueue.read { db in
  try Int64.fetchOne(db, sql: "SELECT id FROM track WHERE title = 'So What'")!
}
let kindOfBlueId = try dbQueue.read { db in
  try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE title = 'Kind of Blue'")!
}

// README:begin upsert
let stored = try dbQueue.write { db in
  // The user rates a track on this device...
  try Track.filter(Column("title") == "So What").updateAll(db, Column("rating").set(to: 5))

  // ...then the catalog sends its version of the same track, rating included.
  var fromCatalog = Track(id: soWhatId, albumId: kindOfBlueId, title: "So What", duration: 562, rating: 3)
  return try fromCatalog.upsertAndFetch(db) { excluded in
    // The catalog's title and duration win. The user's rating stays; the
    // catalog's fills in only where the user rated nothing.
    [Column("rating").set(to: Column("rating") ?? excluded["rating"])]
  }
}
print(stored.duration, stored.rating!)  // 562 5

// A column that an upsert must never touch: noOverwrite
try dbQueue.write { db in
  var fromCatalog = Track(id: soWhatId, albumId: kindOfBlueId, title: "So What", duration: 563, rating: 1)
  _ = try fromCatalog.upsertAndFetch(db) { _ in [Column("rating").noOverwrite] }
}
// README:end upsert

check(stored.duration == 562 && stored.rating == 5, "upserted: \(stored)")
let afterSecondUpsert = try dbQueue.read { db in try Track.fetchOne(db, key: soWhatId)! }
check(afterSecondUpsert.duration == 563 && afterSecondUpsert.rating == 5, "upserted: \(afterSecondUpsert)")
check(try dbQueue.read { db in try Track.fetchCount(db) } == 6, "an upsert inserted a row")

// MARK: Observation as an AsyncSequence

// README:begin observation
func printFavorites(_ dbQueue: DatabaseQueue) async throws -> [[String]] {
  let favorites = ValueObservation.tracking { db in
    try Track.filter(Column("rating") >= 4).order(Column("title")).fetchAll(db)
  }
  var seen: [[String]] = []
  for try await tracks in favorites.values(in: dbQueue) {
    print(tracks.map(\.title))  // the current value first, then one per change
    seen.append(tracks.map(\.title))
    if seen.count == 1 {
      try await dbQueue.write { db in
        _ = try Track.filter(Column("title") == "Sinnerman").updateAll(db, Column("rating").set(to: 4))
      }
    } else {
      break  // leaving the loop (or cancelling the task) stops the observation
    }
  }
  return seen
}

let seen = try await printFavorites(dbQueue)  // ["So What"], then ["Sinnerman", "So What"]
// README:end observation

check(seen == [["So What"], ["Sinnerman", "So What"]], "observed: \(seen)")

// MARK: Tracing and EXPLAIN QUERY PLAN

// README:begin trace
let (traced, plan) = try dbQueue.read { db in
  var statements: [String] = []
  db.trace { statements.append("\($0)") }  // every statement this connection runs
  defer { db.trace(nil) }
  _ = try Play.filter(Column("trackId") == soWhatId).fetchCount(db)
  let plan = try db.explainQueryPlan(sql: "SELECT * FROM play WHERE trackId = ?", arguments: [soWhatId])
  return (statements, plan)
}
print(traced)  // ["SELECT COUNT(*) FROM \"play\" WHERE \"trackId\" = ?"]: arguments stay hidden
print(plan)  // SEARCH play USING INDEX play_on_trackId (trackId=?)
// README:end trace

check(traced.count == 1 && traced[0].contains("\"play\""), "traced: \(traced)")
check(!traced[0].contains("\(soWhatId)"), "an argument reached the trace: \(traced)")
check(plan.usesIndex("play_on_trackId"), "plan: \(plan)")

// MARK: The feature probe

// README:begin feature-probe
let features = SQLiteFeatures.linked
print("SQLCipher \(features.sqlcipherVersion ?? "none"), SQLite \(features.sqliteVersion)")

let longest = try dbQueue.read { db in
  if db.features.supports(.windowFunctions) {
    return try String.fetchAll(
      db,
      sql: """
        SELECT title FROM (SELECT title, RANK() OVER (ORDER BY duration DESC) AS rank FROM track)
        WHERE rank <= 2
        """)
  }
  return try String.fetchAll(db, sql: "SELECT title FROM track ORDER BY duration DESC LIMIT 2")
}

do {
  try features.require(.strictTables)
} catch let error as SQLiteFeatureError {
  print(error)  // on SQLCipher 3.4.1: STRICT tables needs SQLite 3.37.0 or later; …
}
// README:end feature-probe

check(longest == ["Concierto de Aranjuez", "Sinnerman"], "longest: \(longest)")

// MARK: A pool

try dbQueue.close()
// README:begin pool
let dbPool = try DatabasePool(path: path, configuration: config)  // WAL: one writer, concurrent readers
async let artistCount = dbPool.read { db in try Artist.fetchCount(db) }
async let trackCount = dbPool.read { db in try Track.fetchCount(db) }
let counts = try await (artistCount, trackCount)  // both reads run at once: (2, 6)
// README:end pool

check(counts == (2, 6), "counts: \(counts)")
try await observeWithCallbacks(dbPool)
try encryptionExamples(in: exampleDirectory)
try jsonExamples(in: exampleDirectory)
try fullTextSearchExamples(in: exampleDirectory)
try dbPool.close()

// MARK: Full-text search

// Last, so that the track it adds and deletes changes none of the checks above.
let searchQueue = try DatabaseQueue(path: path, configuration: config)
try searchExamples(searchQueue)
try searchQueue.close()

// MARK: Keys in the keyring

// README:begin keyring-change-key
// A new random key: the file is re-encrypted and the keyring updated, crash-safe.
try Keyring().changeKey(of: database, to: .randomRaw())

var rekeyed = Configuration()
try rekeyed.useKeyFromKeyring(for: database)
let reopened = try DatabaseQueue(path: path, configuration: rekeyed)
// README:end keyring-change-key
check(try reopened.read { db in try Artist.fetchCount(db) } == 3, "the rekeyed database does not read")
try reopened.close()

// README:begin keyring-errors
do {
  var other = Configuration()
  try other.useKeyFromKeyring(for: KeyringDatabase(path: exampleDirectory.path + "/unknown.sqlite"))
} catch KeyringError.itemNotFound(let path, _) {
  print("no key in the keyring for \(path)")
} catch let error as KeyringError {
  print(error)  // locked collection, no Secret Service, no session bus: each says what to do
}
// README:end keyring-errors
check(hasPrinted(containing: "no key in the keyring for"), "a missing key was not reported")

try Keyring().deleteKey(for: database)
try FileManager.default.removeItem(at: exampleDirectory)
print("quick start: every step checked")
