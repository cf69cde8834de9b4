import Foundation
import Sealite
import Testing

// What an operator sees of dbkey: one exit code per condition of the table in
// `dbkey --help`, messages in the operator's words, keys that are never lost
// (forget, move, escrow), JSON that scripts can parse, and a command line that
// keeps its promises. Every failing command is checked to leave the files and
// the keyring items as they were: a failure that changed something would be
// worse than the failure itself.

private let keyHex = String(repeating: "42", count: 32)
// Key lines end with a newline: it ends dbkey's read of the key, where waiting
// for end of file could last as long as another child that inherited the pipe.
private let keyLine = keyHex + "\n"

/// An encrypted database keyed with the raw key 0x42…, with `rows` rows in `t`.
private func makeDatabase(_ path: String, rows: Int = 3) throws {
  let dbQueue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
  try dbQueue.write { db in
    try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)")
    for row in 0..<rows {
      try db.execute(
        sql: "INSERT INTO t (a) VALUES (?)", arguments: ["row \(row) " + String(repeating: "x", count: 200)])
    }
  }
  try dbQueue.close()
}

/// An encrypted database (key 0x42…) whose key the keyring holds.
private func makeStoredDatabase(_ path: String, rows: Int = 3) async throws {
  try makeDatabase(path, rows: rows)
  let stored = try await dbkey(["keyring", "store", path, "--key-fd", "0"], input: keyLine)
  #expect(stored.status == 0, "\(stored.stderr)")
}

private func makePlaintextDatabase(_ path: String) throws {
  let dbQueue = try DatabaseQueue(path: path)
  try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('plain')") }
  try dbQueue.close()
}

/// Runs `script` with `/bin/sh -c`, for descriptor redirections and limits;
/// `$0` is dbkey, `$1`… are `arguments`.
private func shell(_ script: String, _ arguments: [String], input: String = "") async throws -> (
  status: Int32, stdout: String, stderr: String
) {
  try await runProcess("/bin/sh", ["-c", script, dbkeyPath] + arguments, input: input)
}

/// What a failed command must leave as it was: every file of the directory
/// (with its bytes) and the keyring items for it.
private struct Snapshot: Equatable, CustomStringConvertible {
  let files: [String: Data]
  let keyringItems: [String]

  init(_ directory: TemporaryDirectory) async throws {
    var files: [String: Data] = [:]
    for name in directory.fileNames() { files[name] = fileBytes(directory.path(name)) ?? Data() }
    self.files = files
    keyringItems = try await items(in: directory)
  }

  var description: String {
    "files \(files.keys.sorted().map { "\($0) (\(files[$0]!.count) bytes, \(files[$0]!.hashValue))" }), items \(keyringItems)"
  }

  /// What differs from `earlier`, in words: the files that appeared, vanished or
  /// changed, and the keyring items on either side.
  func changes(from earlier: Snapshot) -> String {
    let names = Set(files.keys).union(earlier.files.keys).sorted()
    let fileChanges = names.compactMap { name -> String? in
      switch (earlier.files[name], files[name]) {
      case (nil, let now?): return "\(name) appeared (\(now.count) bytes)"
      case (let was?, nil): return "\(name) vanished (was \(was.count) bytes)"
      case (let was?, let now?) where was != now: return "\(name) changed (\(was.count) → \(now.count) bytes)"
      default: return nil
      }
    }
    let itemChanges =
      keyringItems == earlier.keyringItems ? [] : ["items \(earlier.keyringItems) → \(keyringItems)"]
    return (fileChanges + itemChanges).joined(separator: "; ")
  }
}

/// Checks that the files of `directory` and its keyring items are as `before`
/// recorded them, naming what changed.
private func expectUnchanged(
  _ directory: TemporaryDirectory, since before: Snapshot, _ context: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let now = try await Snapshot(directory)
  #expect(now == before, "\(context()) changed: \(now.changes(from: before))", sourceLocation: sourceLocation)
}

/// A JSON value with its type kept: an integer is not a string of digits, a
/// Boolean is not a number (which JSONSerialization's NSNumber would blur).
private indirect enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var integer: Int? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The keys (at any depth) that are not camelCase.
  var nonCamelCaseKeys: [String] {
    switch self {
    case .object(let object):
      return object.flatMap { key, value -> [String] in
        let camel = key.range(of: "^[a-z][a-zA-Z0-9]*$", options: .regularExpression) != nil
        return (camel ? [] : [key]) + value.nonCamelCaseKeys
      }
    case .array(let array): return array.flatMap(\.nonCamelCaseKeys)
    default: return []
    }
  }
}

private func json(_ text: String) -> JSONValue? {
  try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}

/// A directory the process can not create files in, also as root (who ignores
/// permission bits): the immutable attribute as root, mode 0555 otherwise.
private enum ReadOnlyDirectory {
  static func make(_ path: String) -> Bool {
    if getuid() == 0 {
      guard setImmutable(path, true) else { return false }
    } else {
      guard chmod(path, 0o555) == 0 else { return false }
    }
    let probe = path + "/.probe"
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor < 0 else {
      close(descriptor)
      unlink(probe)
      undo(path)
      return false
    }
    return true
  }

  static func undo(_ path: String) {
    if getuid() == 0 {
      _ = setImmutable(path, false)
    } else {
      _ = chmod(path, 0o755)
    }
  }

  static let isPossible: Bool = {
    let directory = TemporaryDirectory("read-only-directory-probe")
    return withExtendedLifetime(directory) {
      let path = directory.path("probe")
      guard
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false))
          != nil
      else { return false }
      defer { undo(path) }
      return make(path)
    }
  }()
}

/// Waits for `process` to exit and returns its status; after `timeout`
/// seconds, records where its threads are, kills it with SIGKILL and returns
/// nil. (SIGKILL: a process spawned from a test's thread inherits its signal
/// mask, where SIGTERM may be blocked.)
private func exitStatus(of process: SpawnedProcess, timeout: TimeInterval) async -> Int32? {
  let status = await process.waitForExit(timeout: timeout, terminating: false)
  if status == nil {
    Issue.record("still running after \(timeout) s; its threads: \(process.threadStates())")
    process.kill()
  }
  return status
}

/// `config` for a writer to a rollback-journal database that dbkey watches:
/// each check of the watch holds a shared lock for a moment, which fails a
/// COMMIT at once in the default busy mode.
private func watchedWriter(_ config: Configuration) -> Configuration {
  var config = config
  config.busyMode = .timeout(10)
  return config
}

// MARK: - The exit codes

// 70 ("a bug") can not be produced on purpose: every condition an operator can
// cause has a code of its own, and finding one that ends in 70 is finding a bug.
// The signals (129, 130, 131, 143) have tests of their own.
@Suite("dbkey exit codes: each condition of the table, with its message, and nothing changed")
struct DbkeyExitCodeTests {
  @Test("0: info, verify and keyring list succeed and change nothing")
  func success() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")
    for arguments in [["info", path], ["verify", path], ["keyring", "list"]] {
      let result = try await dbkey(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
    }
    try await expectUnchanged(directory, since: before)
  }

