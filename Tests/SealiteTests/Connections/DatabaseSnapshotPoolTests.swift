import Foundation
import Sealite
import Testing

@Suite("DatabaseSnapshotPool")
struct DatabaseSnapshotPoolTests {
  @Test(
    "A snapshot pool needs SQLite's WAL snapshots: without them, every way to make one names the capability",
    arguments: [false, true])
  func needsWALSnapshots(encrypted: Bool) throws {
    let directory = TemporaryDirectory()
    let configuration = encrypted ? rawKeyConfiguration() : Configuration()
    let dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
    let makers: [() throws -> DatabaseSnapshotPool] = [
      { try dbPool.makeSnapshotPool() },
      { try DatabaseSnapshotPool(path: directory.path(), configuration: configuration) },
      { try dbPool.read { db in try DatabaseSnapshotPool(db) } },
    ]
    for make in makers {
      if SQLiteFeatures.linked.supports(.snapshots) {
        let snapshot = try make()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        try dbPool.write { db in try db.execute(sql: "DELETE FROM t WHERE a = 2") }
      } else {
        let error = #expect(throws: SQLiteFeatureError.self) { try make() }
        #expect(error?.capability == .snapshots)
        #expect(error?.description.contains("SQLITE_ENABLE_SNAPSHOT") == true)
      }
    }
    // The files are as the pool left them: no snapshot connection remains.
    #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
  }
}
