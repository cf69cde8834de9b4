import Foundation
import Sealite
import Testing

/// A raw key line, as dbkey reads it from a descriptor. The newline ends the
/// read: waiting for end of file could last as long as some other child
/// process that inherited the pipe.
private func hex(_ byte: UInt8) -> String {
  String(repeating: String(format: "%02x", byte), count: 32) + "\n"
}

@Suite("dbkey with the keyring")
struct DbkeyKeyringTests {
  @Test("init creates an encrypted database whose key only the keyring holds")
  func initDatabase() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let result = try await dbkey(["init", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try await items(in: directory) == ["db.sqlite|"])
    #expect(try await dbkey(["verify", path]).status == 0)
    let info = try await dbkey(["info", path, "--json"])
    #expect(info.status == 0 && info.stdout.contains("keyring"))
    // The file is encrypted: it does not open without a key.
    #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path).read { _ in } }
    // The list never shows the secret.
    #expect(!(try await dbkey(["keyring", "list"]).stdout.lowercased().contains("x'")))
    // A second init refuses, and changes nothing.
    let before = fileBytes(path)
    #expect(try await dbkey(["init", path]).status == 73)
    #expect(fileBytes(path) == before)
    #expect(try await items(in: directory) == ["db.sqlite|"])
  }

  @Test("import encrypts a plaintext database into a new file keyed from the keyring")
  func importPlaintext() async throws {
    let directory = TemporaryDirectory()
    let plain = directory.path("plain.sqlite")
    let plainQueue = try DatabaseQueue(path: plain)
    try await plainQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('secret text')")
    }
    try plainQueue.close()
    let plainBytes = fileBytes(plain)
    let out = directory.path("out.sqlite")
    let result = try await dbkey(["import", plain, out])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(fileBytes(plain) == plainBytes)
    #expect(try await dbkey(["verify", out]).status == 0)
    #expect(try #require(fileBytes(out)).range(of: Data("secret text".utf8)) == nil)
    // An existing output is refused and the keyring stays as it was.
    let itemsBefore = try await items(in: directory)
    let outBytes = fileBytes(out)
    #expect(try await dbkey(["import", plain, out]).status == 73)
    #expect(fileBytes(out) == outBytes)
    #expect(try await items(in: directory) == itemsBefore)
    // An encrypted source is not a plaintext database.
    #expect(try await dbkey(["import", out, directory.path("again.sqlite")]).status == 65)
    #expect(try await items(in: directory) == itemsBefore)
  }

  @Test("rekey re-encrypts with a new key, keeps it in the keyring, and leaves no pending item")
  func rekey() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let before = fileBytes(path)
    let result = try await dbkey(["rekey", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(fileBytes(path) != before)
    #expect(try await dbkey(["verify", path]).status == 0)
    #expect(try await items(in: directory) == ["db.sqlite|"])
    // To a passphrase, read from a descriptor.
    #expect(
      try await dbkey(["rekey", path, "--new-passphrase-fd", "0"], input: "a new passphrase\n").status == 0)
    var config = Configuration()
    config.key = .passphrase("a new passphrase")
    #expect(
      try await DatabaseQueue(path: path, configuration: config).read { db in
        try Int.fetchOne(db, sql: "SELECT 1")
      } == 1)
  }

  @Test("recover settles a key change interrupted before or after the database changed")
  func recover() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let keyA = try DatabaseKey.raw(Data(repeating: 0xA1, count: 32))
    let keyB = try DatabaseKey.raw(Data(repeating: 0xB2, count: 32))
    var config = Configuration()
    config.key = keyA
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    try dbQueue.close()
    #expect(try await dbkey(["keyring", "store", path, "--key-fd", "0"], input: hex(0xA1)).status == 0)

    // Crash after the database changed: it opens with the pending key only.
    try DatabaseQueue.changeKeyForTest(path: path, from: keyA, to: keyB)
    #expect(
      try await dbkey(
        ["keyring", "store", path, "--key-fd", "0", "--name", "sealite.pending-key"], input: hex(0xB2)
      )
      .status == 0)
    #expect(try await items(in: directory) == ["db.sqlite|", "db.sqlite||pending"])
    let recovered = try await dbkey(["recover", path])
    #expect(recovered.status == 0 && recovered.stdout.contains("new key"))
    #expect(try await items(in: directory) == ["db.sqlite|"])
    #expect(try await dbkey(["verify", path]).status == 0)

    // Crash before the database changed: the stored key still opens it.
    try DatabaseQueue.changeKeyForTest(path: path, from: keyB, to: keyA)
    #expect(
      try await dbkey(
        ["keyring", "store", path, "--key-fd", "0", "--name", "sealite.pending-key"], input: hex(0xA1)
      )
      .status == 0)
    try DatabaseQueue.changeKeyForTest(path: path, from: keyA, to: keyB)
    // Every open through the keyring settles the pending state too.
    #expect(try await dbkey(["info", path]).status == 0)
    #expect(try await items(in: directory) == ["db.sqlite|"])
    #expect(try await dbkey(["verify", path]).status == 0)
  }

  @Test("verify reports a plaintext file and a missing key with non-zero exits")
  func verifyWithoutKey() async throws {
    let directory = TemporaryDirectory()
    let plain = directory.path("plain.sqlite")
    let plainQueue = try DatabaseQueue(path: plain)
    try await plainQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    try plainQueue.close()
    let result = try await dbkey(["verify", plain])
    #expect(result.status == 65 && result.stderr.contains("not encrypted"))
    let secret = directory.path("secret.sqlite")
    let secretQueue = try DatabaseQueue(path: secret, configuration: rawKeyConfiguration())
    try await secretQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    try secretQueue.close()
    let missing = try await dbkey(["verify", secret])
    #expect(missing.status == 66 && missing.stderr.contains("no key"))
  }

  @Test("dump prints the content of a database keyed from the keyring, in each format, and changes nothing")
  func dump() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try await dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL);
          INSERT INTO player VALUES (2, 'Barbara', NULL), (1, 'Arthur', 1.5);
          """)
    }
    try dbQueue.close()
    #expect(try await dbkey(["keyring", "store", path, "--key-fd", "0"], input: hex(0x42)).status == 0)
    let before = fileBytes(path)

    let debug = try await dbkey(["dump", path])
    #expect(debug.status == 0, "\(debug.stderr)")
    #expect(
      debug.stdout == """
        sqlite_master
        CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL);

        player
        1|Arthur|1.5
        2|Barbara|

        """)
    let json = try await dbkey(["dump", path, "--format", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    #expect(
      json.stdout.hasSuffix(
        "[{\"id\":1,\"name\":\"Arthur\",\"score\":1.5},\n{\"id\":2,\"name\":\"Barbara\",\"score\":null}]\n"))
    // Each format prints what the library prints; a key given on a
    // descriptor opens the database as well as the keyring's.
    let reader = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    for (name, format) in [
      ("line", LineDumpFormat()), ("list", ListDumpFormat()), ("quote", QuoteDumpFormat()),
    ]
      as [(String, any DumpFormat)]
    {
      let output = DumpOutput()
      try reader.dumpContent(format: format, to: output)
      let result = try await dbkey(["dump", path, "--format=\(name)", "--key-fd", "0"], input: hex(0x42))
      #expect(result.status == 0 && result.stdout == output.text, "\(name): \(result.stderr)")
      #expect(!result.stdout.contains("4242"))
    }
    try reader.close()
    #expect(fileBytes(path) == before)

    #expect(try await dbkey(["dump", path, "--json"]).stdout == json.stdout)
    #expect(try await dbkey(["dump", path, "--format", "csv"]).status == 64)
    #expect(try await dbkey(["dump", path, "--format", "list", "--json"]).status == 64)
    #expect(try await dbkey(["dump", directory.path("missing.sqlite")]).status == 66)
    let help = try await dbkey(["dump", "--help"])
    #expect(help.status == 0 && help.stdout.contains("usage: dbkey dump DB"))
  }

  @Test("Without a session bus, keyring commands exit 69 and change nothing")
  func noSessionBus() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let result = try await runProcess(
      "/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus", dbkeyPath, "init", path],
      input: "")
    #expect(result.status == 69, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}

extension DatabaseQueue {
  /// Changes the key of the database at `path` (tests simulate interrupted key changes).
  static func changeKeyForTest(path: String, from old: DatabaseKey, to new: DatabaseKey) throws {
    var config = Configuration()
    config.key = old
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try dbQueue.changeKey(to: new)
    try dbQueue.close()
  }
}

@Suite("dbkey export with the keyring")
struct DbkeyExportKeyringTests {
  @Test("export takes DB's key from the keyring and keeps OUT's new key there")
  func exportNewKey() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let out = directory.path("copy.sqlite")
    let result = try await dbkey(["export", path, out, "--new-key"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try await items(in: directory) == ["copy.sqlite|", "db.sqlite|"])
    #expect(try await dbkey(["verify", out]).status == 0)
    // A failed export (OUT exists) leaves the keyring as it was.
    let before = try await items(in: directory)
    #expect(try await dbkey(["export", path, out, "--new-key"]).status == 73)
    #expect(try await items(in: directory) == before)
    // Plaintext output keeps no key.
    let plain = directory.path("plain.sqlite")
    #expect(try await dbkey(["export", path, plain, "--plaintext"]).status == 0)
    #expect(try await items(in: directory) == before)
    #expect(try await DatabaseQueue(path: plain).read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
  }
}

@Suite("dbkey failures leave everything as it was")
struct DbkeyFailureTests {
  @Test("export and import to an output that can not be created exit 73 and store no key")
  func unwritableOutput() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let plain = directory.path("plain.sqlite")
    #expect(try await dbkey(["export", path, plain, "--plaintext"]).status == 0)
    let aFile = directory.path("a-file")
    try Data("not a directory".utf8).write(to: URL(fileURLWithPath: aFile))
    let itemsBefore = try await items(in: directory)
    let namesBefore = directory.fileNames()
    let bytesBefore = fileBytes(path)
    let outputs = [
      (directory.path("missing/out.sqlite"), "does not exist"),
      (aFile + "/out.sqlite", "is not a directory"),
      (directory.url.path, "is a directory"),
    ]
    for (out, message) in outputs {
      for arguments in [["export", path, out, "--new-key"], ["import", plain, out]] {
        let result = try await dbkey(arguments)
        #expect(result.status == 73, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      }
    }
    // A directory is never overwritten, even with --force.
    let forced = try await dbkey(["export", path, directory.url.path, "--new-key", "--force"])
    #expect(forced.status == 73 && forced.stderr.contains("is a directory"), "\(forced.stderr)")
    #expect(try await items(in: directory) == itemsBefore)
    #expect(directory.fileNames() == namesBefore)
    #expect(fileBytes(path) == bytesBefore)
  }

  @Test("A rekey that finds the database locked exits 75 and changes neither the file nor the keyring")
  func rekeyWhileLocked() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let setup = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try await setup.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
    try setup.close()
    #expect(try await dbkey(["keyring", "store", path, "--key-fd", "0"], input: hex(0x42)).status == 0)
    let itemsBefore = try await items(in: directory)
    let bytesBefore = fileBytes(path)

    // Another connection holds the write lock (readers still read): the key
    // checks pass, the new key is stored as pending, and the re-encryption fails.
    // Then with an exclusive lock, where even the checks can not read.
    for lock in ["IMMEDIATE", "EXCLUSIVE"] {
      var config = rawKeyConfiguration()
      config.allowsUnsafeTransactions = true
      let holder = try DatabaseQueue(path: path, configuration: config)
      try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN \(lock) TRANSACTION") }
      let result = try await dbkey(["rekey", path])
      #expect(result.status == 75, "\(lock): \(result.stderr)")
      #expect(result.stderr.contains("locked"))
      try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
      try holder.close()
      #expect(fileBytes(path) == bytesBefore)
      #expect(try await items(in: directory) == itemsBefore)
    }

    #expect(fileBytes(path) == bytesBefore)
    #expect(try await items(in: directory) == itemsBefore)
    #expect(try await dbkey(["verify", path]).status == 0)
  }
}