  @Test(
    "64: an unknown option, a missing or extra argument, a malformed key, --passphrase without a terminal")
  func usage() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")
    let cases: [(arguments: [String], input: String, words: String)] = [
      (["info", path, "--bogus"], "", "unknown option --bogus"),
      (["info"], "", "expected DB"),
      (["info", path, "extra"], "", "got 2 argument"),
      (["info", path, "--key-fd"], "", "--key-fd needs a value"),
      (["rekey", path, "--key-fd", "0"], "", "unknown option --key-fd"),
      (["info", path, "--key-fd", "0"], "42424242\n", "64 hexadecimal digits"),
      (["info", path, "--key-fd", "0"], String(repeating: "zz", count: 32) + "\n", "64 hexadecimal digits"),
      (["info", path, "--key-fd", "zero"], "", "needs a file descriptor number"),
    ]
    for (arguments, input, words) in cases {
      let result = try await dbkey(arguments, input: input)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
    }
    // setsid: a new session, with no controlling terminal to fall back on.
    // (Two passphrases that differ are typed on a terminal: DbkeyPromptTests.)
    let noTerminal = try await runProcess(
      "/usr/bin/setsid", ["--wait", dbkeyPath, "info", path, "--passphrase"], input: "")
    #expect(noTerminal.status == 64, "\(noTerminal.stderr)")
    #expect(noTerminal.stderr.contains("no terminal"), "\(noTerminal.stderr)")
    try await expectUnchanged(directory, since: before)
  }

  @Test(
    "65: a wrong key, a key for a plaintext file, no key for verify, an empty file, a file that is no database"
  )
  func cannotOpen() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let plain = directory.path("plain.sqlite")
    try makePlaintextDatabase(plain)
    let empty = directory.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let text = directory.path("notes.txt")
    try Data(String(repeating: "not a database at all\n", count: 300).utf8).write(
      to: URL(fileURLWithPath: text))
    let before = try await Snapshot(directory)
    let otherKey = String(repeating: "17", count: 32) + "\n"
    let cases: [(arguments: [String], input: String, words: String)] = [
      (["info", path, "--key-fd", "0"], otherKey, "key does not open"),
      (["verify", path, "--passphrase-fd", "0"], "not the passphrase\n", "key does not open"),
      (["info", plain, "--key-fd", "0"], keyLine, "not encrypted"),
      (["verify", plain], "", "not encrypted"),
      (["info", empty, "--key-fd", "0"], keyLine, "is empty: not a database"),
      (["info", text, "--key-fd", "0"], keyLine, "not a database"),
      (["import", path, directory.path("imported.sqlite")], "", "is not a plaintext SQLite database"),
    ]
    for (arguments, input, words) in cases {
      let result = try await dbkey(arguments, input: input)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
      try await expectUnchanged(directory, since: before, "\(arguments)")
    }
  }

  @Test("65: a hot journal that a read-only command can not roll back names dbkey recover")
  func hotJournal() async throws {
    let directory = TemporaryDirectory()
    let original = directory.path("original.sqlite")
    try makeDatabase(original, rows: 200)
    // A transaction larger than the page cache spills to the file: its journal
    // is then hot. A copy of both files taken meanwhile is what a crash leaves.
    var config = rawKeyConfiguration()
    config.allowsUnsafeTransactions = true
    let holder = try DatabaseQueue(path: original, configuration: config)
    try await holder.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA cache_size = 2; BEGIN IMMEDIATE; UPDATE t SET a = a || ' changed'")
    }
    let crashed = directory.path("crashed.sqlite")
    try FileManager.default.copyItem(atPath: original, toPath: crashed)
    try FileManager.default.copyItem(atPath: original + "-journal", toPath: crashed + "-journal")
    try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    try holder.close()
    try #require((fileBytes(crashed + "-journal")?.count ?? 0) > 0)
    let before = try await Snapshot(directory)

    for arguments in [
      // (Commands that open DB for writing roll the transaction back, as SQLite does.)
      ["info", crashed], ["verify", crashed],
    ] {
      let command = arguments[0]
      let result = try await dbkey(arguments + ["--key-fd", "0"], input: keyLine)
      #expect(result.status == 65, "\(command): \(result.stderr)")
      #expect(
        result.stderr.contains("interrupted by a crash") && result.stderr.contains("dbkey recover"),
        "\(command): \(result.stderr)")
    }
    try await expectUnchanged(directory, since: before)
  }

  @Test("66: no database file, or no key for it in the keyring")
  func notFound() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    // Encrypted, but its key was never stored.
    try makeDatabase(path)
    let missing = directory.path("missing.sqlite")
    let before = try await Snapshot(directory)
    for command in ["info", "verify", "rekey", "migrate", "recover"] {
      let result = try await dbkey([command, missing])
      #expect(result.status == 66, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("no database file at \(missing)"), "\(command): \(result.stderr)")
    }
    for command in ["info", "verify", "rekey"] {
      let result = try await dbkey([command, path])
      #expect(result.status == 66, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("holds no key"), "\(command): \(result.stderr)")
      #expect(result.stderr.contains("dbkey keyring store"), "\(command): \(result.stderr)")
    }
    try await expectUnchanged(directory, since: before)
  }

  @Test("69: with no session bus at the address given, the keyring is unavailable and nothing changes")
  func keyringUnavailable() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")
    for arguments in [["info", path], ["rekey", path], ["init", directory.path("new.sqlite")]] {
      let result = try await runProcess(
        "/usr/bin/env",
        ["DBUS_SESSION_BUS_ADDRESS=unix:path=\(directory.path("no-bus-here"))", dbkeyPath] + arguments)
      #expect(result.status == 69, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("no D-Bus session bus"), "\(arguments): \(result.stderr)")
    }
    try await expectUnchanged(directory, since: before)
  }

  @Test("73: an existing output, a symbolic link (even with --force), init on a dangling link")
  func cannotCreateOutput() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let existing = directory.path("existing.sqlite")
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
    // A link to another database with a key of its own: neither may change.
    let target = directory.path("target.sqlite")
    #expect(try await dbkey(["init", target]).status == 0)
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let dangling = directory.path("dangling.sqlite")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: directory.path("nowhere.sqlite"))
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")

    let cases: [(arguments: [String], words: String)] = [
      (["export", path, existing, "--new-key"], "already exists"),
      (["export", path, existing, "--plaintext"], "already exists"),
      (["init", existing], "already exists"),
      (["export", path, link, "--new-key"], "symbolic link"),
      (["export", path, link, "--new-key", "--force"], "symbolic link"),
      (["export", path, link, "--plaintext", "--force"], "symbolic link"),
      (["init", dangling], "symbolic link"),
    ]
    for (arguments, words) in cases {
      let result = try await dbkey(arguments)
      #expect(result.status == 73, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
    }
    try await expectUnchanged(directory, since: before)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(!FileManager.default.fileExists(atPath: directory.path("nowhere.sqlite")))
    // The link's target still opens with the key the keyring holds for it.
    #expect(try await dbkey(["verify", target]).status == 0)
  }

  @Test(
    "73: rekey in a read-only directory says read-only (not busy); init, export and import say not writable",
    .enabled(if: ReadOnlyDirectory.isPossible)
  )
  func readOnlyDirectory() async throws {
    let directory = TemporaryDirectory()
    let inner = directory.path("frozen")
    try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: false)
    let path = inner + "/db.sqlite"
    try await makeStoredDatabase(path)
    let itemsBefore = try await items(in: directory)
    let bytesBefore = fileBytes(path)
    try #require(ReadOnlyDirectory.make(inner))
    // Before the directory goes: an immutable directory could not be emptied.
    defer { withExtendedLifetime(directory) { ReadOnlyDirectory.undo(inner) } }

    let result = try await dbkey(["rekey", path])
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.contains("read-only"), "\(result.stderr)")
    #expect(!result.stderr.contains("locked"), "\(result.stderr)")
    // New files can not be made there either.
    let plain = directory.path("plain.sqlite")
    try makePlaintextDatabase(plain)
    for arguments in [
      ["init", inner + "/new.sqlite"], ["export", path, inner + "/out.sqlite", "--new-key"],
      ["import", plain, inner + "/imported.sqlite"],
    ] {
      let created = try await dbkey(arguments)
      #expect(created.status == 73, "\(arguments): \(created.stderr)")
      #expect(created.stderr.contains("is not writable"), "\(arguments): \(created.stderr)")
    }
    #expect(fileBytes(path) == bytesBefore)
    #expect(try FileManager.default.contentsOfDirectory(atPath: inner) == ["db.sqlite"])
    #expect(try await items(in: directory) == itemsBefore)
    #expect(try await dbkey(["verify", path]).status == 0)
  }

  @Test("74: a write the file system refuses (a file size limit) is an input/output error; no file is left")
  func ioError() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    // Larger than the limit below: the copy fails in the middle.
    try await makeStoredDatabase(path, rows: 600)
    #expect((fileBytes(path)?.count ?? 0) > 64 * 512 * 2)
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")
    // 64 blocks of 512 bytes; an ignored SIGXFSZ stays ignored in dbkey, whose
    // writes beyond the limit then fail with EFBIG.
    let result = try await shell(
      "trap '' XFSZ; ulimit -f 64; exec \"$0\" export \"$1\" \"$2\" --new-key",
      [path, directory.path("out.sqlite")])
    #expect(result.status == 74, "\(result.stderr)")
    #expect(result.stderr.contains("input/output error"), "\(result.stderr)")
    try await expectUnchanged(directory, since: before)
    // The control: without the limit, the same export succeeds.
    #expect(try await dbkey(["export", path, directory.path("out.sqlite"), "--new-key"]).status == 0)
  }

  @Test("75: a database another connection holds locked is busy, and nothing changes")
  func busy() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")
    var config = rawKeyConfiguration()
    config.allowsUnsafeTransactions = true
    let holder = try DatabaseQueue(path: path, configuration: config)
    try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }
    let result = try await dbkey(["rekey", path])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("locked"), "\(result.stderr)")
    try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    try holder.close()
    try await expectUnchanged(directory, since: before)
    // The control: once the lock is gone, the same rekey succeeds.
    #expect(try await dbkey(["rekey", path]).status == 0)
  }

  @Test("75: a key operation of another process (its DatabaseFileLock) is waited for, then rekey succeeds")
  func waitsForAnotherOperation() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = fileBytes(path)
    // Held for a second: dbkey waits up to 30 s. (Held longer, dbkey would
    // exit 75 "another operation … is in progress"; that takes 30 s to see.)
    let lock = try DatabaseFileLock.acquire(forDatabaseAtPath: path)
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) { lock.release() }
    let started = ContinuousClock.now
    let result = try await dbkey(["rekey", path])
    let waited = ContinuousClock.now - started
    #expect(result.status == 0, "\(result.stderr)")
    // It did wait: the lock this process held was the one dbkey takes.
    #expect(waited >= .milliseconds(900), "rekey took \(waited)")
    #expect(fileBytes(path) != before)
    #expect(try await items(in: directory) == ["db.sqlite|"])
    #expect(try await dbkey(["verify", path]).status == 0)
  }

  @Test("76: a flipped byte, a file truncated at a page boundary, and rekey of a tampered database")
  func damaged() async throws {
    // A name without the words the messages are checked for.
    let directory = TemporaryDirectory("pageChecks")
    let original = directory.path("original.sqlite")
    try await makeStoredDatabase(original, rows: 100)
    let info = try #require(json(try await dbkey(["info", original, "--json"]).stdout))
    let pageSize = try #require(info["pageSize"]?.integer)
    let bytes = try #require(fileBytes(original))
    #expect(bytes.count / pageSize >= 5)
    let escrow = directory.path("key.escrow")
    #expect(
      try await shell("exec \"$0\" keyring export-key \"$1\" --to-fd 3 3>\"$2\"", [original, escrow]).status
        == 0)

    // A copy whose key is stored while it is whole (import-key checks that the
    // key opens it), then damaged: the damage comes after the key was kept.
    func damagedCopy(_ name: String, _ damage: (inout Data) -> Void) async throws -> String {
      let path = directory.path(name)
      try bytes.write(to: URL(fileURLWithPath: path))
      let imported = try await shell(
        "exec \"$0\" keyring import-key \"$1\" --from-fd 3 3<\"$2\"", [path, escrow])
      #expect(imported.status == 0, "\(imported.stderr)")
      var data = bytes
      damage(&data)
      try data.write(to: URL(fileURLWithPath: path))
      return path
    }
    let tampered = try await damagedCopy("flipped.sqlite") { $0[3 * pageSize + 100] ^= 0xFF }
    let truncated = try await damagedCopy("cut.sqlite") { $0 = $0.prefix(3 * pageSize) }
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")

    let verify = try await dbkey(["verify", tampered])
    #expect(verify.status == 76, "\(verify.stderr)")
    #expect(verify.stdout.contains("FAILED"), "\(verify.stdout)")
    if !TestEnvironment.isLegacy { #expect(verify.stdout.contains("tampered page: 4"), "\(verify.stdout)") }
    let cut = try await dbkey(["verify", truncated])
    #expect(cut.status == 76, "\(cut.stderr)")
    #expect(cut.stderr.contains("truncated or damaged"), "\(cut.stderr)")
    for path in [tampered, truncated] {
      let rekey = try await dbkey(["rekey", path])
      #expect(rekey.status == 76 || rekey.status == 65, "\(path): \(rekey.stderr)")
      #expect(rekey.status != 75, "not busy: nothing else holds it")
      // The words are the message's, not the file name's.
      let message = rekey.stderr.replacingOccurrences(of: directory.url.path, with: "DIR")
      #expect(message.contains("damaged") || message.contains("tampered"), "\(path): \(rekey.stderr)")
    }
    let after = try await Snapshot(directory)
    #expect(after == before, "\(before) → \(after)")
    // The control: the undamaged original verifies.
    #expect(try await dbkey(["verify", original]).status == 0)
  }

  @Test("77: forget refuses while the database file exists, without --force and without a terminal")
  func refused() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = try await Snapshot(directory)
    #expect(!before.keyringItems.isEmpty, "the snapshot sees the keyring: \(before)")
    let result = try await runProcess(
      "/usr/bin/setsid", ["--wait", dbkeyPath, "keyring", "forget", path], input: "")
    #expect(result.status == 77, "\(result.stderr)")
    #expect(result.stderr.contains("\(path) exists"), "\(result.stderr)")
    #expect(result.stderr.contains("only copy of its key"), "\(result.stderr)")
    try await expectUnchanged(directory, since: before)
    #expect(try await dbkey(["verify", path]).status == 0)
  }
}

