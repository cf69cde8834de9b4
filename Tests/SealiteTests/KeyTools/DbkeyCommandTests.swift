import Foundation
import Sealite
import Testing

private let rawKeyHex = String(repeating: "42", count: 32)
// Inputs end with a newline: it ends dbkey's read of the key, where waiting
// for end of file could last as long as another child that inherited the pipe.

/// An encrypted database keyed with the raw key 0x42…, with a few rows.
private func makeDatabase(_ path: String) throws {
  let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
  try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (a TEXT); INSERT INTO t (a) VALUES ('hello'), ('world')")
  }
  try dbQueue.close()
}

@Suite("dbkey")
struct DbkeyCommandTests {
  @Test("--help lists the commands and the exit codes; bad command lines exit 64")
  func help() async throws {
    let help = try await dbkey(["--help"])
    #expect(help.status == 0)
    for word in ["probe", "info", "verify", "export", "migrate", "watch", "64", "65", "66", "73", "76"] {
      #expect(help.stdout.contains(word))
    }
    #expect(try await dbkey(["bogus"]).status == 64)
    #expect(try await dbkey(["info"]).status == 64)
    #expect(try await dbkey(["info", "x", "--bogus"]).status == 64)
    let infoHelp = try await dbkey(["info", "--help"])
    #expect(infoHelp.status == 0 && infoHelp.stdout.contains("usage: dbkey info"))
  }

  @Test("probe reports the linked versions, also as JSON")
  func probe() async throws {
    let result = try await dbkey(["probe", "--json"])
    #expect(result.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(json?["sqliteVersion"] as? String == SQLiteFeatures.linked.sqliteVersion)
  }

  @Test("info reads the key from a descriptor; a wrong key exits 65, a missing file 66")
  func info() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let before = fileBytes(path)
    let result = try await dbkey(["info", path, "--key-fd", "0", "--json"], input: rawKeyHex + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(json?["encrypted"] as? Bool == true)
    #expect((json?["pageCount"] as? Int ?? 0) > 0)
    #expect(!result.stdout.contains(rawKeyHex))
    let wrong = try await dbkey(["info", path, "--passphrase-fd", "0"], input: "wrong\n")
    #expect(wrong.status == 65)
    #expect(wrong.stderr.contains("does not open"))
    #expect(!wrong.stderr.contains("wrong\n") && !wrong.stderr.contains(rawKeyHex))
    #expect(try await dbkey(["info", directory.path("missing.sqlite")]).status == 66)
    #expect(fileBytes(path) == before)
  }

  @Test("verify passes a sound database and names a tampered page with exit 76")
  func verify() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    #expect(try await dbkey(["verify", path, "--key-fd", "0"], input: rawKeyHex + "\n").status == 0)
    // A plaintext file given as encrypted is refused.
    let plain = directory.path("plain.sqlite")
    let plainQueue = try DatabaseQueue(path: plain)
    try await plainQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    try plainQueue.close()
    #expect(try await dbkey(["verify", plain, "--key-fd", "0"], input: rawKeyHex + "\n").status == 65)
    // Tamper with page 2.
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    let pageSize: UInt64 = TestEnvironment.isLegacy ? 1024 : 4096
    try handle.seek(toOffset: pageSize + 50)
    try handle.write(contentsOf: Data([0xde, 0xad, 0xbe, 0xef]))
    try handle.close()
    let tampered = try await dbkey(["verify", path, "--key-fd", "0"], input: rawKeyHex + "\n")
    #expect(tampered.status == 76)
    #expect(tampered.stdout.contains("FAILED"))
    if !TestEnvironment.isLegacy { #expect(tampered.stdout.contains("tampered page: 2")) }
  }

