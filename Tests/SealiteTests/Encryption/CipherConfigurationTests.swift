import Foundation
import Sealite
import Testing

@Suite("Cipher settings through Configuration.cipher, and SQLCipher 3 databases")
struct CipherConfigurationTests {
  enum Opener: String, CaseIterable, Sendable {
    case queue
    case pool

    @discardableResult
    func open(_ path: String, _ configuration: Configuration) throws -> any DatabaseWriter {
      switch self {
      case .queue: return try DatabaseQueue(path: path, configuration: configuration)
      case .pool: return try DatabasePool(path: path, configuration: configuration)
      }
    }
  }

  static let passphrase = "cipher-settings-passphrase"

  /// The linked SQLCipher's major version (3 on the legacy leg, 4 on the primary).
  static var sqlcipherMajorVersion: Int {
    SQLiteFeatures.linked.sqlcipherVersionNumber.flatMap { $0.split(separator: ".").first }.flatMap {
      Int($0)
    }
      ?? 0
  }

  static func config(_ cipher: CipherConfiguration, key: DatabaseKey? = nil) -> Configuration {
    var config = Configuration()
    config.key = key ?? .passphrase(passphrase)
    config.cipher = cipher
    return config
  }

  static func makeDatabase(at path: String, _ config: Configuration, rows: Int = 20) throws {
    let queue = try DatabaseQueue(path: path, configuration: config)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
      for id in 1...rows { try db.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["name \(id)"]) }
    }
    try queue.close()
  }

  static func rows(_ reader: some DatabaseReader) throws -> [String] {
    try reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") }
  }

  static func expectKeyError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
      try body()
      Issue.record("the database opened with the wrong cipher settings", sourceLocation: sourceLocation)
    } catch let error as DatabaseError {
      #expect(error.resultCode == .SQLITE_NOTADB, "\(error)", sourceLocation: sourceLocation)
      #expect(
        error.message?.contains("key does not open") == true, "\(error)", sourceLocation: sourceLocation)
      #expect(!error.description.contains(passphrase), sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test(
    "a database made with a non-default kdf_iter opens only with the same setting", arguments: Opener.allCases
  )
  func kdfIterations(opener: Opener) throws {
    let directory = TemporaryDirectory()
    let custom = Self.config(CipherConfiguration(kdfIterations: 1000))
    try Self.makeDatabase(at: directory.path(), custom)
    let before = fileBytes(directory.path())
    Self.expectKeyError { try opener.open(directory.path(), Self.config(CipherConfiguration())) }
    Self.expectKeyError {
      try opener.open(directory.path(), Self.config(CipherConfiguration(kdfIterations: 999)))
    }
    #expect(fileBytes(directory.path()) == before)

    let writer = try opener.open(directory.path(), custom)
    #expect(try Self.rows(writer).count == 20)
    let settings = try writer.read { db in try db.cipherSettings() }
    #expect(settings["kdf_iter"] == "1000")
  }

  @Test(
    "a database made with a non-default page size opens only with the same setting",
    arguments: Opener.allCases)
  func pageSize(opener: Opener) throws {
    let directory = TemporaryDirectory()
    let key = try DatabaseKey.raw(Data(repeating: 0x44, count: 32))
    let custom = Self.config(CipherConfiguration(pageSize: 8192), key: key)
    try Self.makeDatabase(at: directory.path(), custom, rows: 200)
    let before = try #require(fileBytes(directory.path()))
    #expect(before.count % 8192 == 0)
    Self.expectKeyError { try opener.open(directory.path(), Self.config(CipherConfiguration(), key: key)) }
    Self.expectKeyError {
      try opener.open(directory.path(), Self.config(CipherConfiguration(pageSize: 1024), key: key))
    }
    #expect(fileBytes(directory.path()) == before)

    let writer = try opener.open(directory.path(), custom)
    #expect(try Self.rows(writer).count == 200)
    #expect(try writer.read { db in try db.cipherSettings()["cipher_page_size"] } == "8192")
  }

  @Test("cipher settings apply to every reader of a pool")
  func settingsOnPoolReaders() throws {
    let directory = TemporaryDirectory()
    var custom = Self.config(CipherConfiguration(kdfIterations: 2000, pageSize: 2048))
    custom.maximumReaderCount = 2
    let pool = try DatabasePool(path: directory.path(), configuration: custom)
    try pool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)") }
    pool.invalidateReadOnlyConnections()
    let settings = try pool.read { db in try db.cipherSettings() }
    #expect(settings["kdf_iter"] == "2000")
    #expect(settings["cipher_page_size"] == "2048")
    try pool.close()
    #expect((fileBytes(directory.path())?.count ?? 1) % 2048 == 0)
  }

  @Test("an SQLCipher 3 database opens with compatibility 3 and not with the default settings")
  func compatibility3Opens() throws {
    let directory = TemporaryDirectory()
    let compat3 = Self.config(CipherConfiguration(compatibility: 3))
    try Self.makeDatabase(at: directory.path(), compat3)

    let queue = try DatabaseQueue(path: directory.path(), configuration: compat3)
    #expect(try Self.rows(queue).count == 20)
    // SQLCipher 3's key derivation: 64,000 PBKDF2 iterations.
    #expect(try queue.read { db in try db.cipherSettings()["kdf_iter"] } == "64000")
    try queue.close()
    let pool = try DatabasePool(path: directory.path(), configuration: compat3)
    #expect(try Self.rows(pool).count == 20)
    try pool.close()

    if Self.sqlcipherMajorVersion >= 4 {
      for opener in Opener.allCases {
        Self.expectKeyError { try opener.open(directory.path(), Self.config(CipherConfiguration())) }
      }
    } else {
      // SQLCipher 3.x: the version 3 format is the default.
      let plainSettings = try DatabaseQueue(
        path: directory.path(), configuration: Self.config(CipherConfiguration()))
      #expect(try Self.rows(plainSettings).count == 20)
    }
  }

  @Test("migrateCipherFormat upgrades an SQLCipher 3 database in place, keeping every row")
  func migrateFromVersion3() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let compat3 = Self.config(CipherConfiguration(compatibility: 3))
    try Self.makeDatabase(at: path, compat3, rows: 500)
    let expected = try Self.rows(DatabaseQueue(path: path, configuration: compat3))

    try DatabaseQueue.migrateCipherFormat(atPath: path, key: .passphrase(Self.passphrase))
    // No leftover of the rewrite (SQLCipher migrates through a temporary copy).
    #expect(directory.fileNames() == ["db.sqlite"])

    let defaults = Self.config(CipherConfiguration())
    let queue = try DatabaseQueue(path: path, configuration: defaults)
    #expect(try Self.rows(queue) == expected)
    if Self.sqlcipherMajorVersion >= 4 {
      #expect(try queue.read { db in try db.cipherSettings()["kdf_iter"] } == "256000")
    }
    try queue.write { db in try db.execute(sql: "INSERT INTO t(name) VALUES ('after migration')") }
    try queue.close()
    let pool = try DatabasePool(path: path, configuration: defaults)
    #expect(try Self.rows(pool).count == 501)
    try pool.close()
    if Self.sqlcipherMajorVersion >= 4 {
      Self.expectKeyError { _ = try DatabaseQueue(path: path, configuration: compat3) }
    }
  }

  @Test("migrateCipherFormat of a current database leaves it readable with the same key")
  func migrateCurrentFormat() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let key = try DatabaseKey.raw(Data(repeating: 0x66, count: 32))
    try Self.makeDatabase(at: path, Self.config(CipherConfiguration(), key: key))
    try DatabaseQueue.migrateCipherFormat(atPath: path, key: key)
    let queue = try DatabaseQueue(path: path, configuration: Self.config(CipherConfiguration(), key: key))
    #expect(try Self.rows(queue).count == 20)
  }

  @Test("migrateCipherFormat with a wrong key throws and leaves the file byte for byte unchanged")
  func migrateWrongKey() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let compat3 = Self.config(CipherConfiguration(compatibility: 3))
    try Self.makeDatabase(at: path, compat3)
    let before = try #require(fileBytes(path))

    let error = try #require(throws: DatabaseError.self) {
      try DatabaseQueue.migrateCipherFormat(atPath: path, key: .passphrase("not-the-passphrase"))
    }
    #expect(error.resultCode == .SQLITE_NOTADB, "\(error)")
    #expect(!error.description.contains("not-the-passphrase"))
    #expect(fileBytes(path) == before)
    #expect(directory.fileNames() == ["db.sqlite"])
    #expect(try Self.rows(DatabaseQueue(path: path, configuration: compat3)).count == 20)
  }

  @Test("migrateCipherFormat of a missing file is a clear error that creates nothing")
  func migrateMissingFile() throws {
    let directory = TemporaryDirectory()
    let error = try #require(throws: DatabaseError.self) {
      try DatabaseQueue.migrateCipherFormat(atPath: directory.path(), key: .passphrase(Self.passphrase))
    }
    #expect(error.resultCode == .SQLITE_CANTOPEN)
    #expect(directory.fileNames().isEmpty)
  }

  @Test("cipherFormat names the format a key opens a file with, writes nothing, and is nil for a wrong key")
  func cipherFormat() throws {
    let directory = TemporaryDirectory()
    let major = Self.sqlcipherMajorVersion
    // Older formats: SQLCipher 4 makes them with cipher_compatibility; SQLCipher 3 has
    // no such pragma, and makes format 2 with its KDF iteration count.
    var settings: [(CipherConfiguration, Int)] = [(CipherConfiguration(), major)]
    if major >= 4 {
      settings += [1, 2, 3].map { (CipherConfiguration(compatibility: $0), $0) }
    } else {
      settings.append((CipherConfiguration(kdfIterations: 4000), 2))
    }
    for (index, (cipher, format)) in settings.enumerated() {
      let path = directory.path("format-\(index).sqlite")
      try Self.makeDatabase(at: path, Self.config(cipher))
      let before = try #require(fileBytes(path))
      #expect(try DatabaseQueue.cipherFormat(atPath: path, key: .passphrase(Self.passphrase)) == format)
      #expect(try DatabaseQueue.cipherFormat(atPath: path, key: .passphrase("wrong")) == nil)
      #expect(fileBytes(path) == before)
    }
    // After a migration, the file has the linked version's format.
    let old = directory.path("old.sqlite")
    try Self.makeDatabase(at: old, Self.config(CipherConfiguration(compatibility: 3)))
    try DatabaseQueue.migrateCipherFormat(atPath: old, key: .passphrase(Self.passphrase))
    #expect(try DatabaseQueue.cipherFormat(atPath: old, key: .passphrase(Self.passphrase)) == major)
    // A plaintext file has no cipher format; a missing file is an error.
    let plain = directory.path("plain.sqlite")
    try DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t(x)") }
    #expect(try DatabaseQueue.cipherFormat(atPath: plain, key: .passphrase(Self.passphrase)) == nil)
    #expect(throws: DatabaseError.self) {
      try DatabaseQueue.cipherFormat(atPath: directory.path("missing.sqlite"), key: .passphrase("x"))
    }
  }
}
