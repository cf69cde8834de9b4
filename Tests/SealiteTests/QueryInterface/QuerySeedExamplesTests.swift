import Foundation
import Sealite
import Testing

// The music library of the seed: artists, albums, tracks and plays, written
// as a GRDB user would write it.

private struct Artist: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
  var id: Int64?
  var name: String
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct Album: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
  var id: Int64?
  var artistId: Int64
  var title: String
  var year: Int
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct Track: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
  var id: Int64?
  var albumId: Int64
  var title: String
  var duration: Int
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct Play: Codable, FetchableRecord, MutablePersistableRecord {
  var id: Int64?
  var trackId: Int64
  var playedAt: Date
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of the "most played artists" report.
private struct ArtistPlays: Decodable, FetchableRecord, Equatable {
  var artist: String
  var playCount: Int
  var trackCount: Int
}

private func makeLibrary() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE album (
          id INTEGER PRIMARY KEY, artistId INTEGER NOT NULL REFERENCES artist(id) ON DELETE CASCADE,
          title TEXT NOT NULL, year INTEGER NOT NULL);
        CREATE TABLE track (
          id INTEGER PRIMARY KEY, albumId INTEGER NOT NULL REFERENCES album(id) ON DELETE CASCADE,
          title TEXT NOT NULL, duration INTEGER NOT NULL);
        CREATE TABLE play (
          id INTEGER PRIMARY KEY, trackId INTEGER NOT NULL REFERENCES track(id) ON DELETE CASCADE,
          playedAt DATETIME NOT NULL);
        """)
    var start = Date(timeIntervalSince1970: 1_700_000_000)
    for (artistName, albums) in [
      ("Nina", [("Blue", 1965, ["Sinner", "Feeling", "Lilac"])]),
      ("Miles", [("Kind", 1959, ["So What", "Freddie"]), ("Sketches", 1960, ["Saeta"])]),
      ("Quiet", [("Empty", 2001, ["Silence"])]),
    ] {
      var artist = Artist(id: nil, name: artistName)
      try artist.insert(db)
      for (title, year, tracks) in albums {
        var album = Album(id: nil, artistId: artist.id!, title: title, year: year)
        try album.insert(db)
        for trackTitle in tracks {
          var track = Track(id: nil, albumId: album.id!, title: trackTitle, duration: 180 + trackTitle.count)
          try track.insert(db)
          let plays = artistName == "Quiet" ? 0 : trackTitle.count % 4 + 1
          for _ in 0..<plays {
            start += 60
            try Play(id: nil, trackId: track.id!, playedAt: start).inserted(db)
          }
        }
      }
    }
  }
  return dbQueue
}

@Suite("Query seed examples (tracks, albums, artists, plays)")
struct QuerySeedExamplesTests {
  @Test("The join with GROUP BY and HAVING reports the most played artists")
  func mostPlayedArtists() throws {
    let dbQueue = try makeLibrary()
    try dbQueue.read { (db: Database) throws in
      let minimumPlays = 5
      let request: SQLRequest<ArtistPlays> = """
        SELECT artist.name AS artist, COUNT(play.id) AS playCount, COUNT(DISTINCT track.id) AS trackCount
        FROM artist
        JOIN album ON album.artistId = artist.id
        JOIN track ON track.albumId = album.id
        JOIN play ON play.trackId = track.id
        GROUP BY artist.id
        HAVING COUNT(play.id) >= \(minimumPlays)
        ORDER BY playCount DESC, artist
        """
      let expectedPlays = try Play.fetchCount(db)
      let report = try request.fetchAll(db)
      // Nina: Sinner 3, Feeling 4, Lilac 2 = 9; Miles: So What 4, Freddie 4, Saeta 2 = 10.
      #expect(
        report == [
          ArtistPlays(artist: "Miles", playCount: 10, trackCount: 3),
          ArtistPlays(artist: "Nina", playCount: 9, trackCount: 3),
        ])
      #expect(report.map(\.playCount).reduce(0, +) == expectedPlays)
      #expect(try request.fetchCount(db) == 2)
    }
  }

  @Test("The query interface groups plays by track, with HAVING and an ordering on the aggregate")
  func playsPerTrack() throws {
    let dbQueue = try makeLibrary()
    try dbQueue.read { (db: Database) throws in
      let playCount = count(Column("id"))
      let rows =
        try Play
        .select(Column("trackId"), playCount.forKey("playCount"))
        .group(Column("trackId"))
        .having(playCount >= 4)
        .order(playCount.desc, Column("trackId"))
        .asRequest(of: Row.self)
        .fetchAll(db)
      let titles = try rows.map { row in try Track.find(db, id: row["trackId"]).title }
      #expect(titles == ["Feeling", "So What", "Freddie"])
      #expect(rows.map { $0["playCount"] as Int } == [4, 4, 4])
    }
  }

  @Test("Records of the library fetch, filter and order as in GRDB")
  func libraryRequests() throws {
    let dbQueue = try makeLibrary()
    try dbQueue.write { (db: Database) throws in
      let miles = try #require(try Artist.filter(Column("name") == "Miles").fetchOne(db))
      let albums = try Album.filter(Column("artistId") == miles.id!).order(Column("year").desc).fetchAll(db)
      #expect(albums.map(\.title) == ["Sketches", "Kind"])
      let long = try Track.filter(Column("duration") > 185).order(Column("title")).fetchAll(db)
      #expect(long.map(\.title) == ["Feeling", "Freddie", "Silence", "So What", "Sinner"].sorted())
      let lastPlay = try Play.order(Column("playedAt").desc).fetchOne(db)
      #expect(lastPlay?.playedAt == Date(timeIntervalSince1970: 1_700_000_000 + 19 * 60))
      // Deleting an artist cascades to albums, tracks and plays.
      #expect(try Artist.deleteOne(db, id: miles.id!))
      #expect(try Album.fetchCount(db) == 2)
      #expect(try Play.fetchCount(db) == 9)
      // An upsert of an artist keeps its id and its albums.
      var nina = Artist(id: nil, name: "Nina")
      let upserted = try nina.upsertAndFetch(db, onConflict: ["name"])
      #expect(upserted.id == 1)
      #expect(try Album.filter(Column("artistId") == 1).fetchCount(db) == 1)
    }
  }
}