// MARK: - A closed standard output

@Suite("dbkey with a closed standard output")
struct DbkeyClosedOutputTests {
  /// Runs dbkey with standard output a pipe that nobody reads any more (its
  /// reading end closed before dbkey starts): every write fails with EPIPE.
  private func runWithoutReader(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
    var descriptors: [Int32] = [0, 0]
    try #require(pipe(&descriptors) == 0)
    close(descriptors[0])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dbkeyPath)
    process.arguments = arguments
    let writer = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
    let errors = Pipe()
    process.standardOutput = writer
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try runUnmasked(process)
    try writer.close()
    let errorHandle = errors.fileHandleForReading
    let errorText = await onThreadOfItsOwn {
      let text = String(decoding: errorHandle.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return text
    }
    #expect(process.terminationReason == .exit, "\(arguments): killed by a signal")
    return (process.terminationStatus, errorText)
  }

  @Test("keyring list, info and probe exit 0 and say nothing when the reader of standard output is gone")
  func closedPipe() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = fileBytes(path)
    for arguments in [["keyring", "list"], ["info", path], ["probe"], ["probe", "--json"]] {
      // The control: with a reader, each has something to write.
      #expect(try await dbkey(arguments).stdout.isEmpty == false, "\(arguments)")
      let result = try await runWithoutReader(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
    }
    #expect(fileBytes(path) == before)
  }

