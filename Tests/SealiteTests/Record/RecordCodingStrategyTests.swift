import Foundation
import Sealite
import Testing

private let contextKey = CodingUserInfoKey(rawValue: "context")!

/// A nested value that writes and reads its keys in an order that depends on
/// the user info: it only round-trips when the user info reaches it.
private struct Name: Codable, Equatable {
  var first: String
  var last: String
  enum CodingKeys: String, CodingKey { case first, last }

  init(first: String, last: String) {
    self.first = first
    self.last = last
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    let swapped = encoder.userInfo[contextKey] as? String != "record"
    try container.encode(swapped ? last : first, forKey: .first)
    try container.encode(swapped ? first : last, forKey: .last)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let swapped = decoder.userInfo[contextKey] as? String != "record"
    first = try container.decode(String.self, forKey: swapped ? .last : .first)
    last = try container.decode(String.self, forKey: swapped ? .first : .last)
  }
}

/// A value encoded through a single value container, that reports the coding
/// path and the user info it was given.
private struct Tag: Codable, Equatable {
  var text: String
  var seen = ""

  init(text: String) { self.text = text }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    let key = encoder.codingPath.last?.stringValue ?? "nil"
    let context = encoder.userInfo[contextKey] as? String ?? "nil"
    try container.encode("\(text)|\(key)|\(context)")
  }

  init(from decoder: any Decoder) throws {
    text = try decoder.singleValueContainer().decode(String.self)
    let key = decoder.codingPath.last?.stringValue ?? "nil"
    let context = decoder.userInfo[contextKey] as? String ?? "nil"
    seen = "\(key)|\(context)"
  }
}

private struct Person: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "person"
  static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [contextKey: "record"] }
  static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [contextKey: "record"] }
  var id: Int64
  var name: Name
  var tag: Tag
}

