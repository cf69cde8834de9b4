import Dispatch
import Foundation
import Testing

// @testable: KeyDerivation, how a pool derives its connections' keys once, is internal.
@testable import Sealite

/// Runs `count` reads at once on `pool`, each waiting inside its read until all
/// are inside theirs, so that the pool opens `count` reader connections; returns
/// what each read.
private func readAtOnce(_ pool: DatabasePool, count: Int) throws -> [String] {
  let inside = DispatchGroup()
  let results = Locked<[String]>([])
  let errors = Locked<[String]>([])
  let done = DispatchGroup()
  for _ in 0..<count {
    inside.enter()
    done.enter()
    DispatchQueue.global().async {
      defer { done.leave() }
      do {
        let value = try pool.read { db -> String in
          inside.leave()
          // Hold this reader until every read is inside one.
          _ = inside.wait(timeout: .now() + 30)
          return try String.fetchOne(db, sql: "SELECT x FROM t") ?? ""
        }
        results.withLock { $0.append(value) }
      } catch {
        errors.withLock { $0.append("\(error)") }
      }
    }
  }
  _ = done.wait(timeout: .now() + 60)
  #expect(errors.value.isEmpty, "\(errors.value)")
  return results.value
}

@Suite("A pool derives a passphrase's key once, for all its connections")
struct PoolKeyDerivationTests {
  static func makeDatabase(_ path: String, _ config: Configuration) throws {
    let queue = try DatabaseQueue(path: path, configuration: config)
    try queue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('derived')") }
    try queue.close()
  }

  @Test("Sealite's PBKDF2 gives the key SQLCipher derives: the raw key and salt open the file")
  func sameKeyAsSQLCipher() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try Self.makeDatabase(path, passphraseConfiguration("pbkdf2 check"))
    let raw = try #require(
      KeyDerivation.rawKey(for: .passphrase("pbkdf2 check"), path: path, cipher: CipherConfiguration()))
    #expect(raw.kind == .raw(hasSalt: true))
    var config = Configuration()
    config.key = raw
    #expect(
      try DatabaseQueue(path: path, configuration: config).read { db in
        try String.fetchOne(db, sql: "SELECT x FROM t")
      } == "derived")
    // A wrong passphrase derives a key that does not open it.
    config.key = KeyDerivation.rawKey(for: .passphrase("wrong"), path: path, cipher: CipherConfiguration())
    #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: config) }
  }

  @Test(
    "8 readers of a passphrase pool all read, keyed with the derived raw key",
    arguments: ["existing file", "new file", "prepareDatabase", "kdf iterations", "compatibility 3"])
  func eightReaders(setting: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = passphraseConfiguration("pool passphrase")
    switch setting {
    case "prepareDatabase":
      config = Configuration()
      config.prepareDatabase { db in try db.usePassphrase("pool passphrase") }
    case "kdf iterations":
      config.cipher.kdfIterations = 12_000
    case "compatibility 3":
      config.cipher.compatibility = 3
    default: break
    }
    config.maximumReaderCount = 8
    if setting != "new file" { try Self.makeDatabase(path, config) }
    let pool = try DatabasePool(path: path, configuration: config)
    if setting == "new file" {
      try pool.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('derived')") }
    }
    #expect(pool.configuration.rekeyedKey?.kind == .raw(hasSalt: true))
    #expect(try readAtOnce(pool, count: 8) == Array(repeating: "derived", count: 8))
    try pool.close()
    // The file still opens with the passphrase alone.
    let queue = try DatabaseQueue(path: path, configuration: config)
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "derived")
  }

  @Test(
    "a wrong passphrase is the usual error, and a pool rekeyed later reopens its readers with the new key")
  func wrongPassphraseAndRekey() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try Self.makeDatabase(path, passphraseConfiguration("right"))
    let error = try #require(throws: DatabaseError.self) {
      try DatabasePool(path: path, configuration: passphraseConfiguration("wrong"))
    }
    #expect(error.resultCode == .SQLITE_NOTADB)
    #expect(error.message?.contains("the key does not open") == true, "\(error)")

    var config = passphraseConfiguration("right")
    config.maximumReaderCount = 3
    let pool = try DatabasePool(path: path, configuration: config)
    #expect(try readAtOnce(pool, count: 3).count == 3)
    try pool.changePassphrase("next")
    #expect(try readAtOnce(pool, count: 3) == Array(repeating: "derived", count: 3))
    try pool.close()
    #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: config) }
    #expect(
      try DatabaseQueue(path: path, configuration: passphraseConfiguration("next")).read { db in
        try String.fetchOne(db, sql: "SELECT x FROM t")
      } == "derived")
  }

  @Test(
    "a passphrase given in prepareDatabase is derived once for the whole pool, by Sealite, before the writer reads",
    arguments: ["default settings", "compatibility 3"])
  func prepareDatabaseDerivesOnce(setting: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = Configuration()
    config.prepareDatabase { db in
      try db.usePassphrase("pool passphrase")
      if setting == "compatibility 3" { try db.execute(sql: "PRAGMA cipher_compatibility = 3") }
    }
    config.maximumReaderCount = 8
    try Self.makeDatabase(path, config)
    let salt = try #require(KeyDerivation.fileSalt(path))
    let pool = try DatabasePool(path: path, configuration: config)
    #expect(try readAtOnce(pool, count: 8) == Array(repeating: "derived", count: 8))
    let writerIsRaw = try pool.write { db in db.existingState(for: KeyingState.self)?.isKeyedWithRawKey }
    let readerIsRaw = try pool.read { db in db.existingState(for: KeyingState.self)?.isKeyedWithRawKey }
    try pool.close()
    // SQLCipher derives with a passphrase only: every connection has the raw
    // key. SQLCipher 3 can not list its settings (no PRAGMA cipher_settings):
    // its writer keeps the passphrase, and derives it itself, once more.
    let listsSettings =
      (SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) } ?? 0)
      >= 4
    #expect(writerIsRaw == listsSettings)
    #expect(readerIsRaw == true)
    #expect(KeyDerivation.derivationsBySalt.value[salt] == 1)
    // The file still opens with the passphrase, and the settings were kept.
    let queue = try DatabaseQueue(path: path, configuration: config)
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "derived")
    if setting == "compatibility 3" {
      #expect(try queue.read { db in try db.integerPragma("cipher_page_size") } == 1024)
    }
  }
}