  @Test("keyring list, info and probe exit 0 and say nothing when standard output is not open at all")
  func closedDescriptor() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let before = fileBytes(path)
    for arguments in [["keyring", "list"], ["info", path], ["probe"]] {
      let result = try await shell("exec 1>&-; exec \"$0\" \"$@\"", arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
    }
    // Whatever dbkey opened in the place of standard output, it wrote nothing there.
    #expect(fileBytes(path) == before)
    #expect(try await dbkey(["verify", path]).status == 0)
  }
}

// MARK: - Forget, move and escrow

/// Types `answer` at the question of `keyring forget` on a terminal.
private func forgetOnTerminal(_ path: String, answer: String) async throws -> (status: Int32?, screen: String)
{
  let session = try SpawnedProcess.onTerminal(dbkeyPath, ["keyring", "forget", path])
  let question = await session.waitForText("Type yes")
  #expect(question != nil, "no question: \(session.text)")
  _ = await session.waitForText(": ")
  session.send(answer + "\n")
  return (await exitStatus(of: session, timeout: 30), session.text)
}

@Suite("dbkey keyring forget, move and escrow never lose a key by accident")
struct DbkeyKeyCustodyTests {
  @Test("forget asks on a terminal: yes forgets, anything else refuses with 77; --force forgets")
  func forget() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    for answer in ["no", "y", ""] {
      let (status, screen) = try await forgetOnTerminal(path, answer: answer)
      #expect(status == 77, "\(answer): \(screen)")
      #expect(screen.contains("refusing to forget"), "\(screen)")
      #expect(try await items(in: directory) == ["db.sqlite|"])
    }
    let (status, screen) = try await forgetOnTerminal(path, answer: "yes")
    #expect(status == 0, "\(screen)")
    #expect(screen.contains("forgot the key of \(path)"), "\(screen)")
    #expect(try await items(in: directory) == [])

    let other = directory.path("other.sqlite")
    try await makeStoredDatabase(other)
    let forced = try await dbkey(["keyring", "forget", other, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try await items(in: directory) == [])
  }

