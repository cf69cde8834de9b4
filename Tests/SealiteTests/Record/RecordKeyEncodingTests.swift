import Foundation
import Sealite
import Testing

// A record whose primary key is a UUID, a Date or Data stored with a strategy
// of its own is found, checked and deleted by the key as it stored it: every
// key API writes the key with the strategy of the primary key column, as GRDB
// does. Before, the key was written with the default strategy, and the saved
// row was not found.

private struct Device: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  static let databaseTableName = "device"
  static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
    column == "id" ? .uppercaseString : .deferredToUUID
  }
  var id: UUID
  var name: String
}

private struct Event: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  static let databaseTableName = "event"
  static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
    .timeIntervalSince1970
  }
  var id: Date
  var name: String
}

private struct Blob: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  static let databaseTableName = "blob"
  static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
  var id: Data
  var name: String
}

@Suite("Keys of records written with their encoding strategies")
struct RecordKeyEncodingTests {
  private let first = UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")!
  private let second = UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!

  private func withDevices(_ body: (Database) throws -> Void) throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE device (id TEXT PRIMARY KEY, name TEXT);
          CREATE TABLE event (id DOUBLE PRIMARY KEY, name TEXT);
          CREATE TABLE blob (id TEXT PRIMARY KEY, name TEXT);
          """)
      try Device(id: first, name: "a").insert(db)
      try Device(id: second, name: "b").insert(db)
      try body(db)
    }
  }

  @Test("a UUID key stored as uppercase text is found by every key API")
  func uuidKeys() throws {
    try withDevices { (db: Database) throws in
      #expect(
        try String.fetchAll(db, sql: "SELECT id FROM device ORDER BY name") == [
          first.uuidString, second.uuidString,
        ])
      #expect(try Device.fetchOne(db, id: first)?.name == "a")
      #expect(try Device.fetchOne(db, key: first)?.name == "a")
      #expect(try Device.find(db, id: second).name == "b")
      #expect(try Device.exists(db, id: first))
      #expect(try Device.filter(id: first).fetchOne(db)?.name == "a")
      #expect(try Device.all().filter(id: second).fetchOne(db)?.name == "b")
      #expect(try Device.filter(ids: [first, second]).fetchCount(db) == 2)
      #expect(try Device.fetchAll(db, ids: [second]).map(\.name) == ["b"])
      #expect(try Table<Device>("device").filter(id: first).fetchCount(db) == 1)
      #expect(try Table<Device>("device").fetchOne(db, key: second)?.name == "b")
      #expect(try Device.deleteOne(db, id: first))
      #expect(try Device.fetchCount(db) == 1)
      #expect(try Table<Device>("device").deleteAll(db, ids: [second]) == 1)
      #expect(try Device.fetchCount(db) == 0)
    }
  }

  @Test("the SQL of a key written with a strategy holds the value as stored")
  func keySQL() throws {
    try withDevices { (db: Database) throws in
      let statement = try Device.filter(id: first).makePreparedRequest(db, forSingleResult: false).statement
      #expect(statement.arguments == [first.uuidString])
      #expect(try Device.filter(key: UUID?.none).fetchCount(db) == 0)
    }
  }

  @Test("Date and Data keys are written with their strategies too")
  func dateAndDataKeys() throws {
    try withDevices { (db: Database) throws in
      let date = Date(timeIntervalSince1970: 1_000_000)
      try Event(id: date, name: "e").insert(db)
      #expect(try Double.fetchOne(db, sql: "SELECT id FROM event") == 1_000_000)
      #expect(try Event.fetchOne(db, id: date)?.name == "e")
      #expect(try Event.filter(ids: [date]).fetchCount(db) == 1)
      let data = Data("key".utf8)
      try Blob(id: data, name: "d").insert(db)
      #expect(try String.fetchOne(db, sql: "SELECT id FROM blob") == "key")
      #expect(try Blob.exists(db, id: data))
      #expect(try Blob.deleteOne(db, id: data))
      #expect(try Blob.fetchCount(db) == 0)
    }
  }

  @Test("a NULL key reaches no statement")
  func nullKeyReachesNoStatement() throws {
    try withDevices { (db: Database) throws in
      var results: [Bool] = []
      let sql = try capturedSQL(db) {
        results.append(try Table<Device>("device").deleteOne(db, key: UUID?.none))
        results.append(try Table<Device>("device").exists(db, key: UUID?.none))
        results.append(try Device.deleteOne(db, key: UUID?.none))
      }
      #expect(results == [false, false, false])
      #expect(sql.isEmpty, "\(sql)")
    }
  }
}
