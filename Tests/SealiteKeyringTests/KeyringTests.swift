import Foundation
import Sealite
import SealiteKeyring
import Testing

/// A database path of its own for each test, so that tests running in parallel never see
/// each other's items.
func uniqueDatabasePath() -> String {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sealite-keyring-tests-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory.appendingPathComponent("db.sqlite").path
}

func hex(_ key: DatabaseKey) -> String {
  key.withUnsafeKeyBytes { $0.map { String(format: "%02x", $0) }.joined() }
}

@Suite("Keys kept in the Secret Service keyring")
struct KeyringTests {
  let keyring = Keyring()

  @Test("a passphrase round-trips exactly, bytes and kind")
  func passphraseRoundTrip() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath())
    // Bytes that are not valid UTF-8, and a NUL, must survive too.
    let stored = DatabaseKey.passphrase(Data([0x63, 0x00, 0xff, 0xfe, 0x20, 0x71]))
    try await keyring.store(stored, for: database)
    let fetched = try await keyring.key(for: database)
    #expect(fetched.kind == .passphrase)
    #expect(fetched.hasSameBytes(as: stored))
  }

  @Test("a raw key round-trips exactly")
  func rawRoundTrip() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath())
    let stored = try DatabaseKey.raw(Data((0..<32).map { UInt8($0) }))
    try await keyring.store(stored, for: database)
    let fetched = try await keyring.key(for: database)
    #expect(fetched.kind == .raw(hasSalt: false))
    #expect(fetched.hasSameBytes(as: stored))
  }

  @Test("a raw key with its salt round-trips exactly")
  func rawSaltedRoundTrip() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath(), name: "main")
    let stored = try DatabaseKey.raw(Data(repeating: 0xA5, count: 32), salt: Data(repeating: 0x00, count: 16))
    try await keyring.store(stored, for: database)
    let fetched = try await keyring.key(for: database)
    #expect(fetched.kind == .raw(hasSalt: true))
    #expect(fetched.hasSameBytes(as: stored))
  }

  @Test("storing again replaces the key, also with a key of another kind")
  func storeReplaces() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath())
    try await keyring.store(DatabaseKey.randomRaw(), for: database, label: "first")
    let second = DatabaseKey.passphrase(Data("second".utf8))
    try await keyring.store(second, for: database, label: "second")
    #expect(try await keyring.key(for: database).hasSameBytes(as: second))
    let third = DatabaseKey.randomRaw()
    try await keyring.store(third, for: database, label: "third")
    #expect(try await keyring.key(for: database).hasSameBytes(as: third))
    let mine = try await keyring.items().filter { $0.path == database.canonicalPath }
    #expect(mine.map(\.label) == ["third"])
  }

  @Test("a deleted key is gone, and deleting it again says it is not found")
  func delete() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath())
    try await keyring.store(DatabaseKey.randomRaw(), for: database)
    try await keyring.deleteKey(for: database)
    let notFound = KeyringError.itemNotFound(path: database.canonicalPath, name: nil)
    await #expect(throws: notFound) { try await keyring.key(for: database) }
    await #expect(throws: notFound) { try await keyring.deleteKey(for: database) }
  }

  @Test("a database without a key is itemNotFound, naming its path and name")
  func notFound() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath(), name: "archive")
    let error = await #expect(throws: KeyringError.self) { try await keyring.key(for: database) }
    #expect(error == .itemNotFound(path: database.canonicalPath, name: "archive"))
    #expect(error?.description.contains(database.canonicalPath) == true)
    #expect(error?.description.contains("archive") == true)
  }

  @Test("keys of one file under different names, and without a name, are kept apart")
  func namesKeptApart() async throws {
    let path = uniqueDatabasePath()
    let plain = try KeyringDatabase(path: path)
    let named = try KeyringDatabase(path: path, name: "other")
    let namedKey = DatabaseKey.randomRaw()
    try await keyring.store(namedKey, for: named)
    await #expect(throws: KeyringError.itemNotFound(path: plain.canonicalPath, name: nil)) {
      try await keyring.key(for: plain)
    }
    let plainKey = DatabaseKey.randomRaw()
    try await keyring.store(plainKey, for: plain)
    #expect(try await keyring.key(for: named).hasSameBytes(as: namedKey))
    #expect(try await keyring.key(for: plain).hasSameBytes(as: plainKey))
  }

  @Test("a relative path or one through a symbolic link finds the same key")
  func canonicalPath() async throws {
    let path = uniqueDatabasePath()
    let directory = (path as NSString).deletingLastPathComponent
    let link = directory + "-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory)
    let direct = try KeyringDatabase(path: path)
    let viaLink = try KeyringDatabase(path: link + "/./sub/../db.sqlite")
    #expect(viaLink.canonicalPath == direct.canonicalPath)
    #expect(direct.canonicalPath.hasPrefix("/"))
    let key = DatabaseKey.randomRaw()
    try await keyring.store(key, for: viaLink)
    #expect(try await keyring.key(for: direct).hasSameBytes(as: key))
    #expect(throws: KeyringError.invalidDatabasePath("")) { try KeyringDatabase(path: "") }
  }

  @Test("items() lists labels and attributes, and no secret")
  func itemsHideSecrets() async throws {
    let database = try KeyringDatabase(path: uniqueDatabasePath(), name: "listed")
    let key = try DatabaseKey.raw(Data(repeating: 0x5C, count: 32), salt: Data(repeating: 0x3E, count: 16))
    try await keyring.store(key, for: database, label: "Listed database")
    let items = try await keyring.items()
    let mine = try #require(items.first { $0.path == database.canonicalPath })
    #expect(mine.label == "Listed database")
    #expect(mine.name == "listed")
    #expect(mine.attributes["kind"] == "raw-salted")
    #expect(mine.attributes["xdg:schema"] == "org.sealite.DatabaseKey")
    #expect(Set(mine.attributes.keys) == ["path", "name", "kind", "xdg:schema"])
    let listing = "\(items) \(String(reflecting: items))"
    let secretHex = hex(key)
    #expect(!listing.lowercased().contains(secretHex))
    #expect(!listing.lowercased().contains(String(secretHex.prefix(16))))
    #expect(!listing.contains(String(decoding: Data(repeating: 0x5C, count: 8), as: UTF8.self)))
  }

  @Test("a named collection is found by its label, and a missing one is collectionNotFound")
  func namedCollections() async throws {
    // scripts/with-keyring's default collection is gnome-keyring's "Login".
    let login = Keyring(collection: .named("Login"))
    let database = try KeyringDatabase(path: uniqueDatabasePath())
    let key = DatabaseKey.randomRaw()
    try await login.store(key, for: database)
    #expect(try await keyring.key(for: database).hasSameBytes(as: key))
    let missing = Keyring(collection: .named("No such collection"))
    await #expect(throws: KeyringError.collectionNotFound("No such collection")) {
      try await missing.key(for: database)
    }
    await #expect(throws: KeyringError.collectionNotFound("No such collection")) {
      try await missing.store(key, for: database)
    }
  }

  @Test("unlocking an unlocked collection does nothing")
  func unlockUnlocked() async throws {
    try await keyring.unlock()
  }

  @Test("error messages say what to do and never hold key bytes")
  func errorDescriptions() {
    let errors: [KeyringError] = [
      .noSessionBus, .noSecretService, .collectionLocked("Login"), .promptDismissed,
      .itemNotFound(path: "/data/db.sqlite", name: nil), .collectionNotFound("Work"),
      .invalidDatabasePath(""), .failure("boom"),
    ]
    #expect(Set(errors.map(\.description)).count == errors.count)
    #expect(errors[0].description.contains("DBUS_SESSION_BUS_ADDRESS"))
    #expect(errors[1].description.contains("org.freedesktop.secrets"))
    #expect(errors[2].description.contains("locked") && errors[2].description.contains("Login"))
    #expect(errors[4].description.contains("/data/db.sqlite"))
  }
}
