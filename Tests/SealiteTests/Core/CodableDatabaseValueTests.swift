import Foundation
import Sealite
import Testing

/// A keyed Codable value: stored as JSON.
private struct Point: Codable, Equatable, DatabaseValueConvertible {
  var x: Int
  var y: Int
  var label: String
}

/// A Codable value with a date and bytes, to see the default JSON strategies.
private struct Stamp: Codable, Equatable, DatabaseValueConvertible {
  var date: Date
  var bytes: Data
}

/// A value that encodes as one single value: stored as that value.
private struct Nickname: Codable, Equatable, DatabaseValueConvertible {
  var text: String
  init(_ text: String) { self.text = text }
  init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }
}

/// A single value that is itself convertible keeps its own conversion (a
/// date is stored as date text, not as Codable's number).
private struct Deadline: Codable, Equatable, DatabaseValueConvertible {
  var date: Date
  init(_ date: Date) { self.date = date }
  init(from decoder: any Decoder) throws { date = try decoder.singleValueContainer().decode(Date.self) }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(date)
  }
}

/// A Codable enum with a raw value: stored as its raw value.
private enum Mood: String, Codable, DatabaseValueConvertible {
  case happy, grumpy
}

/// A value whose JSON coders are customized: snake case keys, ISO 8601 dates.
private struct Profile: Codable, Equatable, DatabaseValueConvertible {
  var firstName: String
  var birthDate: Date

  static func databaseJSONEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = .sortedKeys
    return encoder
  }

  static func databaseJSONDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

/// A record with a Codable convertible property.
private struct Shape: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var origin: Point
}

/// Stores `value` in an encrypted database file, returns what was stored
/// and the value read back, both through `fetchOne` and from a copied row.
private func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> (
  stored: DatabaseValue, fetched: T?, decoded: T?
) {
  let directory = TemporaryDirectory()
  let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
  return try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (v)")
    try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value])
    let row = try #require(try Row.fetchOne(db, sql: "SELECT v FROM t"))
    return (row["v"], try T.fetchOne(db, sql: "SELECT v FROM t"), T.fromDatabaseValue(row["v"]))
  }
}

@Suite("Codable convertible values: single values as themselves, others as JSON from databaseJSONEncoder()")
struct CodableDatabaseValueTests {
  @Test("a keyed value is stored as JSON text with sorted keys, and reads back")
  func keyedValueIsJSON() throws {
    let point = Point(x: 1, y: 2, label: "A")
    let result = try roundTrip(point)
    #expect(result.stored == #"{"label":"A","x":1,"y":2}"#.databaseValue)
    #expect(result.fetched == point)
    #expect(result.decoded == point)
  }

  @Test("the default JSON coders write dates as milliseconds since 1970 and data as base64")
  func defaultStrategies() throws {
    let stamp = Stamp(date: Date(timeIntervalSince1970: 1.5), bytes: Data([0x00, 0x01]))
    let result = try roundTrip(stamp)
    #expect(result.stored == #"{"bytes":"AAE=","date":1500}"#.databaseValue)
    #expect(result.fetched == stamp)
    let encoder = Stamp.databaseJSONEncoder()
    #expect(encoder.outputFormatting == .sortedKeys)
    let decoder = Stamp.databaseJSONDecoder()
    #expect(throws: (any Error).self) {
      try decoder.decode(Double.self, from: Data(#""NaN""#.utf8))
    }
  }

  @Test("a value that encodes as one single value is stored as that value")
  func singleValue() throws {
    let result = try roundTrip(Nickname("Bob"))
    #expect(result.stored == "Bob")
    #expect(result.fetched == Nickname("Bob"))

    let date = Date(timeIntervalSince1970: 86_400)
    let deadline = try roundTrip(Deadline(date))
    #expect(deadline.stored == "1970-01-02 00:00:00.000")
    #expect(deadline.fetched == Deadline(date))
  }

  @Test("a Codable enum with a raw value is stored as its raw value")
  func rawRepresentable() throws {
    let result = try roundTrip(Mood.grumpy)
    #expect(result.stored == "grumpy")
    #expect(result.fetched == .grumpy)
  }

  @Test("a type's own databaseJSONEncoder() and databaseJSONDecoder() write and read its JSON")
  func customCoders() throws {
    let profile = Profile(firstName: "Ada", birthDate: Date(timeIntervalSince1970: 0))
    let result = try roundTrip(profile)
    #expect(result.stored == #"{"birth_date":"1970-01-01T00:00:00Z","first_name":"Ada"}"#.databaseValue)
    #expect(result.fetched == profile)
    #expect(result.decoded == profile)
  }

  @Test("JSON that does not decode, or a value of the wrong kind, reads as nil")
  func invalidJSON() {
    #expect(Point.fromDatabaseValue(#"{"x":1}"#.databaseValue) == nil)
    #expect(Point.fromDatabaseValue("not json".databaseValue) == nil)
    #expect(Point.fromDatabaseValue(.null) == nil)
    #expect(Nickname.fromDatabaseValue(1.databaseValue) == nil)
    #expect(
      Point.fromDatabaseValue(Data(#"{"label":"B","x":3,"y":4}"#.utf8).databaseValue)
        == Point(x: 3, y: 4, label: "B"))
  }

  @Test("a record stores a Codable convertible property with the property's own conversion")
  func inRecord() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE shape (id INTEGER PRIMARY KEY, origin TEXT)")
      try Shape(id: 1, origin: Point(x: 5, y: 6, label: "O")).insert(db)
      #expect(try String.fetchOne(db, sql: "SELECT origin FROM shape") == #"{"label":"O","x":5,"y":6}"#)
      #expect(try Shape.fetchOne(db, sql: "SELECT * FROM shape")?.origin == Point(x: 5, y: 6, label: "O"))
    }
  }
}
