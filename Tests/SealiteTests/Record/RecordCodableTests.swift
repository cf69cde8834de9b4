import Foundation
import Sealite
import Testing

// MARK: - Record types of this file

/// A value that is Codable but not DatabaseValueConvertible: a raw string.
private enum Color: String, Codable {
  case red, green
}

/// Nested Codable values, stored as JSON text.
private struct Address: Codable, Equatable {
  var street: String
  var city: String
}

private struct Profile: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: Int64?
  var tags: [String]
  var scores: [String: Int]
  var address: Address
  var favorite: Color
  var nickname: String?
  var backup: Address?

  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Coding keys name the columns.
private struct Renamed: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  static let databaseTableName = "renamed"
  var id: Int64
  var fullName: String
  enum CodingKeys: String, CodingKey {
    case id
    case fullName = "full_name"
  }
}

/// Snake case columns through the record's strategies.
private struct SnakePlayer: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  static let databaseTableName = "snake_player"
  static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
  static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
  var id: Int64
  var firstName: String
  var highScore: Int
}

/// Dates and UUIDs with the default strategies.
private struct Event: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: UUID
  var date: Date
}

/// Dates and UUIDs with explicit strategies.
private struct StampedEvent: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  static let databaseTableName = "event"
  static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
    .timeIntervalSince1970
  }
  static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    .timeIntervalSince1970
  }
  static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
    .uppercaseString
  }
  var id: UUID
  var date: Date
}