@Suite("Record coding strategies and user info")
struct RecordCodingStrategyTests {
  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, tag TEXT)")
    }
    return dbQueue
  }

  @Test("databaseEncodingUserInfo and databaseDecodingUserInfo reach the JSON coders of nested values")
  func userInfoReachesJSON() throws {
    try makeDatabase().write { (db: Database) throws in
      let person = Person(id: 1, name: Name(first: "Bob", last: "Dylan"), tag: Tag(text: "singer"))
      try person.insert(db)
      let json = try String.fetchOne(db, sql: "SELECT name FROM person")
      #expect(json == #"{"first":"Bob","last":"Dylan"}"#)
      let fetched = try Person.fetchOne(db, key: 1)
      #expect(fetched?.name == Name(first: "Bob", last: "Dylan"))
    }
  }

  @Test("A property encoded through a single value container sees its key and the record's user info")
  func singleValueProperty() throws {
    try makeDatabase().write { (db: Database) throws in
      try Person(id: 1, name: Name(first: "a", last: "b"), tag: Tag(text: "x")).insert(db)
      #expect(try String.fetchOne(db, sql: "SELECT tag FROM person") == "x|tag|record")
      let fetched = try Person.fetchOne(db, key: 1)
      #expect(fetched?.tag.text == "x|tag|record")
      #expect(fetched?.tag.seen == "tag|record")
    }
  }

  @Test("A custom databaseJSONEncoder(for:) and databaseJSONDecoder(for:) are asked with the coding key")
  func jsonCodersByKey() throws {
    struct Snake: Codable, FetchableRecord, PersistableRecord {
      static let databaseTableName = "snake"
      static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
      static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
      static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo = [contextKey: column == "fullName" ? "record" : column]
        return encoder
      }
      static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo = [contextKey: column == "fullName" ? "record" : column]
        return decoder
      }
      var id: Int64
      var fullName: Name
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE snake (id INTEGER PRIMARY KEY, full_name TEXT)")
      try Snake(id: 1, fullName: Name(first: "Ada", last: "Lovelace")).insert(db)
      #expect(
        try String.fetchOne(db, sql: "SELECT full_name FROM snake") == #"{"first":"Ada","last":"Lovelace"}"#)
      #expect(try Snake.fetchOne(db, key: 1)?.fullName == Name(first: "Ada", last: "Lovelace"))
    }
  }

  @Test("A record encoded through a single value container writes the columns of the value it wraps")
  func wholeRecordSingleValueEncoding() throws {
    struct Inner: Encodable {
      var value: String
    }
    struct Columns: Encodable, EncodableRecord {
      var ignored: String
      func encode(to container: inout PersistenceContainer) throws {
        container["column1"] = "test"
        container["column2"] = 12
      }
    }
    struct Wrapper<Model: Encodable>: Encodable, PersistableRecord {
      static var databaseTableName: String { "wrapper" }
      var model: Model
      var otherValue: String
      enum CodingKeys: String, CodingKey { case otherValue }
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(model)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(otherValue, forKey: .otherValue)
      }
    }
    let wrapped = Wrapper(model: Inner(value: "foo"), otherValue: "bar")
    #expect(
      try wrapped.databaseDictionary == ["value": "foo".databaseValue, "otherValue": "bar".databaseValue])
    let record = Wrapper(model: Columns(ignored: "x"), otherValue: "bar")
    #expect(
      try record.databaseDictionary == [
        "column1": "test".databaseValue, "column2": 12.databaseValue, "otherValue": "bar".databaseValue,
      ])
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE wrapper (value TEXT, otherValue TEXT)")
      try wrapped.insert(db)
      #expect(
        try Row.fetchOne(db, sql: "SELECT value, otherValue FROM wrapper") == [
          "value": "foo", "otherValue": "bar",
        ])
    }
  }

  @Test(
    "decoder.singleValueContainer() on a whole row decodes another record from the same row (GRDB issue 1572)"
  )
  func wholeRowSingleValueDecoding() throws {
    struct Inner: Decodable {
      var value: String
    }
    struct Fetched: Decodable, FetchableRecord {
      var value: String
      init(row: Row) throws { value = row["actualValue"] }
    }
    struct Wrapper<Model: Decodable>: Decodable, FetchableRecord {
      var model: Model
      var otherValue: String
      enum CodingKeys: String, CodingKey { case otherValue }
      init(from decoder: any Decoder) throws {
        otherValue = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .otherValue)
        model = try decoder.singleValueContainer().decode(Model.self)
      }
    }
    let row: Row = ["value": "foo", "otherValue": "bar", "actualValue": "test"]
    let plain = try Wrapper<Inner>(row: row)
    #expect(plain.model.value == "foo")
    #expect(plain.otherValue == "bar")
    // FetchableRecord wins over Decodable.
    #expect(try Wrapper<Fetched>(row: row).model.value == "test")
  }

  @Test("Date, data and UUID strategies are chosen per column, for encoding and decoding")
  func perColumnStrategies() throws {
    struct Stamped: Codable, FetchableRecord, PersistableRecord {
      static let databaseTableName = "stamped"
      static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        column == "unixDate" ? .secondsSince1970 : .deferredToDate
      }
      static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        column == "unixDate" ? .timeIntervalSince1970 : .deferredToDate
      }
      static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        column == "textData" ? .text : .deferredToData
      }
      static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        column == "textData"
          ? .custom { String.fromDatabaseValue($0).map { Data(("decoded " + $0).utf8) } } : .deferredToData
      }
      static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        column == "textUUID" ? .lowercaseString : .deferredToUUID
      }
      var unixDate: Date
      var textDate: Date
      var textData: Data
      var blobData: Data
      var textUUID: UUID
      var blobUUID: UUID
    }
    let date = Date(timeIntervalSince1970: 1_000_000)
    let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(
        sql: "CREATE TABLE stamped (unixDate, textDate, textData, blobData, textUUID, blobUUID)")
      try Stamped(
        unixDate: date, textDate: date, textData: Data("abc".utf8), blobData: Data("abc".utf8),
        textUUID: uuid, blobUUID: uuid
      ).insert(db)
      let types = try Row.fetchOne(
        db,
        sql: """
          SELECT typeof(unixDate), typeof(textDate), typeof(textData), typeof(blobData),
                 textUUID, typeof(blobUUID) FROM stamped
          """)
      #expect(
        types?.databaseValues
          == ["integer", "text", "text", "blob", uuid.uuidString.lowercased(), "blob"].map {
            $0.databaseValue
          })
      let fetched = try #require(try Stamped.fetchOne(db))
      #expect(fetched.unixDate == date)
      #expect(fetched.textDate == date)
      #expect(fetched.textData == Data("decoded abc".utf8))
      #expect(fetched.blobData == Data("abc".utf8))
    }
  }

  @Test("A column decoding strategy .custom maps a column name to a CodingKey")
  func customColumnDecodingStrategy() throws {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    struct Player: Decodable, FetchableRecord {
      static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
        Key(stringValue: String(column.dropFirst(2)))
      }
      var name: String
      var score: Int
    }
    let row: Row = ["p_name": "Arthur", "p_score": 100]
    let player = try Player(row: row)
    #expect(player.name == "Arthur")
    #expect(player.score == 100)
  }
}