  @Test("forget of a database whose file is gone needs no --force")
  func forgetWithoutFile() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    try FileManager.default.removeItem(atPath: path)
    let result = try await runProcess(
      "/usr/bin/setsid", ["--wait", dbkeyPath, "keyring", "forget", path], input: "")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try await items(in: directory) == [])
    // Forgetting again: there is nothing to forget.
    #expect(try await dbkey(["keyring", "forget", path]).status == 66)
  }

  @Test("export-key writes one escrow line to a descriptor, import-key stores it back: a raw key")
  func escrowRawKey() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let escrow = directory.path("key.escrow")
    let exported = try await shell(
      "exec \"$0\" keyring export-key \"$1\" --to-fd 3 3>\"$2\"", [path, escrow])
    #expect(exported.status == 0, "\(exported.stderr)")
    let line = String(decoding: try #require(fileBytes(escrow)), as: UTF8.self)
    #expect(line == "sealite-key:raw:\(keyHex)\n")
    #expect(!exported.stdout.contains(keyHex) && !exported.stderr.contains(keyHex))

    #expect(try await dbkey(["keyring", "forget", path, "--force"]).status == 0)
    // The control: without its key, the database does not open.
    #expect(try await dbkey(["info", path]).status == 66)
    let imported = try await shell(
      "exec \"$0\" keyring import-key \"$1\" --from-fd 3 3<\"$2\"", [path, escrow])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(!imported.stdout.contains(keyHex) && !imported.stderr.contains(keyHex))
    let info = try await dbkey(["info", path, "--json"])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(json(info.stdout)?["keyKind"] == .string("raw"))
    #expect(try await items(in: directory) == ["db.sqlite|"])
  }

  @Test("a passphrase key round-trips through export-key and import-key")
  func escrowPassphrase() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let passphrase = "escrow passphrase é"
    #expect(
      try await dbkey(["rekey", path, "--new-passphrase-fd", "0"], input: passphrase + "\n").status == 0)
    let escrow = directory.path("key.escrow")
    let exported = try await shell(
      "exec \"$0\" keyring export-key \"$1\" --to-fd 3 3>\"$2\"", [path, escrow])
    #expect(exported.status == 0, "\(exported.stderr)")
    let passphraseHex = passphrase.utf8.map { String(format: "%02x", $0) }.joined()
    #expect(
      String(decoding: try #require(fileBytes(escrow)), as: UTF8.self)
        == "sealite-key:passphrase:\(passphraseHex)\n")
    #expect(!exported.stdout.contains(passphraseHex) && !exported.stdout.contains("escrow passphrase"))

    #expect(try await dbkey(["keyring", "forget", path, "--force"]).status == 0)
    #expect(try await dbkey(["info", path]).status == 66)
    #expect(
      try await shell("exec \"$0\" keyring import-key \"$1\" --from-fd 3 3<\"$2\"", [path, escrow]).status
        == 0)
    let info = try await dbkey(["info", path, "--json"])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(json(info.stdout)?["keyKind"] == .string("passphrase"))
  }

  @Test("export-key refuses a terminal (64); import-key stores only a key that opens the file there")
  func escrowRefusals() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let session = try SpawnedProcess.onTerminal(dbkeyPath, ["keyring", "export-key", path, "--to-fd", "0"])
    #expect(await exitStatus(of: session, timeout: 30) == 64, "\(session.text)")
    #expect(session.text.contains("is a terminal"), "\(session.text)")
    #expect(!session.text.contains(keyHex) && !session.text.contains("sealite-key:"))

    let escrow = directory.path("key.escrow")
    #expect(
      try await shell("exec \"$0\" keyring export-key \"$1\" --to-fd 3 3>\"$2\"", [path, escrow]).status == 0)
    // Another database, with another key: the escrowed key does not open it.
    let other = directory.path("other.sqlite")
    #expect(try await dbkey(["init", other]).status == 0)
    let otherBytes = fileBytes(other)
    let itemsBefore = try await items(in: directory)
    let refused = try await shell(
      "exec \"$0\" keyring import-key \"$1\" --from-fd 3 3<\"$2\"", [other, escrow])
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("does not open"), "\(refused.stderr)")
    #expect(try await items(in: directory) == itemsBefore)
    #expect(fileBytes(other) == otherBytes)
    #expect(try await dbkey(["verify", other]).status == 0)
    // A path with no file yet (a database to be restored there) takes it.
    let restored = directory.path("restored.sqlite")
    let stored = try await shell(
      "exec \"$0\" keyring import-key \"$1\" --from-fd 3 3<\"$2\"", [restored, escrow])
    #expect(stored.status == 0, "\(stored.stderr)")
    try FileManager.default.copyItem(atPath: path, toPath: restored)
    #expect(try await dbkey(["verify", restored]).status == 0)
  }

  @Test("keyring move after mv: NEW opens through the keyring and OLD's item is gone")
  func move() async throws {
    let directory = TemporaryDirectory()
    let old = directory.path("old.sqlite")
    let new = directory.path("new.sqlite")
    try await makeStoredDatabase(old)
    try FileManager.default.moveItem(atPath: old, toPath: new)
    // The control: the moved file has no key of its own yet.
    #expect(try await dbkey(["info", new]).status == 66)
    let result = try await dbkey(["keyring", "move", old, new])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try await items(in: directory) == ["new.sqlite|"])
    #expect(try await dbkey(["verify", new]).status == 0)
  }

  @Test("keyring move refuses with 77 while OLD still opens (a copy), and moves with --force")
  func moveOfACopy() async throws {
    let directory = TemporaryDirectory()
    let old = directory.path("old.sqlite")
    let new = directory.path("new.sqlite")
    try await makeStoredDatabase(old)
    try FileManager.default.copyItem(atPath: old, toPath: new)
    let before = try await Snapshot(directory)
    let refused = try await dbkey(["keyring", "move", old, new])
    #expect(refused.status == 77, "\(refused.stderr)")
    #expect(refused.stderr.contains("still opens"), "\(refused.stderr)")
    try await expectUnchanged(directory, since: before)
    #expect(try await dbkey(["verify", old]).status == 0)

    let forced = try await dbkey(["keyring", "move", old, new, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try await items(in: directory) == ["new.sqlite|"])
    #expect(try await dbkey(["verify", new]).status == 0)
  }

  @Test("keyring move refuses with 77 when NEW already has a different key")
  func moveOntoAnotherKey() async throws {
    let directory = TemporaryDirectory()
    let old = directory.path("old.sqlite")
    let new = directory.path("new.sqlite")
    try await makeStoredDatabase(old)
    #expect(try await dbkey(["init", new]).status == 0)
    // An operator moved OLD over NEW: NEW's stored key is the old file's key.
    try FileManager.default.removeItem(atPath: new)
    try FileManager.default.moveItem(atPath: old, toPath: new)
    let before = try await Snapshot(directory)
    #expect(before.keyringItems == ["new.sqlite|", "old.sqlite|"])
    let refused = try await dbkey(["keyring", "move", old, new])
    #expect(refused.status == 77, "\(refused.stderr)")
    #expect(refused.stderr.contains("Nothing was"), "\(refused.stderr)")
    try await expectUnchanged(directory, since: before)
  }

  @Test("import, init and export onto a moved database's old path exit 77 and keep its key")
  func keyOfAMovedDatabase() async throws {
    let directory = TemporaryDirectory()
    let a = directory.path("a.sqlite")
    let b = directory.path("b.sqlite")
    try await makeStoredDatabase(a)
    try FileManager.default.moveItem(atPath: a, toPath: b)
    let plain = directory.path("plain.sqlite")
    try makePlaintextDatabase(plain)
    let source = directory.path("source.sqlite")
    #expect(try await dbkey(["init", source]).status == 0)
    let before = try await Snapshot(directory)

    for arguments in [["import", plain, a], ["init", a], ["export", source, a, "--new-key"]] {
      let result = try await dbkey(arguments)
      #expect(result.status == 77, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("dbkey keyring move"), "\(arguments): \(result.stderr)")
    }
    try await expectUnchanged(directory, since: before)
    #expect(!FileManager.default.fileExists(atPath: a))
    // The key stored under a's path is still b's: moving it makes b open.
    #expect(try await dbkey(["keyring", "move", a, b]).status == 0)
    #expect(try await dbkey(["verify", b]).status == 0)
  }
}

// MARK: - SQLCipher 3 databases

/// A passphrase configuration in the SQLCipher 3 format.
private func format3Configuration(_ passphrase: String) -> Configuration {
  var config = Configuration()
  config.key = .passphrase(passphrase)
  config.cipher.compatibility = 3
  return config
}

private func rowCount(_ path: String, _ config: Configuration) throws -> Int {
  var config = config
  config.readonly = true
  let dbQueue = try DatabaseQueue(path: path, configuration: config)
  defer { try? dbQueue.close() }
  return try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? 0 }
}

// On the legacy leg SQLCipher 3 is the current format: there is nothing older to read.
@Suite("dbkey and SQLCipher 3 databases", .disabled(if: TestEnvironment.isLegacy))
struct DbkeyFormat3Tests {
  @Test("keyring store accepts an SQLCipher 3 passphrase; info reports format 3; rekey keeps it readable")
  func storeAndRekey() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let passphrase = "format three passphrase"
    try await DatabaseQueue(path: path, configuration: format3Configuration(passphrase)).write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('kept')")
    }
    // The control: a wrong passphrase is not stored.
    let wrong = try await dbkey(["keyring", "store", path, "--passphrase-fd", "0"], input: "not it\n")
    #expect(wrong.status == 65, "\(wrong.stderr)")
    #expect(try await items(in: directory) == [])
    let stored = try await dbkey(
      ["keyring", "store", path, "--passphrase-fd", "0"], input: passphrase + "\n")
    #expect(stored.status == 0, "\(stored.stderr)")
    func info() async throws -> JSONValue? {
      let result = try await dbkey(["info", path, "--json"])
      #expect(result.status == 0, "\(result.stderr)")
      return json(result.stdout)
    }
    #expect(try await info()?["cipherFormat"] == .integer(3))
    #expect(try await info()?["keyKind"] == .string("passphrase"))

    let rekey = try await dbkey(["rekey", path])
    #expect(rekey.status == 0, "\(rekey.stderr)")
    #expect(try await info()?["keyKind"] == .string("raw"))
    #expect(try await info()?["cipherFormat"] == .integer(3))
    #expect(try await dbkey(["verify", path]).status == 0)
    let plain = directory.path("plain.sqlite")
    #expect(try await dbkey(["export", path, plain, "--plaintext"]).status == 0)
    #expect(
      try await DatabaseQueue(path: plain).read { db in try String.fetchAll(db, sql: "SELECT x FROM t") } == [
        "kept"
      ])
  }

  @Test("migrate of a current database writes nothing; of an SQLCipher 3 WAL database it keeps every commit")
  func migrate() async throws {
    let directory = TemporaryDirectory()
    let current = directory.path("current.sqlite")
    try await makeStoredDatabase(current)
    let currentBytes = fileBytes(current)
    let nothing = try await dbkey(["migrate", current])
    #expect(nothing.status == 0, "\(nothing.stderr)")
    #expect(nothing.stdout.contains("already in the current SQLCipher format"), "\(nothing.stdout)")
    #expect(fileBytes(current) == currentBytes)
    #expect(!FileManager.default.fileExists(atPath: current + ".before-migrate"))

    // Commits still in the -wal: copied aside while the pool is open (closing
    // it would checkpoint them into the file).
    let passphrase = "wal format three"
    let original = directory.path("original.sqlite")
    let rows = 50
    let pool = try DatabasePool(path: original, configuration: format3Configuration(passphrase))
    try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
    for row in 0..<rows {
      try await pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["row \(row)"])
      }
    }
    let path = directory.path("old.sqlite")
    let mainOnly = directory.path("main-only.sqlite")
    try FileManager.default.copyItem(atPath: original, toPath: path)
    try FileManager.default.copyItem(atPath: original + "-wal", toPath: path + "-wal")
    try FileManager.default.copyItem(atPath: original, toPath: mainOnly)
    try pool.close()
    // The control: the commits are in the -wal, not in the file alone.
    #expect(((try? rowCount(mainOnly, format3Configuration(passphrase))) ?? 0) < rows)
    #expect(try rowCount(path, format3Configuration(passphrase)) == rows)

    let result = try await dbkey(["migrate", path, "--passphrase-fd", "0"], input: passphrase + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("migrated"), "\(result.stdout)")
    // No -wal of the old format beside the new file (SQLite would replay it).
    #expect((fileBytes(path + "-wal")?.count ?? 0) == 0)
    #expect(try rowCount(path, passphraseConfiguration(passphrase)) == rows)
    #expect(try rowCount(path + ".before-migrate", format3Configuration(passphrase)) == rows)
    #expect(try await dbkey(["verify", path, "--passphrase-fd", "0"], input: passphrase + "\n").status == 0)
  }
}

