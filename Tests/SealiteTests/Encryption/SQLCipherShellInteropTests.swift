import Foundation
import Sealite
import Testing

/// The SQLCipher version a shell runs with, asked through `PRAGMA cipher_version`
/// (SQLCipher 3's `-version` prints only the SQLite version).
private func shellSQLCipherVersion(_ shell: String) async -> String? {
  guard let output = try? await runProcess(shell, [":memory:"], input: "PRAGMA cipher_version;\n").stdout
  else {
    return nil
  }
  return output.split(separator: " ").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// The `sqlcipher` shell whose SQLCipher version is the linked one, or nil. The
/// Makefile gives each leg the shell of its own SQLCipher (the legacy leg's
/// comes from the same Debian release as its library). Asked once, by a task:
/// the answer comes from a child process, which no test waits for on a
/// cooperative thread.
private let matchingShellLookup = Task<String?, Never> {
  guard let shell = TestEnvironment.sqlcipherShell,
    let linked = SQLiteFeatures.linked.sqlcipherVersionNumber,
    await shellSQLCipherVersion(shell) == linked
  else { return nil }
  return shell
}

/// The shell of the linked version, or nil (see `matchingShellLookup`).
private var matchingShell: String? {
  get async { await matchingShellLookup.value }
}

@Suite("The sqlcipher shell is there to test against")
struct SQLCipherShellAvailabilityTests {
  @Test("every leg has an sqlcipher shell of the linked version")
  func shellOfTheLinkedVersion() async throws {
    let shell = try #require(TestEnvironment.sqlcipherShell, "no sqlcipher shell for this leg")
    let shellVersion = await shellSQLCipherVersion(shell)
    #expect(
      await matchingShell != nil,
      "shell runs SQLCipher \(shellVersion ?? "?"), linked is \(SQLiteFeatures.linked.sqlcipherVersionNumber ?? "?")"
    )
  }
}

// The interop tests need a shell of the linked version; the availability test
// above fails when there is none, so this condition never hides a missing shell.
@Suite("Interop with the real sqlcipher shell", .enabled { await matchingShell != nil })
struct SQLCipherShellInteropTests {
  static let passphrase = "shell interop passphrase"
  static let rawKey = Data((0..<32).map { UInt8(($0 * 7 + 3) & 0xFF) })
  static let salt = Data((0..<16).map { UInt8(0xA0 + $0) })

  static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

  /// The statement that keys the shell; given on standard input, never in argv.
  static func keyStatement(_ key: DatabaseKey) -> String {
    switch key.kind {
    case .passphrase: return "PRAGMA key = '\(passphrase)';"
    case .raw(let hasSalt):
      return "PRAGMA key = \"x'\(hex(rawKey))\(hasSalt ? hex(salt) : "")'\";"
    }
  }

  static func keys() throws -> [DatabaseKey] {
    [.passphrase(passphrase), try .raw(rawKey), try .raw(rawKey, salt: salt)]
  }

  static func shell(_ path: String, _ script: String) async throws -> String {
    let shell = try #require(await matchingShell)
    let result = try await runProcess(shell, ["-batch", "-bail", path], input: script)
    #expect(result.status == 0, "sqlcipher failed: \(result.stderr)")
    #expect(!result.stderr.localizedCaseInsensitiveContains("error"), "\(result.stderr)")
    return result.stdout
  }

  @Test("a database made by the shell opens in Sealite, with a passphrase or a raw key")
  func shellToSealite() async throws {
    for key in try Self.keys() {
      let directory = TemporaryDirectory()
      let path = directory.path()
      _ = try await Self.shell(
        path,
        """
        \(Self.keyStatement(key))
        CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
        INSERT INTO notes(body) VALUES ('written by the shell'), ('second note');
        """)
      let bytes = try #require(fileBytes(path))
      #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
      if case .raw(true) = key.kind { #expect(bytes.prefix(16) == Self.salt) }

      var config = Configuration()
      config.key = key
      let queue = try DatabaseQueue(path: path, configuration: config)
      let bodies = try await queue.read { db in
        try String.fetchAll(db, sql: "SELECT body FROM notes ORDER BY id")
      }
      #expect(bodies == ["written by the shell", "second note"], "\(key)")
      try queue.close()
      let pool = try DatabasePool(path: path, configuration: config)
      try await pool.write { db in try db.execute(sql: "INSERT INTO notes(body) VALUES ('added by Sealite')")
      }
      #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") } == 3)
      try pool.close()
      // And back: the shell reads what Sealite added.
      let output = try await Self.shell(
        path, "\(Self.keyStatement(key))\nSELECT body FROM notes WHERE id = 3;\n")
      #expect(output.contains("added by Sealite"), "\(key)")
    }
  }

  @Test("a database made by Sealite opens in the shell, with a passphrase or a raw key")
  func sealiteToShell() async throws {
    for key in try Self.keys() {
      let directory = TemporaryDirectory()
      let path = directory.path()
      var config = Configuration()
      config.key = key
      let queue = try DatabaseQueue(path: path, configuration: config)
      try await queue.write { db in
        try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
        try db.execute(sql: "INSERT INTO notes(body) VALUES (?)", arguments: ["written by Sealite"])
      }
      try queue.close()

      let output = try await Self.shell(
        path, "\(Self.keyStatement(key))\nSELECT body FROM notes;\nPRAGMA cipher_integrity_check;\n")
      #expect(output.contains("written by Sealite"), "\(key)")

      // The shell with a wrong key can not read it: Sealite did encrypt it.
      let shell = try #require(await matchingShell)
      let wrong = try await runProcess(
        shell, ["-batch", path], input: "PRAGMA key = 'wrong passphrase';\nSELECT body FROM notes;\n")
      #expect(!wrong.stdout.contains("written by Sealite"))
      #expect(wrong.stderr.contains("not a database"), "\(wrong.stderr)")
    }
  }

  @Test("a pool's WAL database made by Sealite opens in the shell after the pool closes")
  func poolToShell() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = Configuration()
    config.key = .passphrase(Self.passphrase)
    let pool = try DatabasePool(path: path, configuration: config)
    try await pool.write { db in
      try db.execute(sql: "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('from the pool')")
    }
    try pool.close()
    let output = try await Self.shell(
      path,
      "\(Self.keyStatement(.passphrase(Self.passphrase)))\nPRAGMA journal_mode;\nSELECT body FROM notes;\n")
    #expect(output.contains("wal"))
    #expect(output.contains("from the pool"))
  }
}
