import Foundation
import Sealite
import Testing

// Serialized: the control test opens an SQLite temporary file on purpose, and
// the encrypted test must not see it.
@Suite("Temporary data of encrypted databases stays in memory", .serialized)
struct TempStoreTests {
  /// SQLite's temporary files (sorter spills, temp tables) that this process
  /// has open. SQLite unlinks them at once, so only /proc/self/fd shows them.
  static func openTemporaryFiles() -> Set<String> {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    var result: Set<String> = []
    for entry in entries {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
      else { continue }
      if target.contains("etilqs_") { result.insert("\(entry) -> \(target)") }
    }
    return result
  }

  /// Fills a table with enough data that sorting it spills out of the page cache.
  static func fill(_ writer: some DatabaseWriter) throws {
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE big(id INTEGER PRIMARY KEY, payload TEXT)")
      try db.execute(
        sql: """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
          INSERT INTO big(payload) SELECT 'TEMPCANARY-' || hex(randomblob(60)) FROM n
          """)
    }
  }

  /// While a sort of the whole table is half read, the temporary files opened
  /// since the sort began.
  static func temporaryFilesDuringSort(_ writer: some DatabaseWriter, temporaryTable: Bool) throws -> Set<
    String
  > {
    try writer.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA cache_size = 10")
      let before = openTemporaryFiles()
      var during: Set<String> = []
      if temporaryTable {
        try db.execute(sql: "CREATE TEMP TABLE scratch AS SELECT payload FROM big")
        during.formUnion(openTemporaryFiles())
      }
      let cursor = try String.fetchCursor(db, sql: "SELECT payload FROM big ORDER BY substr(payload, 20)")
      var count = 0
      if try cursor.next() != nil { count += 1 }
      during.formUnion(openTemporaryFiles())
      while try cursor.next() != nil { count += 1 }
      #expect(count == 40000)
      if temporaryTable { try db.execute(sql: "DROP TABLE temp.scratch") }
      return during.subtracting(before)
    }
  }

  @Test("encrypted connections of a queue and a pool use temp_store = MEMORY")
  func tempStoreIsMemory() throws {
    let directory = TemporaryDirectory()
    let queue = try DatabaseQueue(path: directory.path("queue.sqlite"), configuration: rawKeyConfiguration())
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
    var poolConfig = passphraseConfiguration()
    poolConfig.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = FILE") }
    let pool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: poolConfig)
    // The writer and a reader, even when a preparation asked for files.
    #expect(try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
    #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
  }

  @Test("a large sort and a temp table of an encrypted database open no temporary file")
  func encryptedSortLeavesNoTemporaryFile() throws {
    let directory = TemporaryDirectory()
    let queue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try Self.fill(queue)
    let files = try Self.temporaryFilesDuringSort(queue, temporaryTable: true)
    #expect(files.isEmpty, "temporary files: \(files)")
    #expect(directory.fileNames() == ["db.sqlite"])
  }

  @Test("control: an unencrypted connection with temp_store = FILE does open a temporary file for that sort")
  func unencryptedSortUsesTemporaryFile() throws {
    let directory = TemporaryDirectory()
    var config = Configuration()
    config.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = FILE") }
    let queue = try DatabaseQueue(path: directory.path(), configuration: config)
    try Self.fill(queue)
    let files = try Self.temporaryFilesDuringSort(queue, temporaryTable: false)
    #expect(!files.isEmpty, "the test can see SQLite's temporary files")
  }
}
