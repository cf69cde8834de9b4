import Sealite
import Testing

@Suite("Cursor.dropFirst() skips one element")
struct CursorDropFirstTests {
  @Test("dropFirst() skips the first element; a cursor of one element or none becomes empty")
  func dropFirst() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.read { db in
      let three = "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 ORDER BY 1"
      let allButFirst = try Array(Int.fetchCursor(db, sql: three).dropFirst())
      #expect(allButFirst == [2, 3])
      let fromOne = try Array(Int.fetchCursor(db, sql: "SELECT 1").dropFirst())
      #expect(fromOne.isEmpty)
      let fromNone = try Array(Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").dropFirst())
      #expect(fromNone.isEmpty)
      let fromArray = try Array(AnyCursor([1, 2]).dropFirst())
      #expect(fromArray == [2])
    }
  }
}
