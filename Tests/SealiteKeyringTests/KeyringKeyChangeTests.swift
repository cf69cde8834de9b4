import Foundation
import Sealite
import SealiteKeyring
import Testing

/// The row of the database, read with the key the keyring gives.
private func rowThroughKeyring(_ path: String, _ database: KeyringDatabase) throws -> String? {
  var config = Configuration()
  try config.useKeyFromKeyring(for: database)
  let dbQueue = try DatabaseQueue(path: path, configuration: config)
  defer { try? dbQueue.close() }
  return try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") }
}

@Suite("Crash-safe key changes through the keyring")
struct KeyringKeyChangeTests {
  let keyring = Keyring()

  @Test("changeKey(of:to:) re-encrypts, keeps only the new key, and leaves no pending item")
  func changeKey() async throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    let old = DatabaseKey.randomRaw()
    try makeDatabase(path, key: old)
    try await keyring.store(old, for: database)
    let new = DatabaseKey.passphrase(Data("new passphrase".utf8))
    try await keyring.changeKey(of: database, to: new)
    #expect(!opens(path, old))
    #expect(opens(path, new))
    #expect(try itemNames(keyring, database) == [""])
    #expect(try rowThroughKeyring(path, database) == "kept")
  }

  @Test("an open through the keyring settles a key change a crash interrupted, before or after the rekey")
  func settleOnOpen() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    let keyA = DatabaseKey.randomRaw()
    let keyB = DatabaseKey.randomRaw()
    try makeDatabase(path, key: keyA)
    try keyring.store(keyA, for: database)

    // The crash came after the pending key was stored, before the rekey.
    try keyring.store(keyB, for: database.pendingKeyItem)
    #expect(try itemNames(keyring, database) == ["", "sealite.pending-key"])
    #expect(try rowThroughKeyring(path, database) == "kept")
    #expect(try itemNames(keyring, database) == [""])
    #expect(opens(path, keyA))

    // The crash came after the rekey, before the new key was promoted.
    try keyring.store(keyB, for: database.pendingKeyItem)
    var config = Configuration()
    config.key = keyA
    try DatabaseQueue(path: path, configuration: config).changeKey(to: keyB)
    #expect(try keyring.settlePendingKeyChange(for: database) == .promotedPendingKey)
    #expect(try itemNames(keyring, database) == [""])
    #expect(try rowThroughKeyring(path, database) == "kept")
    #expect(try keyring.settlePendingKeyChange(for: database) == nil)
  }

  @Test("when neither key opens the database, settling throws and changes nothing")
  func neitherKeyOpens() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    try makeDatabase(path, key: .randomRaw())
    try keyring.store(.randomRaw(), for: database)
    try keyring.store(.randomRaw(), for: database.pendingKeyItem)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = try #require(throws: DatabaseError.self) { try keyring.settlePendingKeyChange(for: database) }
    #expect(error.message?.contains("neither the stored key nor the pending key") == true, "\(error)")
    #expect(try itemNames(keyring, database) == ["", "sealite.pending-key"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    #expect(throws: DatabaseError.self) { try rowThroughKeyring(path, database) }
  }

  @Test("a key change the stored key can not start changes nothing and leaves no pending item")
  func wrongStoredKey() throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    try makeDatabase(path, key: .randomRaw())
    try keyring.store(.randomRaw(), for: database)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(throws: DatabaseError.self) { try keyring.changeKey(of: database, to: .randomRaw()) }
    #expect(try itemNames(keyring, database) == [""])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }
}