  @Test("export writes plaintext or a new key, never overwrites without --force, and leaves DB untouched")
  func export() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let before = fileBytes(path)
    let plain = directory.path("plain.sqlite")
    let result = try await dbkey(
      ["export", path, plain, "--key-fd", "0", "--plaintext"], input: rawKeyHex + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try await DatabaseQueue(path: plain).read { db in try String.fetchAll(db, sql: "SELECT a FROM t") } == [
        "hello", "world",
      ])
    let existing = try await dbkey(
      ["export", path, plain, "--key-fd", "0", "--plaintext"], input: rawKeyHex + "\n")
    #expect(existing.status == 73)
    #expect(
      try await dbkey(
        ["export", path, plain, "--key-fd", "0", "--plaintext", "--new-key"], input: rawKeyHex + "\n"
      ).status
        == 64)
    // Two secrets on two descriptors: DB's key on 3 (a file), OUT's passphrase on 0.
    let keyFile = directory.path("key.hex")
    try Data(rawKeyHex.utf8).write(to: URL(fileURLWithPath: keyFile))
    let rekeyed = directory.path("rekeyed.sqlite")
    let process = try await runShell(
      "\(dbkeyPath) export \(path) \(rekeyed) --key-fd 3 --new-passphrase-fd 0 3<\(keyFile)",
      input: "new secret\n")
    #expect(process.status == 0, "\(process.stderr)")
    var config = Configuration()
    config.key = .passphrase("new secret")
    #expect(
      try await DatabaseQueue(path: rekeyed, configuration: config).read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
      } == 2)
    #expect(fileBytes(path) == before)
  }

  @Test("migrate of a database in the current format writes nothing, no backup either")
  func migrate() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let before = fileBytes(path)
    let result = try await dbkey(["migrate", path, "--key-fd", "0"], input: rawKeyHex + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("already in the current SQLCipher format"), "\(result.stdout)")
    #expect(directory.fileNames() == ["db.sqlite"])
    #expect(fileBytes(path) == before)
    #expect(try await dbkey(["verify", path, "--key-fd", "0"], input: rawKeyHex + "\n").status == 0)
  }

  @Test("info reports an SQLCipher 3 file's format, and the linked format once migrate upgraded it")
  func migrateFormat3() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = Configuration()
    config.key = .passphrase("format three")
    config.cipher.compatibility = 3
    try await DatabaseQueue(path: path, configuration: config).write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('kept')")
    }
    func format() async throws -> Int? {
      let result = try await dbkey(["info", path, "--passphrase-fd", "0", "--json"], input: "format three\n")
      #expect(result.status == 0, "\(result.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      return json?["cipherFormat"] as? Int
    }
    #expect(try await format() == 3)
    // Before the migration, verify and export read the old format.
    let verify = try await dbkey(["verify", path, "--passphrase-fd", "0"], input: "format three\n")
    #expect(verify.status == 0, "\(verify.stderr)")
    let plain = directory.path("plain.sqlite")
    let export = try await dbkey(
      ["export", path, plain, "--plaintext", "--passphrase-fd", "0"], input: "format three\n")
    #expect(export.status == 0, "\(export.stderr)")
    #expect(
      try await DatabaseQueue(path: plain).read { db in try String.fetchAll(db, sql: "SELECT x FROM t") } == [
        "kept"
      ])
    let result = try await dbkey(["migrate", path, "--passphrase-fd", "0"], input: "format three\n")
    #expect(result.status == 0, "\(result.stderr)")
    let linked = try #require(
      SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) })
    #expect(try await format() == linked)
    config.cipher.compatibility = nil
    #expect(
      try await DatabaseQueue(path: path, configuration: config).read { db in
        try String.fetchAll(db, sql: "SELECT x FROM t")
      } == ["kept"])
  }

  @Test("watch prints a line per commit of another process")
  func watch() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let watcher = try SpawnedProcess(
      dbkeyPath, ["watch", path, "--key-fd", "0", "--count", "2", "--keep-journal"], input: rawKeyHex + "\n")
    #expect(await watcher.waitForLine(startingWith: "watching") != nil, "\(watcher.errorOutput)")
    // Watching a rollback journal takes short read locks: the writer waits for them.
    var config = rawKeyConfiguration()
    config.busyMode = .timeout(10)
    let writer = try DatabaseQueue(path: path, configuration: config)
    // Commits closer together than one check of data_version share a line:
    // the second commit waits for the line of the first.
    try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES ('one')") }
    #expect(await watcher.waitForLine(startingWith: "commit 1") != nil, "\(watcher.errorOutput)")
    try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES ('two')") }
    #expect(await watcher.waitForExit() == 0, "\(watcher.errorOutput)")
    #expect(watcher.output.filter { $0.hasPrefix("commit ") }.count == 2)
  }
}

/// Runs a shell command line (for descriptor redirections), with `input` on stdin.
private func runShell(_ command: String, input: String) async throws -> (
  status: Int32, stdout: String, stderr: String
) {
  try await runProcess("/bin/sh", ["-c", command], input: input)
}
