import Foundation
import Sealite
import Testing

// SQLCipher 1's format has no HMAC: a wrong key tried in it decrypts page 1 to
// noise instead of failing, and SQLite reads that noise as a header. One time
// in 256 its byte 19 says "WAL", and SQLite creates -wal and -shm beside the
// file before it rejects the rest of the header. Every probe of the formats
// (cipherFormat, cipherConfiguration, migrateCipherFormat, dbkey's commands)
// tries that format last, so every wrong key reaches it.

@Suite("Keys tried in the format without HMAC")
struct UnauthenticatedFormatProbeTests {
  /// A raw-keyed configuration in SQLCipher 1's format, as the linked
  /// SQLCipher spells it (SQLCipher 3 has no `cipher_compatibility`).
  static var formatOneConfiguration: Configuration {
    var config = rawKeyConfiguration()
    if CipherConfigurationTests.sqlcipherMajorVersion >= 4 {
      config.cipher = CipherConfiguration(compatibility: 1)
    } else {
      config.cipher = CipherConfiguration(kdfIterations: 4000)
      config.prepareDatabase { db in try db.execute(sql: "PRAGMA cipher_use_hmac = OFF") }
    }
    return config
  }

  @Test("2,000 wrong keys: cipherFormat is nil for each, and no file appears or changes beside the database")
  func wrongKeysCreateNothing() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try CipherConfigurationTests.makeDatabase(at: path, rawKeyConfiguration(), rows: 3)
    let before = try #require(fileBytes(path))
    // (255/256)^2000 ≈ 0.0004%: without the fix, some key leaves -wal and -shm.
    for attempt in 0..<2000 {
      #expect(try DatabaseQueue.cipherFormat(atPath: path, key: .randomRaw()) == nil)
      guard directory.fileNames() == ["db.sqlite"] else {
        Issue.record("wrong key \(attempt) left \(directory.fileNames())")
        break
      }
    }
    #expect(fileBytes(path) == before)
    #expect(try DatabaseQueue.cipherFormat(atPath: path, key: #require(rawKeyConfiguration().key)) != nil)
  }

  @Test(
    "a database in SQLCipher 1's format, in WAL mode: the right key finds format 1, wrong keys create nothing"
  )
  func formatOneInWALMode() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let config = Self.formatOneConfiguration
    let pool = try DatabasePool(path: path, configuration: config)
    try pool.write { db in
      try db.execute(
        sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t(name) VALUES ('one')")
    }
    try pool.close()
    try #require(directory.fileNames() == ["db.sqlite"])
    let before = try #require(fileBytes(path))
    for _ in 0..<500 {
      #expect(try DatabaseQueue.cipherFormat(atPath: path, key: .randomRaw()) == nil)
    }
    #expect(directory.fileNames() == ["db.sqlite"])
    #expect(fileBytes(path) == before)
    #expect(try DatabaseQueue.cipherFormat(atPath: path, key: #require(config.key)) == 1)
    #expect(try CipherConfigurationTests.rows(DatabasePool(path: path, configuration: config)) == ["one"])
  }

  @Test(
    "opening a database in SQLCipher 1's format with 2,000 wrong keys: each is the key error, and no file appears",
    arguments: [true, false])
  func wrongKeysOpenNothing(readonly: Bool) throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = Self.formatOneConfiguration
    try CipherConfigurationTests.makeDatabase(at: path, config, rows: 3)
    let before = try #require(fileBytes(path))
    config.readonly = readonly
    config.observesOtherProcesses = false
    // (255/256)^2000 ≈ 0.0004%: without the check, some key's noise says WAL.
    for attempt in 0..<2000 {
      config.key = .randomRaw()
      do {
        _ = try DatabaseQueue(path: path, configuration: config)
        Issue.record("wrong key \(attempt) opened the database")
      } catch let error as DatabaseError {
        #expect(error.resultCode == .SQLITE_NOTADB, "\(error)")
        #expect(error.message?.contains("key does not open") == true, "\(error)")
      }
      guard directory.fileNames() == ["db.sqlite"] else {
        Issue.record("wrong key \(attempt) left \(directory.fileNames())")
        break
      }
    }
    #expect(fileBytes(path) == before)
    // The right key, as a raw key or a passphrase given in prepareDatabase,
    // on a queue and on a pool.
    let right = Self.formatOneConfiguration
    #expect(try CipherConfigurationTests.rows(DatabaseQueue(path: path, configuration: right)).count == 3)
    #expect(try CipherConfigurationTests.rows(DatabasePool(path: path, configuration: right)).count == 3)
  }

  @Test(
    "a passphrase in SQLCipher 1's format, given in prepareDatabase to a pool: the right one opens, a wrong one does not"
  )
  func passphraseInPrepareDatabase() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    func config(_ passphrase: String) -> Configuration {
      var config = Self.formatOneConfiguration
      config.key = nil
      let legacy = CipherConfigurationTests.sqlcipherMajorVersion < 4
      config.prepareDatabase { db in
        try db.usePassphrase(passphrase)
        if legacy { try db.execute(sql: "PRAGMA cipher_use_hmac = OFF") }
      }
      return config
    }
    try CipherConfigurationTests.makeDatabase(at: path, config("format one"), rows: 4)
    let pool = try DatabasePool(path: path, configuration: config("format one"))
    #expect(try CipherConfigurationTests.rows(pool).count == 4)
    try pool.close()
    #expect(throws: DatabaseError.self) { try DatabasePool(path: path, configuration: config("not it")) }
    #expect(directory.fileNames() == ["db.sqlite"])
  }
}
