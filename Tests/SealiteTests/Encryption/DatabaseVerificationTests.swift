import Foundation
import Sealite
import Testing

@Suite("Verifying a database")
struct DatabaseVerificationTests {
  private func makeDatabase(_ path: String, key: DatabaseKey?) throws {
    var config = Configuration()
    config.key = key
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a BLOB)")
      for _ in 0..<500 { try db.execute(sql: "INSERT INTO t (a) VALUES (randomblob(200))") }
    }
    try dbQueue.close()
  }

  @Test("A sound encrypted or plaintext database verifies, and nothing is written")
  func soundDatabase() throws {
    let directory = TemporaryDirectory()
    let key = DatabaseKey.randomRaw()
    try makeDatabase(directory.path("secret.sqlite"), key: key)
    try makeDatabase(directory.path("plain.sqlite"), key: nil)
    let before = fileBytes(directory.path("secret.sqlite"))
    let secret = try DatabaseQueue.verifyDatabase(atPath: directory.path("secret.sqlite"), key: key)
    #expect(secret.isValid && secret.isEncrypted)
    #expect(secret.integrityMessages == ["ok"])
    #expect(fileBytes(directory.path("secret.sqlite")) == before)
    let plain = try DatabaseQueue.verifyDatabase(atPath: directory.path("plain.sqlite"), key: nil)
    #expect(plain.isValid && !plain.isEncrypted)
  }

  @Test("A tampered page is named")
  func tamperedPage() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let key = DatabaseKey.randomRaw()
    try makeDatabase(path, key: key)
    // Flip bytes inside page 4 (pages are 4096 bytes, numbered from 1).
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: 4096 * 3 + 100)
    let original = try #require(try handle.read(upToCount: 4))
    try handle.seek(toOffset: 4096 * 3 + 100)
    try handle.write(contentsOf: Data(original.map { ~$0 }))
    try handle.close()
    let verification = try DatabaseQueue.verifyDatabase(atPath: path, key: key)
    #expect(!verification.isValid)
    if SQLiteFeatures.linked.sqlcipherVersion.map({ !$0.hasPrefix("3.") }) ?? true {
      #expect(verification.tamperedPages == [4])
    }
    #expect(verification.integrityMessages != ["ok"])
  }

  @Test("A wrong key, a missing key and a plaintext file given a key are opening errors")
  func openingErrors() throws {
    let directory = TemporaryDirectory()
    try makeDatabase(directory.path("secret.sqlite"), key: .passphrase("right"))
    try makeDatabase(directory.path("plain.sqlite"), key: nil)
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.verifyDatabase(atPath: directory.path("secret.sqlite"), key: .passphrase("wrong"))
    }
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.verifyDatabase(atPath: directory.path("secret.sqlite"), key: nil)
    }
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.verifyDatabase(atPath: directory.path("plain.sqlite"), key: .randomRaw())
    }
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.verifyDatabase(atPath: directory.path("missing.sqlite"), key: nil)
    }
  }
}
