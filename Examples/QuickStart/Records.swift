import Foundation
import Sealite

// README:begin records
struct Artist: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
  var id: Int64?
  var name: String
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

  static let albums = hasMany(Album.self)
  static let tracks = hasMany(Track.self, through: albums, using: Album.tracks)
  static let plays = hasMany(Play.self, through: tracks, using: Track.plays)
}

struct Album: Codable, FetchableRecord, MutablePersistableRecord {
  var id: Int64?
  var artistId: Int64
  var title: String
  var year: Int
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

  static let artist = belongsTo(Artist.self)
  static let tracks = hasMany(Track.self)
}

struct Track: Codable, FetchableRecord, MutablePersistableRecord, Equatable, Sendable {
  var id: Int64?
  var albumId: Int64
  var title: String
  var duration: Int
  var rating: Int?  // set by the user on this device, never by the catalog
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

  static let album = belongsTo(Album.self)
  static let plays = hasMany(Play.self)
}

struct Play: Codable, FetchableRecord, MutablePersistableRecord {
  var id: Int64?
  var trackId: Int64
  var playedAt: Date
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
// README:end records
