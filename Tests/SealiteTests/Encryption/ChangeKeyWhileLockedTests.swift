import Foundation
import Sealite
import Testing

@Suite("Changing the key of a locked database")
struct ChangeKeyWhileLockedTests {
  @Test("changeKey throws SQLITE_BUSY while another connection holds the write lock, and the key stays")
  func lockedDatabase() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
    let before = fileBytes(path)
    var config = rawKeyConfiguration()
    config.allowsUnsafeTransactions = true
    let holder = try DatabaseQueue(path: path, configuration: config)
    try holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION") }
    let error = #expect(throws: DatabaseError.self) {
      try dbQueue.changeKey(to: .randomRaw())
    }
    #expect(error?.resultCode == .SQLITE_BUSY)
    try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    try holder.close()
    #expect(fileBytes(path) == before)
    // The connection still reads and writes with the old key.
    try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
    try dbQueue.close()
    let reopened = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
  }
}
