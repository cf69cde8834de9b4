import Foundation
import Sealite
import SealiteKeyring
import Testing

@Suite("Opening encrypted databases with keys from the keyring")
struct KeyringConfigurationTests {
  let keyring = Keyring()

  static func keyringConfiguration(for database: KeyringDatabase) throws -> Configuration {
    var config = Configuration()
    try config.useKeyFromKeyring(for: database)
    return config
  }

  @Test("a queue opens with the key taken from the keyring")
  func queue() async throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    try await keyring.store(DatabaseKey.passphrase(Data("queue secret".utf8)), for: database)
    var creating = Configuration()
    try await creating.useKeyFromKeyring(keyring, for: database)
    try await DatabaseQueue(path: path, configuration: creating).write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (42)")
    }
    // The blocking variant, as a program without async code would call it.
    let config = try Self.keyringConfiguration(for: database)
    let value = try await DatabaseQueue(path: path, configuration: config).read { db in
      try Int.fetchOne(db, sql: "SELECT x FROM t")
    }
    #expect(value == 42)
  }

  @Test("a pool fetches the key once: its readers open after the key left the keyring")
  func pool() async throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path, name: "pool")
    try await keyring.store(DatabaseKey.randomRaw(), for: database)
    var config = Configuration()
    config.maximumReaderCount = 4
    try await config.useKeyFromKeyring(for: database)
    // Every connection opened from now on can only use the key fetched above.
    try await keyring.deleteKey(for: database)
    let dbPool = try DatabasePool(path: path, configuration: config)
    try await dbPool.write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (7)")
    }
    let sums = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask { try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t")! } }
      }
      return try await group.reduce(0, +)
    }
    #expect(sums == 56)
  }

  @Test("a wrong key from the keyring fails to open the database, and a missing one fails clearly")
  func wrongOrMissingKey() async throws {
    let path = uniqueDatabasePath()
    let database = try KeyringDatabase(path: path)
    var right = Configuration()
    right.key = DatabaseKey.randomRaw()
    try await DatabaseQueue(path: path, configuration: right).write { db in
      try db.execute(sql: "CREATE TABLE t(x)")
    }
    try await keyring.store(DatabaseKey.randomRaw(), for: database)
    var wrong = Configuration()
    try await wrong.useKeyFromKeyring(for: database)
    let error = #expect(throws: DatabaseError.self) {
      try DatabaseQueue(path: path, configuration: wrong).read { db in
        try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
      }
    }
    #expect("\(String(describing: error))".contains("key does not open"))
    let missing = try KeyringDatabase(path: uniqueDatabasePath())
    var config = Configuration()
    await #expect(throws: KeyringError.itemNotFound(path: missing.canonicalPath, name: nil)) {
      try await config.useKeyFromKeyring(for: missing)
    }
    #expect(config.key == nil)
  }
}
