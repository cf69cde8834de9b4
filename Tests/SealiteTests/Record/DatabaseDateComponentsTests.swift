import Foundation
import Sealite
import Testing

/// 1973-09-18 10:11:12.123456789, every component set.
private let full = DateComponents(
  year: 1973, month: 9, day: 18, hour: 10, minute: 11, second: 12, nanosecond: 123_456_789)

private func parsed(_ text: String) -> DatabaseDateComponents? {
  DatabaseDateComponents.fromDatabaseValue(text.databaseValue)
}

private struct Event: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "event"
  var id: Int64
  var day: DatabaseDateComponents
  var time: DatabaseDateComponents?
}

@Suite("DatabaseDateComponents")
struct DatabaseDateComponentsTests {
  @Test(
    "Each format writes its text and reads back the components it holds",
    arguments: [
      (DatabaseDateComponents.Format.YMD, "1973-09-18"),
      (.YMD_HM, "1973-09-18 10:11"),
      (.YMD_HMS, "1973-09-18 10:11:12"),
      (.YMD_HMSS, "1973-09-18 10:11:12.123"),
      (.HM, "10:11"),
      (.HMS, "10:11:12"),
      (.HMSS, "10:11:12.123"),
    ])
  func formats(format: DatabaseDateComponents.Format, text: String) throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE t (value)")
      try db.execute(
        sql: "INSERT INTO t VALUES (?)", arguments: [DatabaseDateComponents(full, format: format)])
      #expect(try String.fetchOne(db, sql: "SELECT value FROM t") == text)
      // The fast path of a fetched value, and a copied row's stored value.
      let fast = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT value FROM t"))
      let row = try #require(try Row.fetchOne(db, sql: "SELECT value FROM t"))
      let copied = try #require(row["value"] as DatabaseDateComponents?)
      for value in [fast, copied] {
        #expect(value.format == format)
        let c = value.dateComponents
        let hasDay = text.contains("-")
        let hasTime = text.contains(":")
        #expect(c.year == (hasDay ? 1973 : nil))
        #expect(c.month == (hasDay ? 9 : nil))
        #expect(c.day == (hasDay ? 18 : nil))
        #expect(c.hour == (hasTime ? 10 : nil))
        #expect(c.minute == (hasTime ? 11 : nil))
        #expect(c.second == (text.filter { $0 == ":" }.count == 2 ? 12 : nil))
        #expect(c.nanosecond == (text.contains(".") ? 123_000_000 : nil))
        #expect(c.timeZone == nil)
      }
    }
  }

  @Test("The raw values are the DateFormatter patterns")
  func rawValues() {
    #expect(DatabaseDateComponents.Format.YMD.rawValue == "yyyy-MM-dd")
    #expect(DatabaseDateComponents.Format.YMD_HM.rawValue == "yyyy-MM-dd HH:mm")
    #expect(DatabaseDateComponents.Format.YMD_HMS.rawValue == "yyyy-MM-dd HH:mm:ss")
    #expect(DatabaseDateComponents.Format.YMD_HMSS.rawValue == "yyyy-MM-dd HH:mm:ss.SSS")
    #expect(DatabaseDateComponents.Format.HM.rawValue == "HH:mm")
    #expect(DatabaseDateComponents.Format.HMS.rawValue == "HH:mm:ss")
    #expect(DatabaseDateComponents.Format.HMSS.rawValue == "HH:mm:ss.SSS")
    #expect(DatabaseDateComponents.Format(rawValue: "HH:mm") == .HM)
  }

  @Test("Missing components are written as the start of their range; extra ones are not written")
  func missingComponents() {
    let empty = DatabaseDateComponents(DateComponents(), format: .YMD_HMSS)
    #expect(String.fromDatabaseValue(empty.databaseValue) == "0000-01-01 00:00:00.000")
    #expect(parsed("0000-01-01 00:00:00.000")?.dateComponents.nanosecond == 0)
    let day = DatabaseDateComponents(full, format: .YMD)
    #expect(day.dateComponents.hour == 10)
    #expect(String.fromDatabaseValue(day.databaseValue) == "1973-09-18")
    let padded = DatabaseDateComponents(DateComponents(year: 42, hour: 9, minute: 5), format: .YMD_HMS)
    #expect(String.fromDatabaseValue(padded.databaseValue) == "0042-01-01 09:05:00")
  }

  @Test("Nanoseconds round to the nearest millisecond")
  func millisecondRounding() {
    func text(_ nanosecond: Int) -> String? {
      let value = DatabaseDateComponents(DateComponents(nanosecond: nanosecond), format: .HMSS)
      return String.fromDatabaseValue(value.databaseValue)
    }
    #expect(text(1_499_999) == "00:00:00.001")
    #expect(text(1_500_000) == "00:00:00.002")
    #expect(text(999_600_000) == "00:00:00.1000")
  }

  @Test("A T may separate day and time")
  func isoSeparator() {
    #expect(parsed("1973-09-18T10:11")?.format == .YMD_HM)
    #expect(parsed("1973-09-18T10:11:12")?.format == .YMD_HMS)
    let value = parsed("1973-09-18T10:11:12.123")
    #expect(value?.format == .YMD_HMSS)
    #expect(value?.dateComponents.second == 12)
  }

  @Test("One to three fraction digits give the milliseconds; more are ignored")
  func fractions() {
    #expect(parsed("10:11:12.1")?.dateComponents.nanosecond == 100_000_000)
    #expect(parsed("10:11:12.12")?.dateComponents.nanosecond == 120_000_000)
    #expect(parsed("10:11:12.123")?.dateComponents.nanosecond == 123_000_000)
    #expect(parsed("10:11:12.123456")?.dateComponents.nanosecond == 123_000_000)
    #expect(parsed("10:11:12.1")?.format == .HMSS)
    #expect(parsed("10:11:12.") == nil)
    #expect(parsed("10:11:12.1x") == nil)
  }

  @Test("A Z or ±HH:MM after the time becomes the time zone")
  func timeZones() {
    #expect(parsed("10:11Z")?.dateComponents.timeZone?.secondsFromGMT() == 0)
    #expect(parsed("10:11Z")?.format == .HM)
    #expect(parsed("1973-09-18 10:11:12+02:30")?.dateComponents.timeZone?.secondsFromGMT() == 9000)
    #expect(parsed("1973-09-18 10:11:12+02:30")?.format == .YMD_HMS)
    #expect(parsed("10:11:12.5-01:00")?.dateComponents.timeZone?.secondsFromGMT() == -3600)
    #expect(parsed("10:11:12.123456Z")?.dateComponents.timeZone?.secondsFromGMT() == 0)
    #expect(parsed("1973-09-18Z") == nil)
    #expect(parsed("10:11Z ") == nil)
    #expect(parsed("10:11+0200") == nil)
  }

  @Test("Texts in no format, numbers and NULL are nil; blobs read as their text")
  func invalid() throws {
    for text in ["", "10:1", "1973-09", "1973-9-18", "1973-09-18 ", "1973-09-18X10:11", "10:11:1", "abcde"] {
      #expect(parsed(text) == nil, "\(text)")
    }
    #expect(DatabaseDateComponents.fromDatabaseValue(12345.databaseValue) == nil)
    #expect(DatabaseDateComponents.fromDatabaseValue(.null) == nil)
    #expect(DatabaseDateComponents.fromDatabaseValue(Data("10:11".utf8).databaseValue)?.format == .HM)
    // Ranges are not checked: the text is taken as stored.
    #expect(parsed("25:61")?.dateComponents.hour == 25)
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      // Fetched, a value that does not convert is an error, as for every type.
      #expect(throws: (any Error).self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 12345") }
      #expect(throws: (any Error).self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 'nope!'") }
      // A NULL row is there (`.some`), and holds no components (`nil`).
      let null = try DatabaseDateComponents?.fetchOne(db, sql: "SELECT NULL")
      #expect(null != nil && null! == nil)
    }
  }

  @Test("Codable as its text, in JSON and in a record")
  func codable() throws {
    let value = DatabaseDateComponents(full, format: .HMS)
    let json = try JSONEncoder().encode([value])
    #expect(String(decoding: json, as: UTF8.self) == #"["10:11:12"]"#)
    let decoded = try JSONDecoder().decode([DatabaseDateComponents].self, from: json)
    #expect(decoded.first?.format == .HMS)
    #expect(decoded.first?.dateComponents.second == 12)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([DatabaseDateComponents].self, from: Data(#"["soon"]"#.utf8))
    }

    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, day TEXT, time TEXT)")
      try Event(id: 1, day: DatabaseDateComponents(full, format: .YMD), time: nil).insert(db)
      #expect(try String.fetchOne(db, sql: "SELECT day FROM event") == "1973-09-18")
      let event = try #require(try Event.fetchOne(db, key: 1))
      #expect(event.day.format == .YMD)
      #expect(event.day.dateComponents.day == 18)
      #expect(event.time == nil)
    }
  }

  @Test("Round-trips through an encrypted DatabasePool")
  func encryptedPool() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try dbPool.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE t (value TEXT)")
      try db.execute(
        sql: "INSERT INTO t VALUES (?)", arguments: [DatabaseDateComponents(full, format: .YMD_HMSS)])
    }
    let value = try dbPool.read { (db: Database) throws in
      try DatabaseDateComponents.fetchOne(db, sql: "SELECT value FROM t")
    }
    #expect(value?.format == .YMD_HMSS)
    #expect(value?.dateComponents.nanosecond == 123_000_000)
  }
}
