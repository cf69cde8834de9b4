import Foundation
import Sealite
import Testing

private struct Player: Codable, FetchableRecord, TableRecord {
  var name: String
  static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
}

@Suite(".rowID wherever a column is expected")
struct RowIDShorthandTests {
  @Test(".rowID selects, filters and orders by the hidden rowid")
  func rowIDShorthand() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE player(name TEXT); INSERT INTO player VALUES ('Arthur'), ('Barbara')")
      #expect(try Int64.fetchAll(db, Player.select(.rowID).order(Column.rowID.desc)) == [2, 1])
      #expect(try Player.filter(Column.rowID == 2).fetchOne(db)?.name == "Barbara")
      let row = try #require(try Row.fetchOne(db, Player.all().asRequest(of: Row.self).order(Column.rowID)))
      #expect(row["rowid"] as Int64 == 1)
      let rowID: Int64 = row[.rowID]
      #expect(rowID == 1)
      #expect(row["name"] as String == "Arthur")
      let column: Column = .rowID
      #expect(column.name == "rowid")
    }
  }
}