// MARK: - The command line

/// The commands `dbkey --help` lists (`keyring store` is one).
private func listedCommands() async throws -> [String] {
  let help = try await dbkey(["--help"]).stdout
  let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  guard let start = lines.firstIndex(of: "commands:") else { return [] }
  return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
    let text = line.trimmingCharacters(in: .whitespaces)
    return text.range(of: "  ").map { String(text[..<$0.lowerBound]) }
  }
}

@Suite("dbkey's command line keeps its promises")
struct DbkeyCommandLineTests {
  @Test("--opt=value works like --opt value")
  func inlineValues() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let separate = try await dbkey(["info", path, "--key-fd", "0", "--json"], input: keyLine)
    let inline = try await dbkey(["info", path, "--key-fd=0", "--json"], input: keyLine)
    #expect(separate.status == 0 && inline.status == 0, "\(separate.stderr)\(inline.stderr)")
    #expect(inline.stdout == separate.stdout)
    #expect(json(inline.stdout)?["keyKind"] == .string("raw"))
    let copy = directory.path("copy.sqlite")
    let export = try await dbkey(["export", path, copy, "--plaintext", "--key-fd=0"], input: keyLine)
    #expect(export.status == 0, "\(export.stderr)")
    // A flag takes no value.
    #expect(try await dbkey(["info", path, "--json=yes"]).status == 64)
  }

  @Test("--version prints the SQLCipher and SQLite versions")
  func version() async throws {
    let result = try await dbkey(["--version"])
    #expect(result.status == 0)
    let features = SQLiteFeatures.linked
    #expect(result.stdout.contains("SQLite \(features.sqliteVersion)"), "\(result.stdout)")
    #expect(
      result.stdout.contains("SQLCipher \(try #require(features.sqlcipherVersion))"), "\(result.stdout)")
  }

  @Test("dbkey help COMMAND is COMMAND --help, for every command --help lists")
  func helpForEveryCommand() async throws {
    let commands = try await listedCommands()
    // The control: the list was read (16 commands, six of them keyring actions).
    #expect(commands.count >= 16, "\(commands)")
    #expect(commands.contains("keyring import-key") && commands.contains("info"))
    for command in commands {
      let words = command.split(separator: " ").map(String.init)
      let help = try await dbkey(["help"] + words)
      let flag = try await dbkey(words + ["--help"])
      #expect(help.status == 0 && flag.status == 0, "\(command)")
      #expect(help.stdout == flag.stdout, "\(command)")
      #expect(help.stdout.hasPrefix("usage: dbkey \(command)"), "\(command): \(help.stdout)")
    }
  }

  @Test("every option of a command's usage lines is explained in its options list")
  func synopsisOptionsAreExplained() async throws {
    for command in try await listedCommands() {
      let help = try await dbkey(["help"] + command.split(separator: " ").map(String.init)).stdout
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let usage = lines.prefix { !$0.isEmpty }.joined(separator: "\n")
      let options = try #require(lines.firstIndex(of: "options:")).advanced(by: 1)
      let explained = lines[options...].filter { $0.hasPrefix("  --") }
      let named = Set(
        usage.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
      // The control: the usage lines were read (every command has --json).
      #expect(named.contains("--json"), "\(command): \(usage)")
      for option in named.sorted() {
        // `  --name VALUE   explanation`: the explanation is what follows the spelling.
        let line = explained.first { $0.dropFirst(2).split(separator: " ").first.map(String.init) == option }
        let explanation = line?.dropFirst(2).split(
          separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        #expect(line != nil, "\(command): \(option) is not in the options list")
        #expect(
          (explanation?.last?.trimmingCharacters(in: .whitespaces).count ?? 0) > 3,
          "\(command): \(option) has no explanation")
      }
    }
  }

  @Test("an unknown option is 64 for every command; after --, --help is a file name")
  func unknownOptionsAndDoubleDash() async throws {
    for command in try await listedCommands() {
      let result = try await dbkey(command.split(separator: " ").map(String.init) + ["--no-such-option"])
      #expect(result.status == 64, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("unknown option --no-such-option"), "\(command): \(result.stderr)")
    }
    let result = try await dbkey(["info", "--", "--help"])
    #expect(result.status == 66, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("no database file at --help"), "\(result.stderr)")
    #expect(!result.stdout.contains("usage:"))
  }

  @Test("info shows keyKind none for a plaintext database and raw for an init'd one")
  func keyKind() async throws {
    let directory = TemporaryDirectory()
    let plain = directory.path("plain.sqlite")
    try makePlaintextDatabase(plain)
    let created = directory.path()
    #expect(try await dbkey(["init", created]).status == 0)
    let plainInfo = try await dbkey(["info", plain])
    #expect(plainInfo.status == 0, "\(plainInfo.stderr)")
    #expect(plainInfo.stdout.contains("keyKind: none\n"), "\(plainInfo.stdout)")
    #expect(plainInfo.stdout.contains("encrypted: false\n"), "\(plainInfo.stdout)")
    let createdInfo = try await dbkey(["info", created])
    #expect(createdInfo.status == 0, "\(createdInfo.stderr)")
    #expect(createdInfo.stdout.contains("keyKind: raw\n"), "\(createdInfo.stdout)")
    #expect(createdInfo.stdout.contains("encrypted: true\n"), "\(createdInfo.stdout)")
  }

  @Test(
    "--key-fd N and --passphrase-fd N are closed once read: the running process no longer holds the file",
    arguments: ["--key-fd", "--passphrase-fd"])
  func descriptorClosedOnceRead(option: String) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let config = option == "--key-fd" ? rawKeyConfiguration() : passphraseConfiguration("closed once read")
    try await DatabaseQueue(path: path, configuration: config).write { db in
      try db.execute(sql: "CREATE TABLE t (a)")
    }
    let secretFile = directory.path("secret")
    try Data((option == "--key-fd" ? keyLine : "closed once read\n").utf8).write(
      to: URL(fileURLWithPath: secretFile))
    // $$ survives exec: it is dbkey's process id. Descriptor 4 names the same
    // file and is never read: the control that the check sees descriptors at all.
    let watcher = try SpawnedProcess(
      "/bin/sh",
      [
        "-c", "echo pid $$; exec \"$0\" watch \"$1\" \"$3\" 3 --count 1 --keep-journal 3<\"$2\" 4<\"$2\"",
        dbkeyPath, path,
        secretFile, option,
      ], input: "")
    #expect(await watcher.waitForLine(startingWith: "watching") != nil, "\(watcher.errorOutput)")
    let pid = try #require(watcher.value("pid"))
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
    let holdingSecret = descriptors.filter { descriptor in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))
        == secretFile
    }
    #expect(holdingSecret == ["4"], "\(descriptors)")
    try await DatabaseQueue(path: path, configuration: watchedWriter(config)).write { db in
      try db.execute(sql: "INSERT INTO t (a) VALUES ('wake up')")
    }
    #expect(await exitStatus(of: watcher, timeout: 30) == 0, "\(watcher.errorOutput)")
  }
}

