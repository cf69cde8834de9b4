import Foundation
import Sealite
import Testing

@Suite("Opening with bad input fails at once, clearly, writing nothing")
struct OpeningErrorTests {
  enum Opener: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case queue
    case pool

    var testDescription: String { rawValue }

    @discardableResult
    func open(_ path: String, _ configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
      switch self {
      case .queue: return try DatabaseQueue(path: path, configuration: configuration)
      case .pool: return try DatabasePool(path: path, configuration: configuration)
      }
    }
  }

  /// The ways a file can fail to open.
  enum BadInput: String, CaseIterable, Sendable {
    case wrongPassphrase
    case wrongRawKey
    case noKeyOnEncryptedFile
    case keyOnPlaintextFile
    case textFile
    case randomBytes
  }

  static let rightPassphrase = "the-right-passphrase-71"
  static let wrongPassphrase = "the-wrong-passphrase-93"

  /// Prepares the file for `input` at `path`; returns the configuration that
  /// must fail to open it.
  static func prepare(_ input: BadInput, at path: String, with opener: Opener) throws -> Configuration {
    switch input {
    case .wrongPassphrase:
      try makeDatabase(at: path, opener: opener, configuration: passphraseConfiguration(rightPassphrase))
      return passphraseConfiguration(wrongPassphrase)
    case .wrongRawKey:
      try makeDatabase(at: path, opener: opener, configuration: rawKeyConfiguration(byte: 0x11))
      return rawKeyConfiguration(byte: 0x22)
    case .noKeyOnEncryptedFile:
      try makeDatabase(at: path, opener: opener, configuration: rawKeyConfiguration(byte: 0x11))
      return Configuration()
    case .keyOnPlaintextFile:
      try makeDatabase(at: path, opener: opener, configuration: Configuration())
      return passphraseConfiguration(wrongPassphrase)
    case .textFile:
      let text = String(repeating: "This is a text file, not a database.\n", count: 9)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return passphraseConfiguration(wrongPassphrase)
    case .randomBytes:
      var generator = SystemRandomNumberGenerator()
      try Data((0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        .write(to: URL(fileURLWithPath: path))
      return rawKeyConfiguration(byte: 0x22)
    }
  }

  static func makeDatabase(at path: String, opener: Opener, configuration: Configuration) throws {
    let writer = try opener.open(path, configuration)
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('kept')")
    }
    try writer.close()
  }

  /// The words each failure's message must contain.
  static func expectedWords(_ input: BadInput) -> String {
    switch input {
    case .wrongPassphrase, .wrongRawKey: return "key does not open"
    case .noKeyOnEncryptedFile: return "encrypted"
    case .keyOnPlaintextFile: return "not encrypted"
    case .textFile, .randomBytes: return "not a database"
    }
  }

  /// Every file of the directory and its bytes.
  static func snapshot(_ directory: TemporaryDirectory) -> [String: Data] {
    Dictionary(
      uniqueKeysWithValues: directory.fileNames().map { ($0, fileBytes(directory.path($0)) ?? Data()) })
  }

  static func openingError(
    _ input: BadInput, _ opener: Opener, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DatabaseError {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let config = try prepare(input, at: path, with: opener)
    let before = snapshot(directory)
    let error = try #require(throws: DatabaseError.self, sourceLocation: sourceLocation) {
      // The initializer alone, no query: the failure is at open time.
      try opener.open(path, config)
    }
    #expect(snapshot(directory) == before, "the files are unchanged", sourceLocation: sourceLocation)
    #expect(directory.fileNames() == before.keys.sorted(), sourceLocation: sourceLocation)
    return error
  }

  @Test(
    "each bad input is a DatabaseError with SQLITE_NOTADB and a message that says which",
    arguments: Opener.allCases, BadInput.allCases)
  func badInputAtOpen(opener: Opener, input: BadInput) throws {
    let error = try Self.openingError(input, opener)
    #expect(error.resultCode == .SQLITE_NOTADB, "\(error)")
    let message = try #require(error.message)
    #expect(message.contains(Self.expectedWords(input)), "\(message)")
    if input == .noKeyOnEncryptedFile {
      #expect(!message.contains("not encrypted"))
      #expect(!message.contains("key does not open"))
    }
    for secret in [Self.rightPassphrase, Self.wrongPassphrase] {
      #expect(!error.description.contains(secret))
      #expect(!message.contains(secret))
    }
  }

  @Test(
    "wrong key, missing key, key on plaintext and non-database each have their own message",
    arguments: Opener.allCases)
  func distinctMessages(opener: Opener) throws {
    var messages: [BadInput: String] = [:]
    for input in [BadInput.wrongRawKey, .noKeyOnEncryptedFile, .keyOnPlaintextFile, .textFile] {
      let error = try Self.openingError(input, opener)
      // Compare the messages without the (always different) paths.
      messages[input] = (error.message ?? "").replacingOccurrences(
        of: #"\(/[^)]*\)"#, with: "", options: .regularExpression)
    }
    #expect(Set(messages.values).count == 4, "\(messages)")
  }

  @Test("a text file opened without a key is not a database either", arguments: Opener.allCases)
  func textFileWithoutKey(opener: Opener) throws {
    let directory = TemporaryDirectory()
    try Data(String(repeating: "plain words\n", count: 30).utf8).write(
      to: URL(fileURLWithPath: directory.path()))
    let before = Self.snapshot(directory)
    let error = try #require(throws: DatabaseError.self) { try opener.open(directory.path()) }
    #expect(error.resultCode == .SQLITE_NOTADB)
    #expect(error.message?.contains("not a database") == true, "\(error)")
    #expect(Self.snapshot(directory) == before)
  }

  @Test("after a failed open, the right key still opens the file with its data", arguments: Opener.allCases)
  func rightKeyStillWorks(opener: Opener) throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let wrong = try Self.prepare(.wrongPassphrase, at: path, with: opener)
    #expect(throws: DatabaseError.self) { try opener.open(path, wrong) }
    #expect(throws: DatabaseError.self) { try opener.open(path) }
    let writer = try opener.open(path, passphraseConfiguration(Self.rightPassphrase))
    #expect(try writer.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "kept")
  }

  @Test(
    "a zero-length file opens as a new empty database, encrypted by its first write when keyed",
    arguments: Opener.allCases)
  func zeroLengthFile(opener: Opener) throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let writer = try opener.open(path, rawKeyConfiguration(byte: 0x33))
    #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") } == 0)
    try writer.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('CANARY-zero')") }
    try writer.close()

    let bytes = try #require(fileBytes(path))
    #expect(!bytes.isEmpty)
    #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
    #expect(bytes.range(of: Data("CANARY-zero".utf8)) == nil)
    let error = try #require(throws: DatabaseError.self) { try opener.open(path) }
    #expect(error.resultCode == .SQLITE_NOTADB)
    let reopened = try opener.open(path, rawKeyConfiguration(byte: 0x33))
    #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT x FROM t") } == "CANARY-zero")
  }

  @Test("a zero-length file opened without a key becomes a plaintext database", arguments: Opener.allCases)
  func zeroLengthFileWithoutKey(opener: Opener) throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let writer = try opener.open(path)
    try writer.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
    try writer.close()
    #expect(fileBytes(path)?.starts(with: Data("SQLite format 3".utf8)) == true)
  }

  @Test("invalid cipher settings are a clear error at open", arguments: Opener.allCases)
  func invalidCipherSettings(opener: Opener) throws {
    let settings = [
      (CipherConfiguration(compatibility: 5), "compatibility"),
      (CipherConfiguration(kdfIterations: 0), "kdf"),
      (CipherConfiguration(pageSize: 1000), "page size"),
      (CipherConfiguration(pageSize: 256), "page size"),
    ]
    for (cipher, words) in settings {
      let directory = TemporaryDirectory()
      var config = rawKeyConfiguration()
      config.cipher = cipher
      let error = try #require(throws: DatabaseError.self) { try opener.open(directory.path(), config) }
      #expect(error.resultCode == .SQLITE_MISUSE)
      #expect(error.message?.contains(words) == true, "\(error)")
    }
  }
}
