import Foundation
import Sealite
import Testing

@Suite("Rekeying a pool the GRDB way")
struct PoolRekeyGRDBStyleTests {
  @Test(
    "db.changePassphrase in a barrier, then invalidateReadOnlyConnections: new readers use the new passphrase",
    arguments: [false, true])
  func barrierRekey(keyInPrepareDatabase: Bool) throws {
    let directory = TemporaryDirectory()
    var config = Configuration()
    if keyInPrepareDatabase {
      config.prepareDatabase { db in try db.usePassphrase("old secret") }
    } else {
      config.key = .passphrase("old secret")
    }
    let dbPool = try DatabasePool(path: directory.path(), configuration: config)
    try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (42)") }
    #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 42)

    try dbPool.barrierWriteWithoutTransaction { db in
      try db.changePassphrase("new secret")
      dbPool.invalidateReadOnlyConnections()
    }
    #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 42)
    try dbPool.close()

    var newConfig = Configuration()
    newConfig.key = .passphrase("new secret")
    let reopened = try DatabaseQueue(path: directory.path(), configuration: newConfig)
    #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 42)
    #expect(throws: DatabaseError.self) {
      _ = try DatabaseQueue(path: directory.path(), configuration: config)
    }
  }
}
