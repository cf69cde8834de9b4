import Foundation
import Sealite
import Testing

// The seed's example: artists, albums, tracks, plays, in an encrypted database file.

private struct Artist: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  static let albums = hasMany(Album.self)
  static let tracks = hasMany(Track.self, through: albums, using: Album.tracks)
  static let plays = hasMany(Play.self, through: tracks, using: Track.plays)
}

private struct Album: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var artistId: Int64
  var title: String
  static let artist = belongsTo(Artist.self)
  static let tracks = hasMany(Track.self)
}

private struct Track: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var albumId: Int64
  var title: String
  var duration: Int
  static let album = belongsTo(Album.self)
  static let plays = hasMany(Play.self)
  static let artist = hasOne(Artist.self, through: album, using: Album.artist)
}

private struct Play: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var trackId: Int64
  var playedAt: Date
  static let track = belongsTo(Track.self)
}

/// Per-artist statistics of the GROUP BY/HAVING join.
private struct ArtistStats: Decodable, FetchableRecord, Equatable {
  var artistName: String
  var trackCount: Int
  var totalDuration: Int
}

/// Miles Davis: 2 albums, 4 tracks, 6 plays. Nina Simone: 1 album, 2 tracks,
/// 4 plays. Bill Evans: 1 album, 1 track, no play. Quiet Quartet: 1 album
/// without tracks.
private func makeMusicDatabase(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE album (
          id INTEGER PRIMARY KEY, artistId INTEGER NOT NULL REFERENCES artist(id), title TEXT NOT NULL);
        CREATE INDEX album_artistId ON album(artistId);
        CREATE TABLE track (
          id INTEGER PRIMARY KEY, albumId INTEGER NOT NULL REFERENCES album(id),
          title TEXT NOT NULL, duration INTEGER NOT NULL);
        CREATE INDEX track_albumId ON track(albumId);
        CREATE TABLE play (
          id INTEGER PRIMARY KEY, trackId INTEGER NOT NULL REFERENCES track(id), playedAt DATETIME NOT NULL);
        CREATE INDEX play_trackId ON play(trackId);
        """)
    for (id, name) in [(1, "Miles Davis"), (2, "Nina Simone"), (3, "Bill Evans"), (4, "Quiet Quartet")] {
      try Artist(id: Int64(id), name: name).insert(db)
    }
    for (id, artistId, title) in [
      (1, 1, "Kind of Blue"), (2, 1, "Sketches of Spain"), (3, 2, "Pastel Blues"), (4, 3, "Waltz for Debby"),
      (5, 4, "Silence"),
    ] {
      try Album(id: Int64(id), artistId: Int64(artistId), title: title).insert(db)
    }
    for (id, albumId, title, duration) in [
      (1, 1, "So What", 545), (2, 1, "Freddie Freeloader", 589), (3, 1, "Blue in Green", 337),
      (4, 2, "Concierto de Aranjuez", 976), (5, 3, "Sinnerman", 622), (6, 3, "Be My Husband", 137),
      (7, 4, "My Foolish Heart", 296),
    ] {
      try Track(id: Int64(id), albumId: Int64(albumId), title: title, duration: duration).insert(db)
    }
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    for (index, trackId) in [1, 1, 1, 3, 4, 4, 5, 5, 5, 5].enumerated() {
      try Play(id: Int64(index + 1), trackId: Int64(trackId), playedAt: start + Double(index) * 60).insert(db)
    }
  }
  return dbQueue
}

@Suite("Associations: the tracks, albums, artists and plays example")
struct MusicLibraryAssociationTests {
  @Test("artists with their play count through albums and tracks, having more than N, ordered")
  func artistsByPlayCount() throws {
    struct ArtistInfo: Decodable, FetchableRecord, Equatable {
      var artist: Artist
      var playCount: Int
    }
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    func popularArtists(minimumPlays: Int) throws -> [ArtistInfo] {
      try dbQueue.read { db in
        try Artist
          .annotated(with: Artist.plays.count)
          .having(Artist.plays.count > minimumPlays)
          .order(Artist.plays.count.desc, Column("name"))
          .asRequest(of: ArtistInfo.self)
          .fetchAll(db)
      }
    }
    let popular = try popularArtists(minimumPlays: 3)
    #expect(popular.map(\.artist.name) == ["Miles Davis", "Nina Simone"])
    #expect(popular.map(\.playCount) == [6, 4])
    #expect(try popularArtists(minimumPlays: 4).map(\.artist.name) == ["Miles Davis"])
    #expect(try popularArtists(minimumPlays: -1).map(\.playCount) == [6, 4, 0, 0])
  }

  @Test("albums including their artist, annotated with track count and total duration")
  func albumsWithArtistAndTrackStats() throws {
    struct AlbumInfo: Decodable, FetchableRecord {
      var album: Album
      var artist: Artist
      var trackCount: Int
      var trackDurationSum: Int?
    }
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    let infos = try dbQueue.read { db in
      try Album
        .including(required: Album.artist)
        .annotated(with: Album.tracks.count, Album.tracks.sum(Column("duration")))
        .order(Column("id"))
        .asRequest(of: AlbumInfo.self)
        .fetchAll(db)
    }
    #expect(
      infos.map(\.album.title) == [
        "Kind of Blue", "Sketches of Spain", "Pastel Blues", "Waltz for Debby", "Silence",
      ])
    #expect(
      infos.map(\.artist.name) == [
        "Miles Davis", "Miles Davis", "Nina Simone", "Bill Evans", "Quiet Quartet",
      ])
    #expect(infos.map(\.trackCount) == [3, 1, 2, 1, 0])
    #expect(infos.map(\.trackDurationSum) == [1471, 976, 759, 296, nil])
  }

  @Test("a GROUP BY/HAVING join written with the query interface and as an SQL literal agree")
  func groupByHavingJoin() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    let minimumTracks = 2
    let artistAlias = TableAlias<Artist>()
    let queryInterface =
      Track
      .joining(required: Track.album.joining(required: Album.artist.aliased(artistAlias)))
      .select(
        artistAlias[Column("name")].forKey("artistName"),
        count(Column("id")).forKey("trackCount"),
        sum(Column("duration")).forKey("totalDuration")
      )
      .group(artistAlias[Column("id")])
      .having(count(Column("id")) >= minimumTracks)
      .order(artistAlias[Column("name")])
      .asRequest(of: ArtistStats.self)
    let literal: SQLRequest<ArtistStats> = """
      SELECT artist.name AS artistName, COUNT(track.id) AS trackCount, SUM(track.duration) AS totalDuration
      FROM track
      JOIN album ON album.id = track.albumId
      JOIN artist ON artist.id = album.artistId
      GROUP BY artist.id
      HAVING COUNT(track.id) >= \(minimumTracks)
      ORDER BY artist.name
      """
    let (fromQueryInterface, fromLiteral) = try dbQueue.read { db in
      (try queryInterface.fetchAll(db), try literal.fetchAll(db))
    }
    let expected = [
      ArtistStats(artistName: "Miles Davis", trackCount: 4, totalDuration: 2447),
      ArtistStats(artistName: "Nina Simone", trackCount: 2, totalDuration: 759),
    ]
    #expect(fromQueryInterface == expected)
    #expect(fromLiteral == expected)
  }

  @Test("plays include their track, its album and its artist as nested scopes")
  func playsWithNestedScopes() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    let rows = try dbQueue.read { db in
      try Row.fetchAll(
        db,
        Play.including(
          required: Play.track.including(required: Track.album.including(required: Album.artist))
        )
        .filter(Column("id") == 5 || Column("id") == 7)
        .order(Column("id")))
    }
    #expect(rows.map { $0.scopes["track"]?["title"] as String? } == ["Concierto de Aranjuez", "Sinnerman"])
    #expect(
      rows.map { $0.scopes["track"]?.scopes["album"]?["title"] as String? } == [
        "Sketches of Spain", "Pastel Blues",
      ])
    #expect(
      rows.map { $0.scopes["track"]?.scopes["album"]?.scopes["artist"]?["name"] as String? } == [
        "Miles Davis", "Nina Simone",
      ])
  }

  @Test("tracks include their artist through their album")
  func tracksWithArtistThroughAlbum() throws {
    struct TrackInfo: Decodable, FetchableRecord {
      var track: Track
      var artist: Artist
    }
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    let infos = try dbQueue.read { db in
      try Track.including(required: Track.artist).order(Column("id")).asRequest(of: TrackInfo.self)
        .fetchAll(db)
    }
    #expect(infos.map(\.artist.id) == [1, 1, 1, 1, 2, 2, 3])
  }

  @Test("artists with their albums, each with its tracks, ordered by duration")
  func artistsWithAlbumsWithTracks() throws {
    struct AlbumInfo: Decodable, FetchableRecord {
      var album: Album
      var tracks: [Track]
    }
    struct ArtistInfo: Decodable, FetchableRecord {
      var artist: Artist
      var albums: [AlbumInfo]
    }
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    let infos = try dbQueue.read { db in
      try Artist
        .including(
          all: Artist.albums.order(Column("id")).including(all: Album.tracks.order(Column("duration").desc))
        )
        .filter(Column("id") <= 2)
        .order(Column("id"))
        .asRequest(of: ArtistInfo.self)
        .fetchAll(db)
    }
    #expect(infos.map { $0.albums.map(\.album.id) } == [[1, 2], [3]])
    #expect(infos.map { $0.albums.map { $0.tracks.map(\.id) } } == [[[2, 1, 3], [4]], [[5, 6]]])
  }

  @Test("artists without plays, and tracks played since a date")
  func unplayedAndRecent() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try makeMusicDatabase(directory)
    let since = Date(timeIntervalSince1970: 1_700_000_000 + 6 * 60)
    try dbQueue.read { db in
      let silent = try Artist.having(Artist.plays.isEmpty).order(Column("id")).fetchAll(db)
      #expect(silent.map(\.name) == ["Bill Evans", "Quiet Quartet"])
      let recent = try Track.joining(required: Track.plays.filter(Column("playedAt") >= since))
        .distinct().order(Column("id")).fetchAll(db)
      #expect(recent.map(\.title) == ["Sinnerman"])
      let recentCounts = try Row.fetchAll(
        db,
        Artist.annotated(with: Artist.plays.filter(Column("playedAt") >= since).forKey("recentPlays").count)
          .order(Column("id")))
      #expect(recentCounts.map { $0["recentPlayCount"] as Int } == [0, 4, 0, 0])
    }
  }
}