// MARK: - watch

@Suite("dbkey watch")
struct DbkeyWatchTests {
  @Test(
    "watch leaves a rollback-journal database in its journal mode, without an option and with --keep-journal",
    arguments: [[], ["--keep-journal"]])
  func keepsJournalMode(options: [String]) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    let watcher = try SpawnedProcess(
      dbkeyPath, ["watch", path, "--key-fd", "0", "--count", "1"] + options, input: keyLine)
    #expect(await watcher.waitForLine(startingWith: "watching") != nil, "\(watcher.errorOutput)")
    let writer = try DatabaseQueue(path: path, configuration: watchedWriter(rawKeyConfiguration()))
    try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES ('seen')") }
    #expect(await exitStatus(of: watcher, timeout: 30) == 0, "\(watcher.errorOutput)")
    #expect(watcher.output.contains { $0.hasPrefix("commit 1") })
    #expect(try await writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    try writer.close()
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test("while watch runs, no commit of a writer in GRDB's default busy mode fails: watching takes no lock")
  func neverFailsAWriter() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeDatabase(path)
    // GRDB's default busy mode: a COMMIT that meets another connection's
    // shared lock fails at once. An operator's watch must not make an
    // application's writes fail (DESIGN: Sealite's background reads never take
    // a lock that can fail someone else's write).
    let writer = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    func failedCommits() -> Int {
      var failed = 0
      for value in 0..<200 {
        do {
          try writer.write { db in
            try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: ["\(value)"])
          }
        } catch let error as DatabaseError
          where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        {
          failed += 1
        } catch {
          Issue.record("\(error)")
        }
      }
      return failed
    }
    // The control: alone, the writer never fails.
    #expect(failedCommits() == 0)
    // Watched with its rollback journal: commits are seen with lock-free reads.
    let journalWatcher = try SpawnedProcess(dbkeyPath, ["watch", path, "--key-fd", "0"], input: keyLine)
    #expect(
      await journalWatcher.waitForLine(startingWith: "watching") != nil, "\(journalWatcher.errorOutput)")
    let failedWithJournal = failedCommits()
    #expect(await journalWatcher.waitForLine(startingWith: "commit ") != nil, "\(journalWatcher.errorOutput)")
    journalWatcher.kill()
    #expect(
      failedWithJournal == 0,
      "\(failedWithJournal) of 200 commits failed with SQLITE_BUSY while dbkey watch ran on a rollback journal"
    )
    #expect(try await writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    // Watched as a WAL database, where readers never block the writer.
    let watcher = try SpawnedProcess(
      dbkeyPath, ["watch", path, "--key-fd", "0", "--switch-to-wal"], input: keyLine)
    #expect(await watcher.waitForLine(startingWith: "watching") != nil, "\(watcher.errorOutput)")
    #expect(try await writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    let failed = failedCommits()
    // The watch saw the commits: it was watching while they were made.
    #expect(await watcher.waitForLine(startingWith: "commit ") != nil, "\(watcher.errorOutput)")
    watcher.kill()
    #expect(failed == 0, "\(failed) of 200 commits failed with SQLITE_BUSY while dbkey watch ran")
    try writer.close()
  }

  @Test("when another process rekeys the database, watch exits 65 and says the key changed")
  func stopsWhenTheKeyChanges() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let watcher = try SpawnedProcess(
      dbkeyPath, ["watch", path, "--count", "100", "--keep-journal"], input: "")
    #expect(await watcher.waitForLine(startingWith: "watching") != nil, "\(watcher.errorOutput)")
    let rekey = try await dbkey(["rekey", path])
    #expect(rekey.status == 0, "\(rekey.stderr)")
    #expect(await exitStatus(of: watcher, timeout: 15) == 65, "\(watcher.output) \(watcher.errorOutput)")
    #expect(watcher.errorOutput.contains("changed the key"), "\(watcher.errorOutput)")
  }
}

// MARK: - JSON

/// What a command printed on standard output, parsed: one JSON value, or one
/// per line; each must have camelCase keys only.
private func expectJSON(
  _ label: String, _ result: (status: Int32, stdout: String, stderr: String), lines: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) -> [JSONValue] {
  #expect(result.status == 0, "\(label): \(result.stderr)", sourceLocation: sourceLocation)
  let texts = lines ? result.stdout.split(separator: "\n").map(String.init) : [result.stdout]
  var values: [JSONValue] = []
  for text in texts {
    guard let value = json(text) else {
      Issue.record("\(label): not JSON: \(text)", sourceLocation: sourceLocation)
      continue
    }
    #expect(
      value.nonCamelCaseKeys.isEmpty, "\(label): keys \(value.nonCamelCaseKeys)",
      sourceLocation: sourceLocation)
    values.append(value)
  }
  #expect(!values.isEmpty, "\(label): no output", sourceLocation: sourceLocation)
  return values
}

@Suite("dbkey --json: every command prints JSON with camelCase keys, and errors as JSON")
struct DbkeyJSONTests {
  @Test("every command's success output parses, keys are camelCase, numbers are numbers")
  func everyCommand() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let plain = directory.path("plain.sqlite")
    try makePlaintextDatabase(plain)

