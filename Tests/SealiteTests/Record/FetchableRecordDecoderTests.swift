import Foundation
import Sealite
import Testing

private let contextKey = CodingUserInfoKey(rawValue: "context")!

private struct Player: Decodable, FetchableRecord, Equatable {
  var id: Int64
  var name: String
  var score: Int?
}

/// A record whose strategies the decoder must follow: snake-case columns,
/// dates as Unix timestamps, user info for the nested JSON value.
private struct Match: Decodable, FetchableRecord {
  static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
  static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [contextKey: "match"] }
  static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    .timeIntervalSince1970
  }
  var playedAt: Date
  var venue: Venue
}

private struct Venue: Decodable {
  var name: String
  var context: String?
  enum CodingKeys: String, CodingKey { case name }
  init(from decoder: any Decoder) throws {
    name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    context = decoder.userInfo[contextKey] as? String
  }
}

/// A record whose own `init(row:)` the decoder does not call: it decodes
/// through `Decodable`, as GRDB's does.
private struct Custom: Decodable, FetchableRecord {
  var name: String
  init(row: Row) throws { name = "init(row:)" }
}

@Suite("FetchableRecordDecoder")
struct FetchableRecordDecoderTests {
  @Test("Decodes a record from a fetched row, as init(row:) does")
  func decodesRow() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 42 AS id, 'Arthur' AS name, NULL AS score"))
      let decoder = FetchableRecordDecoder()
      let player = try decoder.decode(Player.self, from: row)
      #expect(player == Player(id: 42, name: "Arthur", score: nil))
      #expect(try Player(row: row) == player)
      // One decoder serves many rows.
      let other: Row = ["id": 1, "name": "Barbara", "score": 10]
      #expect(try decoder.decode(Player.self, from: other) == Player(id: 1, name: "Barbara", score: 10))
    }
  }

  @Test("Follows the record's column, date and JSON strategies and its user info")
  func strategies() throws {
    let row: Row = ["played_at": 86_400, "venue": #"{"name":"Wembley"}"#]
    let match = try FetchableRecordDecoder().decode(Match.self, from: row)
    #expect(match.playedAt == Date(timeIntervalSince1970: 86_400))
    #expect(match.venue.name == "Wembley")
    #expect(match.venue.context == "match")
  }

  @Test("Decodes through Decodable, not through a custom init(row:)")
  func usesDecodable() throws {
    let row: Row = ["name": "Decodable"]
    #expect(try FetchableRecordDecoder().decode(Custom.self, from: row).name == "Decodable")
    #expect(try Custom(row: row).name == "init(row:)")
  }

  @Test("A missing column and a value that does not convert are errors")
  func errors() throws {
    #expect(throws: (any Error).self) {
      try FetchableRecordDecoder().decode(Player.self, from: ["id": 1])
    }
    #expect(throws: (any Error).self) {
      try FetchableRecordDecoder().decode(Player.self, from: ["id": "one", "name": "x", "score": nil])
    }
  }

  @Test("Decodes rows of an encrypted DatabasePool")
  func encryptedPool() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try dbPool.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
      try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', NULL)")
    }
    let decoder = FetchableRecordDecoder()
    let players = try dbPool.read { (db: Database) throws in
      try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map {
        try decoder.decode(Player.self, from: $0)
      }
    }
    #expect(
      players == [Player(id: 1, name: "Arthur", score: 100), Player(id: 2, name: "Barbara", score: nil)])
  }
}
