import Foundation
import Sealite
import Testing

@Suite("The file on disk is really encrypted")
struct EncryptedFileTests {
  static let canaries = [
    "CANARY-the-quick-brown-fox-4f1e", "CANARY-index-key-personal-data-9a2b", "CANARY-blob-payload-77c3",
  ]
  static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

  /// Writes the canaries in a table, an index and a blob.
  static func writeCanaries(_ writer: some DatabaseWriter) throws {
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE secrets(id INTEGER PRIMARY KEY, name TEXT, payload BLOB)")
      try db.execute(sql: "CREATE INDEX secrets_name ON secrets(name)")
      try db.execute(
        sql: "INSERT INTO secrets(name, payload) VALUES (?, NULL), (?, NULL), (NULL, ?)",
        arguments: [canaries[0], canaries[1], Data(canaries[2].utf8)])
    }
  }

  static func containsAnyCanary(_ data: Data) -> Bool {
    canaries.contains { data.range(of: Data($0.utf8)) != nil }
  }

  @Test("a keyed queue's file holds none of the written text and no SQLite header")
  func queueFileEncrypted() throws {
    for config in [passphraseConfiguration(), rawKeyConfiguration()] {
      let directory = TemporaryDirectory()
      let queue = try DatabaseQueue(path: directory.path(), configuration: config)
      try Self.writeCanaries(queue)
      try queue.close()
      let bytes = try #require(fileBytes(directory.path()))
      // Whole pages (1024 bytes with SQLCipher 3, 4096 with SQLCipher 4), several of them.
      #expect(bytes.count >= 3 * 1024 && bytes.count % 1024 == 0)
      #expect(!Self.containsAnyCanary(bytes))
      #expect(!bytes.starts(with: Self.sqliteHeader))
      for name in directory.fileNames() where name != "db.sqlite" {
        #expect(!Self.containsAnyCanary(fileBytes(directory.path(name)) ?? Data()), "\(name)")
      }
    }
  }

  @Test("a keyed pool's file and its WAL hold none of the written text")
  func poolFileAndWALEncrypted() throws {
    let directory = TemporaryDirectory()
    let pool = try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    try Self.writeCanaries(pool)
    // While the pool is open the rows sit in the WAL.
    let wal = try #require(fileBytes(directory.path("db.sqlite-wal")))
    #expect(wal.count > 1024)
    #expect(!Self.containsAnyCanary(wal))
    #expect(!Self.containsAnyCanary(fileBytes(directory.path()) ?? Data()))
    #expect(!Self.containsAnyCanary(fileBytes(directory.path("db.sqlite-shm")) ?? Data()))
    try pool.close()

    let bytes = try #require(fileBytes(directory.path()))
    #expect(!Self.containsAnyCanary(bytes))
    #expect(!bytes.starts(with: Self.sqliteHeader))
    for name in directory.fileNames() {
      #expect(!Self.containsAnyCanary(fileBytes(directory.path(name)) ?? Data()), "\(name)")
    }
  }

  @Test("an unkeyed database does hold the text and the SQLite header (the control)")
  func unkeyedFileIsPlaintext() throws {
    let directory = TemporaryDirectory()
    let queue = try DatabaseQueue(path: directory.path())
    try Self.writeCanaries(queue)
    try queue.close()
    let bytes = try #require(fileBytes(directory.path()))
    #expect(bytes.starts(with: Self.sqliteHeader))
    for canary in Self.canaries {
      #expect(bytes.range(of: Data(canary.utf8)) != nil, "\(canary)")
    }

    let poolDirectory = TemporaryDirectory()
    let pool = try DatabasePool(path: poolDirectory.path())
    try Self.writeCanaries(pool)
    #expect(Self.containsAnyCanary(fileBytes(poolDirectory.path("db.sqlite-wal")) ?? Data()))
  }
}