    // The control: the check finds keys in other casings, at any depth.
    #expect(json(#"{"page_size":1,"a":[{"B":2}]}"#)?.nonCamelCaseKeys.sorted() == ["B", "page_size"])
    _ = expectJSON("probe", try await dbkey(["probe", "--json"]))
    let info = try #require(expectJSON("info", try await dbkey(["info", path, "--json"])).first)
    for name in ["pageSize", "pageCount", "userVersion", "cipherFormat"] {
      #expect(info[name]?.integer != nil, "info.\(name) = \(String(describing: info[name]))")
    }
    #expect(info["cipher"]?["kdfIterations"]?.integer != nil, "\(info)")
    #expect(info["cipher"]?["pageSize"]?.integer != nil, "\(info)")
    #expect(info["encrypted"] == .bool(true))
    // The control: a value that is text is not taken for a number.
    #expect(info["journalMode"]?.integer == nil && info["journalMode"]?.string == "delete")
    _ = expectJSON("verify", try await dbkey(["verify", path, "--json"]))
    _ = expectJSON(
      "export", try await dbkey(["export", path, directory.path("copy.sqlite"), "--new-key", "--json"]))
    let imported = directory.path("imported.sqlite")
    _ = expectJSON("import", try await dbkey(["import", plain, imported, "--json"]))
    _ = expectJSON("init", try await dbkey(["init", directory.path("new.sqlite"), "--json"]))
    _ = expectJSON("rekey", try await dbkey(["rekey", imported, "--json"]))
    _ = expectJSON("recover", try await dbkey(["recover", imported, "--json"]))
    let migrate = expectJSON("migrate", try await dbkey(["migrate", imported, "--json"])).first
    #expect(migrate?["format"]?.integer != nil, "\(String(describing: migrate))")
    let list = expectJSON("keyring list", try await dbkey(["keyring", "list", "--json"])).first
    guard case .array(let listed)? = list, !listed.isEmpty else {
      Issue.record("keyring list: \(String(describing: list))")
      return
    }
    let stored = directory.path("stored.sqlite")
    try makeDatabase(stored)
    _ = expectJSON(
      "keyring store",
      try await dbkey(["keyring", "store", stored, "--key-fd", "0", "--json"], input: keyLine))
    let moved = directory.path("moved.sqlite")
    try FileManager.default.moveItem(atPath: stored, toPath: moved)
    _ = expectJSON("keyring move", try await dbkey(["keyring", "move", stored, moved, "--json"]))
    let escrow = directory.path("key.escrow")
    let exported = expectJSON(
      "keyring export-key",
      try await shell("exec \"$0\" keyring export-key \"$1\" --to-fd 3 --json 3>\"$2\"", [moved, escrow]))
    #expect(exported.first?["descriptor"] == .integer(3))
    _ = expectJSON("keyring forget", try await dbkey(["keyring", "forget", moved, "--force", "--json"]))
    _ = expectJSON(
      "keyring import-key",
      try await shell("exec \"$0\" keyring import-key \"$1\" --from-fd 3 --json 3<\"$2\"", [moved, escrow]))

    // watch: one object per line, the commit's count a number.
    let watcher = try SpawnedProcess(
      dbkeyPath, ["watch", path, "--count", "1", "--json", "--keep-journal"], input: "")
    #expect(await watcher.waitForLine(startingWith: "{") != nil, "\(watcher.errorOutput)")
    let writer = try DatabaseQueue(path: path, configuration: watchedWriter(rawKeyConfiguration()))
    try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES ('json')") }
    try writer.close()
    let status = await exitStatus(of: watcher, timeout: 30)
    let events = expectJSON(
      "watch", (status ?? -1, watcher.output.joined(separator: "\n"), watcher.errorOutput), lines: true)
    #expect(events.count == 2, "\(watcher.output)")
    #expect(events.first?["event"] == .string("watching"))
    #expect(events.last?["event"] == .string("commit"))
    #expect(events.last?["count"] == .integer(1))
  }

  @Test("a failure with --json is one JSON object on standard error: its message and exit code")
  func failures() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try await makeStoredDatabase(path)
    let plain = directory.path("plain.sqlite")
    try makePlaintextDatabase(plain)
    let cases: [(arguments: [String], status: Int32)] = [
      (["info", path, "--bogus", "--json"], 64),
      (["verify", plain, "--json"], 65),
      (["info", directory.path("missing.sqlite"), "--json"], 66),
      (["init", path, "--json"], 73),
      (["keyring", "forget", path, "--json"], 77),
    ]
    for (arguments, status) in cases {
      // setsid: no terminal, so that forget refuses instead of asking.
      let result = try await runProcess("/usr/bin/setsid", ["--wait", dbkeyPath] + arguments, input: "")
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
      guard case .object(let object)? = json(result.stderr) else {
        Issue.record("\(arguments): not a JSON object: \(result.stderr)")
        continue
      }
      #expect(object.keys.sorted() == ["error"], "\(arguments): \(result.stderr)")
      #expect(object["error"]?["message"]?.string?.isEmpty == false, "\(arguments): \(result.stderr)")
      #expect(object["error"]?["exitCode"] == .integer(Int(status)), "\(arguments): \(result.stderr)")
    }
  }
}

// MARK: - Messages

@Suite("dbkey's messages speak to operators")
struct DbkeyMessageTests {
  @Test("with no key in the keyring, no message names a library API")
  func missingItemMessages() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    // Encrypted, with no key stored.
    try makeDatabase(path)
    let commands: [[String]] = [
      ["info", path], ["verify", path], ["rekey", path], ["recover", path], ["migrate", path],
      ["export", path, directory.path("out.sqlite"), "--new-key"], ["watch", path, "--count", "1"],
      ["keyring", "forget", path], ["keyring", "export-key", path, "--to-fd", "1"],
      ["keyring", "move", directory.path("elsewhere.sqlite"), path],
    ]
    for arguments in commands {
      let result = try await dbkey(arguments)
      #expect(result.status == 66, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("dbkey: "), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("Keyring."), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("()"), "\(arguments): \(result.stderr)")
    }
  }

  /// A file name that would clear the screen if printed as it is.
  static let oddName = "a\u{1B}[2Jb.sqlite"
  static let escapedName = "a\\u{1B}[2Jb.sqlite"

  @Test("an escape character in a file name is shown escaped in error messages")
  func escapedInErrors() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path(Self.oddName)
    let missing = try await dbkey(["info", path])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains(directory.path(Self.escapedName)), "\(missing.stderr)")
    #expect(!missing.stderr.contains("\u{1B}"))
    #expect(try await dbkey(["init", path]).status == 0)
    let exists = try await dbkey(["init", path])
    #expect(exists.status == 73)
    #expect(exists.stderr.contains(Self.escapedName) && !exists.stderr.contains("\u{1B}"), "\(exists.stderr)")
  }

  @Test("an escape character in a file name is shown escaped in the passphrase prompt and the progress line")
  func escapedOnTerminal() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path(Self.oddName)
    try await DatabaseQueue(path: path, configuration: passphraseConfiguration("odd name")).write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(50000))")
    }
    let prompt = try SpawnedProcess.onTerminal(dbkeyPath, ["info", path, "--passphrase"])
    let shown = await prompt.waitForText(": ", after: 0)
    #expect(shown?.contains("Passphrase of \(directory.path(Self.escapedName))") == true, "\(prompt.text)")
    prompt.send("odd name\n")
    #expect(await exitStatus(of: prompt, timeout: 30) == 0, "\(prompt.text)")
    #expect(!prompt.text.contains("\u{1B}[2J"), "\(prompt.text)")

    #expect(
      try await dbkey(["keyring", "store", path, "--passphrase-fd", "0"], input: "odd name\n").status == 0)
    let export = try SpawnedProcess.onTerminal(
      dbkeyPath, ["export", path, directory.path("copy.sqlite"), "--new-key"])
    #expect(await exitStatus(of: export, timeout: 30) == 0, "\(export.text)")
    // The control: the progress line was drawn, with the name in it.
    #expect(export.text.contains("exporting \(directory.path(Self.escapedName))"), "\(export.text)")
    #expect(export.text.contains("done in"), "\(export.text)")
    #expect(!export.text.contains("\u{1B}[2J"), "\(export.text)")
  }
}
