import Foundation
import Sealite
import Testing

@Suite("Date(julianDay:) and row positions, as GRDB has them")
struct JulianDayAndRowIndexTests {
  @Test("Date(julianDay:) is the date SQLite's julianday() was given, to the millisecond")
  func julianDay() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.read { db in
      // Dates after 1970: SQLite 3.15's strftime rounds negative Unix times differently.
      for text in ["1970-01-01 00:00:00.000", "2024-02-28 13:45:10.250", "2099-12-31 23:59:59.999"] {
        let julianDay = try #require(try Double.fetchOne(db, sql: "SELECT julianday(?)", arguments: [text]))
        let date = try #require(Date(julianDay: julianDay))
        let back = try String.fetchOne(
          db, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')",
          arguments: [date.timeIntervalSince1970])
        #expect(back == text)
      }
    }
    #expect(Date(julianDay: 2_440_587.5) == Date(timeIntervalSince1970: 0))
    #expect(Date(julianDay: 2_305_813.5) == Date(timeIntervalSince1970: -11_644_473_600))  // 1601-01-01
    #expect(Date(julianDay: .nan) == nil)
    #expect(Date(julianDay: .infinity) == nil)
    #expect(Date(julianDay: 1e300) == nil)
  }

  @Test("Row positions stride: advanced(by:) and distance(to:) count columns")
  func rowIndex() throws {
    let row: Row = ["a": 1, "b": 2, "c": 3]
    let second = row.startIndex.advanced(by: 1)
    #expect(row[second].0 == "b")
    #expect(row.startIndex.distance(to: row.endIndex) == 3)
    #expect(row.endIndex.advanced(by: -1) == row.index(before: row.endIndex))
    #expect(row[row.index(row.startIndex, offsetBy: 2)].0 == "c")
  }
}