private struct Strict: Decodable, FetchableRecord, TableRecord {
  static let databaseTableName = "strict"
  var id: Int64
  var count: Int
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE profile (
          id INTEGER PRIMARY KEY, tags TEXT, scores TEXT, address TEXT, favorite TEXT,
          nickname TEXT, backup TEXT);
        CREATE TABLE renamed (id INTEGER PRIMARY KEY, full_name TEXT);
        CREATE TABLE snake_player (id INTEGER PRIMARY KEY, first_name TEXT, high_score INTEGER);
        CREATE TABLE event (id BLOB PRIMARY KEY, date);
        CREATE TABLE strict (id INTEGER PRIMARY KEY, count);
        """)
  }
  return dbQueue
}

private func sampleProfile() -> Profile {
  Profile(
    id: nil, tags: ["a", "b \"quoted\""], scores: ["x": 1, "y": 2],
    address: Address(street: "1 Main St", city: "Paris"), favorite: .green, nickname: "Art",
    backup: nil)
}

@Suite("Record Codable mapping")
struct RecordCodableTests {
  @Test("Nested arrays, dictionaries and structs are stored as JSON text and read back")
  func nestedJSON() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var profile = sampleProfile()
      try profile.insert(db)
      let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM profile"))
      let tagsText: String = try #require(row["tags"])
      #expect(try JSONDecoder().decode([String].self, from: Data(tagsText.utf8)) == profile.tags)
      let addressText: String = try #require(row["address"])
      #expect(try JSONDecoder().decode(Address.self, from: Data(addressText.utf8)) == profile.address)
      let scoresText: String = try #require(row["scores"])
      #expect(try JSONDecoder().decode([String: Int].self, from: Data(scoresText.utf8)) == profile.scores)
      #expect(try Profile.fetchOne(db, key: profile.id!) == profile)
    }
  }

  @Test("JSON columns work without JSON1: nothing but Foundation reads and writes them")
  func jsonWithoutJSON1() throws {
    // On the legacy leg SQLite has no JSON functions; the mapping must not need them.
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var profile = sampleProfile()
      try profile.insert(db)
      profile.tags.append("c")
      try profile.update(db)
      #expect(try Profile.fetchOne(db, key: profile.id!)?.tags == ["a", "b \"quoted\"", "c"])
    }
  }

  @Test("A String-backed enum that is Codable but not DatabaseValueConvertible is stored as its raw string")
  func rawEnum() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var profile = sampleProfile()
      try profile.insert(db)
      #expect(try String.fetchOne(db, sql: "SELECT favorite FROM profile") == "green")
      #expect(try Profile.filter(Column("favorite") == "green").fetchCount(db) == 1)
    }
  }

  @Test("nil optionals write NULL, so that an update clears the column")
  func optionalsWriteNull() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var profile = sampleProfile()
      profile.backup = Address(street: "2 Side St", city: "Lyon")
      try profile.insert(db)
      #expect(try Profile.fetchOne(db, key: profile.id!)?.backup?.city == "Lyon")
      profile.nickname = nil
      profile.backup = nil
      try profile.update(db)
      let row = try #require(try Row.fetchOne(db, sql: "SELECT nickname, backup FROM profile"))
      #expect(row["nickname"] == nil)
      #expect(row["backup"] == nil)
      #expect(try Profile.fetchOne(db, key: profile.id!) == profile)
      #expect(try profile.databaseDictionary["nickname"] == .null)
    }
  }

  @Test("Coding keys name the columns")
  func codingKeys() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      try Renamed(id: 1, fullName: "Arthur Dent").inserted(db)
      #expect(try String.fetchOne(db, sql: "SELECT full_name FROM renamed") == "Arthur Dent")
      #expect(try Renamed.fetchOne(db, key: 1) == Renamed(id: 1, fullName: "Arthur Dent"))
    }
  }

  @Test("Snake case column strategies map camelCase properties to snake_case columns both ways")
  func snakeCase() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let player = SnakePlayer(id: 1, firstName: "Arthur", highScore: 42)
      try player.inserted(db)
      let row = try #require(try Row.fetchOne(db, sql: "SELECT first_name, high_score FROM snake_player"))
      #expect(row["first_name"] == "Arthur")
      #expect(row["high_score"] == 42)
      #expect(try SnakePlayer.fetchOne(db, key: 1) == player)
      #expect(try SnakePlayer.fetchAll(db, sql: "SELECT * FROM snake_player") == [player])
    }
  }

  @Test("Dates and UUIDs use the default strategies: date text and 16-byte blobs")
  func defaultDateAndUUID() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let id = UUID()
      // Whole milliseconds: the default text format keeps milliseconds.
      let date = Date(timeIntervalSince1970: 1_700_000_000.123)
      try Event(id: id, date: date).inserted(db)
      let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(id), length(id), date FROM event"))
      #expect(row[0] == "blob")
      #expect(row[1] == 16)
      #expect(row[2] == "2023-11-14 22:13:20.123")
      let fetched = try #require(try Event.fetchOne(db, key: ["id": id]))
      #expect(fetched.id == id)
      #expect(abs(fetched.date.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.001)
    }
  }

  @Test("Custom date and UUID strategies change what is stored, and read it back")
  func customDateAndUUID() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let id = UUID()
      let date = Date(timeIntervalSince1970: 1_000_000)
      try StampedEvent(id: id, date: date).inserted(db)
      let row = try #require(try Row.fetchOne(db, sql: "SELECT id, date FROM event"))
      #expect(row["id"] == id.uuidString.uppercased())
      #expect(row["date"] == 1_000_000.0)
      #expect(try StampedEvent.fetchOne(db, sql: "SELECT * FROM event") == StampedEvent(id: id, date: date))
    }
  }

  @Test("A decoding error names the column, the row and the expected type")
  func decodingError() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      // A text reads as an Int with SQLite's conversion (GRDB's fast path):
      // NULL is what an Int can not decode.
      try db.execute(sql: "INSERT INTO strict (id, count) VALUES (1, NULL)")
      do {
        _ = try Strict.fetchAll(db)
        Issue.record("decoding should fail")
      } catch {
        let text = "\(error)"
        #expect(text.contains("count"), "no column in: \(text)")
        #expect(text.contains("Int"), "no type in: \(text)")
        #expect(text.contains("[id:1 count:NULL]"), "no row in: \(text)")
      }
    }
  }

  @Test("A missing non-optional column is a decoding error that names the column")
  func missingColumnError() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "INSERT INTO strict (id, count) VALUES (1, 2)")
      do {
        _ = try Strict.fetchOne(db, sql: "SELECT id FROM strict")
        Issue.record("decoding should fail")
      } catch {
        #expect("\(error)".contains("count"))
      }
    }
  }

  @Test("Invalid JSON in a nested column is a decoding error that names the column")
  func invalidJSONError() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      try db.execute(
        sql: """
          INSERT INTO profile (tags, scores, address, favorite)
          VALUES ('[]', '{}', 'not json', 'red')
          """)
      do {
        _ = try Profile.fetchAll(db)
        Issue.record("decoding should fail")
      } catch {
        #expect("\(error)".contains("address"))
      }
    }
  }

  @Test("A Codable value that is not a record is persisted through a record, as one JSON column")
  func codableValueThroughRecord() throws {
    // Address is Codable only: it has no fetch or persist methods of its own;
    // the record protocols give them to Profile, which stores it.
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      var profile = sampleProfile()
      try profile.insert(db)
      let addresses = try Profile.select(Column("address"), as: String.self).fetchAll(db)
      #expect(addresses.count == 1)
      #expect(addresses.first?.contains("Paris") == true)
    }
  }
}
