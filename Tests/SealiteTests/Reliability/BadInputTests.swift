import Foundation
import Testing

// @testable: the checks read pragmas through Core's internal integerPragma.
@testable import Sealite

// Bad input that the existing suites do not cover yet: each case has its own
// error, and leaves every file (and keyring item) as it was. Covered elsewhere:
// wrong key, no key, a key on a plaintext file, a text file (`Opening with bad
// input fails at once, clearly, writing nothing`), wrong cipher settings in one
// direction (`Cipher settings through Configuration.cipher, and SQLCipher 3
// databases`), a locked keyring, no Secret Service and no D-Bus session
// (SealiteKeyringTests and `dbkey where the keyring is locked or missing`).

private let keyHex = String(repeating: "42", count: 32)

/// Every file under the directory (recursively) and its bytes.
private func tree(_ directory: TemporaryDirectory) -> [String: Data] {
  var files: [String: Data] = [:]
  let enumerator = FileManager.default.enumerator(atPath: directory.url.path)
  while let name = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    let path = directory.url.appendingPathComponent(name).path
    FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    files[name] = isDirectory.boolValue ? Data("<directory>".utf8) : (fileBytes(path) ?? Data())
  }
  return files
}

/// A small encrypted database keyed with the raw key 0x42….
private func makeEncryptedDatabase(_ path: String, rows: Int = 20, cipher: CipherConfiguration? = nil) throws
{
  var config = rawKeyConfiguration()
  if let cipher { config.cipher = cipher }
  let queue = try DatabaseQueue(path: path, configuration: config)
  try queue.write { db in
    try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)")
    for row in 0..<rows {
      try db.execute(
        sql: "INSERT INTO t (a) VALUES (?)", arguments: ["row \(row) " + String(repeating: "x", count: 200)])
    }
  }
  try queue.close()
}

private func makePlaintextDatabase(_ path: String, bytes: Int) throws {
  let queue = try DatabaseQueue(path: path)
  try queue.write { db in
    try db.execute(sql: "CREATE TABLE t (a BLOB)")
    for _ in 0..<(bytes / 1000) { try db.execute(sql: "INSERT INTO t VALUES (randomblob(1000))") }
  }
  try queue.close()
}

private enum Opener: String, CaseIterable, Sendable {
  case queue, pool, readonlyQueue, readonlyPool

  func open(_ path: String, _ configuration: Configuration) throws -> any DatabaseReader {
    var configuration = configuration
    switch self {
    case .queue: return try DatabaseQueue(path: path, configuration: configuration)
    case .pool: return try DatabasePool(path: path, configuration: configuration)
    case .readonlyQueue:
      configuration.readonly = true
      return try DatabaseQueue(path: path, configuration: configuration)
    case .readonlyPool:
      configuration.readonly = true
      return try DatabasePool(path: path, configuration: configuration)
    }
  }
}

/// Expects `body` to throw a DatabaseError with `code` whose message holds
/// `words` and no key; returns it.
@discardableResult
private func expectError(
  _ code: ResultCode, _ words: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) -> DatabaseError? {
  do {
    try body()
    Issue.record("no error, expected \(code) with \"\(words)\"", sourceLocation: sourceLocation)
    return nil
  } catch let error as DatabaseError {
    #expect(error.resultCode == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.description.contains(words), "\(error)", sourceLocation: sourceLocation)
    #expect(!error.description.contains(keyHex), sourceLocation: sourceLocation)
    return error
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// Runs dbkey; the key (if any) goes on standard input.
private func run(_ arguments: [String], key: Bool = false) async throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let result = try await dbkey(arguments, input: key ? keyHex + "\n" : "")
  #expect(!result.stdout.contains(keyHex) && !result.stderr.contains(keyHex))
  return result
}

@Suite("Bad input: each case has its own error and changes nothing")
struct BadInputTests {
  static let passphrase = "bad-input-passphrase-17"

  // MARK: Zero-length file

  @Test("a zero-length file: read-only opens and whole-file operations say it is empty, and it stays empty")
  func zeroLengthFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let key = try #require(rawKeyConfiguration().key)
    for configuration in [rawKeyConfiguration(), Configuration()] {
      for opener in [Opener.readonlyQueue, .readonlyPool] {
        expectError(.SQLITE_NOTADB, "is empty: not a database") {
          _ = try opener.open(path, configuration).read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
      }
    }
    expectError(.SQLITE_NOTADB, "is empty: not a database") {
      _ = try DatabaseQueue.verifyDatabase(atPath: path, key: key)
    }
    expectError(.SQLITE_NOTADB, "is empty: not a database") {
      try DatabaseQueue.exportDatabase(
        atPath: path, key: key, to: directory.path("out.sqlite"), destinationKey: .randomRaw())
    }
    expectError(.SQLITE_NOTADB, "is empty: not a database") {
      try DatabaseQueue.migrateCipherFormat(atPath: path, key: key)
    }
    expectError(.SQLITE_NOTADB, "is empty: not a database") {
      _ = try DatabaseQueue.cipherFormat(atPath: path, key: key)
    }
    #expect(tree(directory) == ["db.sqlite": Data()])
  }

  @Test(
    "dbkey on a zero-length file: every command exits 65, says it is empty, and stores or changes nothing")
  func zeroLengthFileWithDbkey() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    // A key in the keyring for the path, as after `dbkey init`, then the file emptied.
    #expect(try await run(["init", path]).status == 0)
    #expect(truncate(path, 0) == 0)
    let empty = directory.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let itemsBefore = try await items(in: directory)
    #expect(itemsBefore == ["db.sqlite|"])
    let before = tree(directory)

    let commands: [(arguments: [String], key: Bool)] = [
      (["info", empty, "--key-fd", "0"], true),
      (["verify", empty, "--key-fd", "0"], true),
      (["export", empty, directory.path("out.sqlite"), "--key-fd", "0", "--new-key"], true),
      (["migrate", empty, "--key-fd", "0"], true),
      (["keyring", "store", empty, "--key-fd", "0"], true),
      (["import", empty, directory.path("imported.sqlite")], false),
      (["info", path], false),
      (["verify", path], false),
      (["export", path, directory.path("out.sqlite"), "--plaintext"], false),
      (["migrate", path], false),
      (["rekey", path], false),
      (["recover", path], false),
    ]
    for (arguments, key) in commands {
      let result = try await run(arguments, key: key)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("is empty: not a database"), "\(arguments): \(result.stderr)")
    }
    #expect(tree(directory) == before)
    #expect(try await items(in: directory) == itemsBefore)
  }

  // MARK: Truncated file

  @Test("a truncated file is truncated or damaged, not a wrong key; reads never return other rows")
  func truncatedFile() async throws {
    let directory = TemporaryDirectory()
    let original = directory.path("original.sqlite")
    try makeEncryptedDatabase(original, rows: 100)
    let bytes = try #require(fileBytes(original))
    let pageSize = try await DatabaseQueue(path: original, configuration: rawKeyConfiguration()).read { db in
      try db.integerPragma("page_size") ?? 0
    }
    let pageCount = bytes.count / pageSize
    #expect(pageCount >= 6)
    // Whole pages missing (at a page boundary, and in the middle of a page):
    // page 1 decrypts, and its header counts more pages than the file holds.
    for cut in [pageSize, 3 * pageSize, 3 * pageSize + pageSize / 3] {
      let path = directory.path("cut-\(cut).sqlite")
      try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
      let before = tree(directory)
      for opener in Opener.allCases {
        expectError(.SQLITE_CORRUPT, "truncated or damaged") {
          _ = try opener.open(path, rawKeyConfiguration())
        }
      }
      expectError(.SQLITE_CORRUPT, "truncated or damaged") {
        _ = try DatabaseQueue.verifyDatabase(atPath: path, key: rawKeyConfiguration().key)
      }
      let verify = try await run(["verify", path, "--key-fd", "0"], key: true)
      #expect(verify.status == 76 && verify.stderr.contains("truncated or damaged"), "\(verify.stderr)")
      #expect(tree(directory) == before, "cut at \(cut)")
    }
    // Less than a page: not even page 1.
    let stub = directory.path("stub.sqlite")
    try bytes.prefix(pageSize / 2 + 100).write(to: URL(fileURLWithPath: stub))
    expectError(.SQLITE_NOTADB, "not a database") {
      _ = try DatabaseQueue(path: stub, configuration: rawKeyConfiguration())
    }
    // A cut inside the last page: the file opens, the rows of that page do not read.
    let tail = directory.path("tail.sqlite")
    try bytes.prefix(bytes.count - 100).write(to: URL(fileURLWithPath: tail))
    let before = tree(directory)
    let queue = try DatabaseQueue(path: tail, configuration: rawKeyConfiguration())
    expectError(.SQLITE_CORRUPT, "malformed") {
      _ = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t") }
    }
    try queue.close()
    let verify = try await run(["verify", tail, "--key-fd", "0"], key: true)
    #expect(verify.status == 76, "\(verify.stdout)\(verify.stderr)")
    #expect(tree(directory) == before)
  }

  // MARK: Random bytes

  @Test("8 KiB of random bytes: with a key it is a key that does not open it, without one it needs a key")
  func randomBytes() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var generator = SplitMix64(seed: 42)
    try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
      to: URL(fileURLWithPath: path))
    let before = tree(directory)
    // A whole number of pages of random bytes can not be told from a database
    // encrypted with another key: that is what the message says.
    for opener in Opener.allCases {
      expectError(.SQLITE_NOTADB, "key does not open") { _ = try opener.open(path, rawKeyConfiguration()) }
      expectError(.SQLITE_NOTADB, "a key is needed") { _ = try opener.open(path, Configuration()) }
    }
    for command in ["info", "verify"] {
      let result = try await run([command, path, "--key-fd", "0"], key: true)
      #expect(result.status == 65 && result.stderr.contains("key does not open"), "\(result.stderr)")
    }
    #expect(tree(directory) == before)
  }

  // MARK: Wrong cipher settings

  @Test("cipher settings that differ from the file's, either way, are a key that does not open it")
  func wrongCipherSettings() throws {
    let directory = TemporaryDirectory()
    let major =
      SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) } ?? 0
    var pairs: [(made: CipherConfiguration, opened: CipherConfiguration)] = [
      (CipherConfiguration(kdfIterations: 2000), CipherConfiguration()),
      (CipherConfiguration(), CipherConfiguration(kdfIterations: 2000)),
      (CipherConfiguration(pageSize: 8192), CipherConfiguration()),
      (CipherConfiguration(), CipherConfiguration(pageSize: 8192)),
    ]
    if major >= 4 {
      pairs += [
        (CipherConfiguration(compatibility: 3), CipherConfiguration()),
        (CipherConfiguration(), CipherConfiguration(compatibility: 3)),
      ]
    }
    for (index, pair) in pairs.enumerated() {
      // Passphrases: the KDF iterations apply to them (a raw key has no KDF).
      let path = directory.path("settings-\(index).sqlite")
      var made = passphraseConfiguration(Self.passphrase)
      made.cipher = pair.made
      try DatabaseQueue(path: path, configuration: made).write { db in
        try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('kept')")
      }
      let before = tree(directory)
      var opened = passphraseConfiguration(Self.passphrase)
      opened.cipher = pair.opened
      for opener in [Opener.queue, .pool] {
        let error = expectError(.SQLITE_NOTADB, "key does not open") { _ = try opener.open(path, opened) }
        #expect(error?.message?.contains("cipher settings") == true, "the message names cipher settings")
        #expect(error?.description.contains(Self.passphrase) == false)
      }
      #expect(tree(directory) == before, "\(pair)")
      #expect(
        try DatabaseQueue(path: path, configuration: made).read { db in
          try String.fetchOne(db, sql: "SELECT x FROM t")
        } == "kept")
    }
    if major < 4 {
      // SQLCipher 3 has no cipher_compatibility pragma: SQLite ignores it, and
      // its own format is format 3.
      let path = directory.path("compat.sqlite")
      try makeEncryptedDatabase(path)
      var config = rawKeyConfiguration()
      config.cipher = CipherConfiguration(compatibility: 3)
      #expect(
        try DatabaseQueue(path: path, configuration: config).read { db in
          try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        } == 20)
    }
  }

  // MARK: A directory

  @Test("a directory as the path: opens and whole-file operations say it is a directory, and create nothing")
  func directoryAsPath() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("a-directory")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    try makeEncryptedDatabase(directory.path("db.sqlite"))
    let before = tree(directory)
    for configuration in [rawKeyConfiguration(), Configuration()] {
      for opener in Opener.allCases {
        expectError(.SQLITE_CANTOPEN, "it is a directory") { _ = try opener.open(path, configuration) }
      }
    }
    let key = try #require(rawKeyConfiguration().key)
    expectError(.SQLITE_CANTOPEN, "is a directory") {
      _ = try DatabaseQueue.verifyDatabase(atPath: path, key: key)
    }
    expectError(.SQLITE_CANTOPEN, "is a directory") {
      try DatabaseQueue.exportDatabase(
        atPath: path, key: key, to: directory.path("out.sqlite"), destinationKey: nil)
    }
    expectError(.SQLITE_CANTOPEN, "is a directory") {
      try DatabaseQueue.migrateCipherFormat(atPath: path, key: key)
    }
    expectError(.SQLITE_CANTOPEN, "is a directory") {
      _ = try DatabaseQueue.cipherFormat(atPath: path, key: key)
    }
    let itemsBefore = try await items(in: directory)
    for arguments in [
      ["info", path, "--key-fd", "0"], ["verify", path, "--key-fd", "0"],
      ["export", path, directory.path("out.sqlite"), "--key-fd", "0", "--plaintext"],
      ["keyring", "store", path, "--key-fd", "0"],
    ] {
      let result = try await run(arguments, key: true)
      #expect(
        result.status == 65 && result.stderr.contains("is a directory"), "\(arguments): \(result.stderr)")
    }
    #expect(tree(directory) == before)
    #expect(try await items(in: directory) == itemsBefore)
  }

  // MARK: A read-only file

  @Test(
    "a read-only file opened for writing: reads work; writes, a pool, a key change and a migration say read-only",
    .enabled(if: ReadOnlyFile.isPossible))
  func readOnlyFile() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    try makeEncryptedDatabase(path)
    #expect(try await run(["keyring", "store", path, "--key-fd", "0"], key: true).status == 0)
    let itemsBefore = try await items(in: directory)
    try #require(ReadOnlyFile.make(path))
    // Before the directory goes: an immutable file could not be removed.
    defer { withExtendedLifetime(directory) { ReadOnlyFile.undo(path) } }
    let before = tree(directory)

    // SQLite opens a file it may not write read-only, as GRDB users expect:
    // reads work, and the first write says why it fails.
    let queue = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 20)
    expectError(.SQLITE_READONLY, "readonly") {
      try queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES ('more')") }
    }
    expectError(.SQLITE_READONLY, "read-only") { try queue.changeKey(to: .randomRaw()) }
    try queue.close()
    // A pool must switch the file to WAL mode.
    expectError(.SQLITE_READONLY, "readonly") {
      _ = try DatabasePool(path: path, configuration: rawKeyConfiguration())
    }
    // A migration is refused before SQLCipher tries to swap in a new file.
    expectError(.SQLITE_READONLY, "read-only") {
      try DatabaseQueue.migrateCipherFormat(atPath: path, key: try #require(rawKeyConfiguration().key))
    }
    let rekey = try await run(["rekey", path])
    #expect(rekey.status == 73, "\(rekey.stderr)")
    #expect(rekey.stderr.contains("read-only"), "\(rekey.stderr)")
    // A database in the current format needs no migration: nothing is written.
    let migrate = try await run(["migrate", path])
    #expect(migrate.status == 0 && migrate.stdout.contains("already in the current"), "\(migrate.stderr)")
    #expect(tree(directory) == before)
    #expect(try await items(in: directory) == itemsBefore)
  }

  // MARK: A full disk

  @Test(
    "a full disk: import, export, init, rekey and migrate fail clearly and leave no file behind and the keyring as it was"
  )
  func fullDisk() async throws {
    let directory = TemporaryDirectory()
    let mountPoint = directory.path("small-disk")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
    let big = directory.path("big-plain.sqlite")
    try makePlaintextDatabase(big, bytes: 700_000)
    let bigSecret = directory.path("big-secret.sqlite")
    try makeEncryptedDatabase(bigSecret, rows: 2500)
    #expect(try await run(["keyring", "store", bigSecret, "--key-fd", "0"], key: true).status == 0)
    let small = directory.path("small-plain.sqlite")
    try makePlaintextDatabase(small, bytes: 40_000)
    let sources = [big, bigSecret, small].map { fileBytes($0) }
    let itemsBefore = try await items(in: directory)
    #expect(itemsBefore == ["big-secret.sqlite|"])

    let mode = await FullDisk.mode(directory)
    let result = try await runProcess(
      mode.launcher.first!,
      Array(mode.launcher.dropFirst()) + [
        FullDisk.script, "sh", dbkeyPath, mountPoint, big, bigSecret, small, mode.name,
      ])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    func outcome(_ name: String) -> String? {
      lines.first { $0.hasPrefix(name + " => ") }.map { String($0.dropFirst(name.count + 4)) }
    }
    func left(_ name: String) -> [String] {
      lines.filter { $0.hasPrefix(name + " left: ") }.map { String($0.dropFirst(name.count + 7)) }
    }
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // The mount lived in the child's own mount namespace only.
    let mounts = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
    #expect(!mounts.contains(mountPoint))
    #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint).isEmpty)

    // Writing more than the disk holds: nothing is left, not even a temporary file.
    for name in ["import", "export"] {
      let line = outcome(name) ?? "missing"
      if mode.name == "tmpfs" {
        #expect(line.hasPrefix("73 dbkey: database or disk is full"), "\(name): \(line)")
      } else {
        #expect(line.hasPrefix("74 dbkey: an input/output error"), "\(name): \(line)")
      }
      #expect(left(name).isEmpty, "\(name): \(left(name))")
    }
    if mode.name == "tmpfs" {
      // A database that fits, then a disk filled up: a new database and a key
      // change do not fit; a migration of a database in the current format
      // has nothing to write (no backup either).
      #expect(outcome("import-small")?.hasPrefix("0") == true, "\(result.stdout)")
      #expect(outcome("init")?.hasPrefix("73 dbkey: database or disk is full") == true, "\(result.stdout)")
      #expect(
        outcome("rekey")?.hasPrefix("73 dbkey: the key change did not take effect: the disk is full") == true,
        "\(result.stdout)")
      #expect(
        outcome("migrate")?.hasPrefix("0") == true, "\(result.stdout)")
      for name in ["init", "rekey", "migrate"] {
        #expect(left(name) == ["enc.sqlite", "filler"], "\(name): \(left(name))")
      }
      #expect(outcome("hash-unchanged") == "yes", "\(result.stdout)")
      // The key in the keyring still opens the database.
      #expect(outcome("verify")?.hasPrefix("0") == true, "\(result.stdout)")
      // The keyring keeps the key of the database that fits, and nothing else.
      #expect(try await items(in: directory) == ["big-secret.sqlite|", "enc.sqlite|"])
    } else {
      #expect(try await items(in: directory) == itemsBefore)
    }
    #expect([big, bigSecret, small].map { fileBytes($0) } == sources)
  }
}

/// A file that the process can not write, also as root (who ignores
/// permission bits): as root, the immutable attribute (`chattr +i`), where
/// the file system has it; otherwise mode 0444.
enum ReadOnlyFile {
  static func make(_ path: String) -> Bool {
    if getuid() == 0 {
      guard setImmutable(path, true) else { return false }
    } else {
      guard chmod(path, 0o444) == 0 else { return false }
    }
    let descriptor = open(path, O_RDWR)
    if descriptor >= 0 {
      close(descriptor)
      undo(path)
      return false
    }
    return true
  }

  static func undo(_ path: String) {
    if getuid() == 0 {
      _ = setImmutable(path, false)
    } else {
      _ = chmod(path, 0o644)
    }
  }

  /// True where a file can be made read-only here.
  static let isPossible: Bool = {
    let directory = TemporaryDirectory("read-only-probe")
    return withExtendedLifetime(directory) {
      let path = directory.path("probe")
      guard FileManager.default.createFile(atPath: path, contents: Data("probe".utf8)) else { return false }
      defer { undo(path) }
      return make(path)
    }
  }()
}

/// A file system too small for what dbkey writes.
enum FullDisk {
  /// `tmpfs`: a 512 KiB tmpfs mounted in a mount namespace of the child's own
  /// (`unshare --mount`: root or CAP_SYS_ADMIN; gone with the child, never
  /// seen by this process). `rlimit`: where that is impossible, a file size
  /// limit (`ulimit -f`) on dbkey, whose writes then fail with EFBIG.
  /// SEALITE_FULL_DISK=rlimit chooses the second where the first would work.
  static func mode(_ directory: TemporaryDirectory) async -> (name: String, launcher: [String]) {
    let rlimit = ("rlimit", ["/bin/sh", "-c"])
    if ProcessInfo.processInfo.environment["SEALITE_FULL_DISK"] == "rlimit" { return rlimit }
    let unshare = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c"]
    let probe = directory.path("probe-mount")
    try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: probe) }
    let mounted = try? await runProcess(
      unshare[0],
      Array(unshare.dropFirst()) + ["mount -t tmpfs -o size=64k sealite-probe \"$1\"", "sh", probe])
    return mounted?.status == 0 ? ("tmpfs", unshare) : rlimit
  }

  /// Runs the commands and prints `NAME => STATUS FIRST-LINE-OF-STDERR`, then
  /// `NAME left: FILE` for each file on the small disk afterwards.
  /// Arguments: DBKEY MOUNT BIG BIGSECRET SMALL MODE. No key passes through it.
  static let script = #"""
    set -u
    DBKEY="$1"; M="$2"; BIG="$3"; BIGSECRET="$4"; SMALL="$5"; MODE="$6"
    if [ "$MODE" = tmpfs ]; then
      mount -t tmpfs -o size=512k sealite-full "$M" || exit 99
      limited() { "$@"; }
    else
      # 256 blocks of 512 bytes; an ignored SIGXFSZ stays ignored in dbkey.
      limited() { (trap '' XFSZ; ulimit -f 256; exec "$@"); }
    fi
    report() {
      echo "$1 => $2 $(head -n 1 "$M.err")"
      ls -A "$M" | sed "s/^/$1 left: /"
    }
    limited "$DBKEY" import "$BIG" "$M/imported.sqlite" >/dev/null 2>"$M.err"; report import $?
    limited "$DBKEY" export "$BIGSECRET" "$M/exported.sqlite" --new-key >/dev/null 2>"$M.err"; report export $?
    [ "$MODE" = tmpfs ] || exit 0
    "$DBKEY" import "$SMALL" "$M/enc.sqlite" >/dev/null 2>"$M.err"; report import-small $?
    dd if=/dev/zero of="$M/filler" bs=4096 2>/dev/null
    "$DBKEY" init "$M/new.sqlite" >/dev/null 2>"$M.err"; report init $?
    before=$(sha256sum < "$M/enc.sqlite")
    "$DBKEY" rekey "$M/enc.sqlite" >/dev/null 2>"$M.err"; report rekey $?
    [ "$before" = "$(sha256sum < "$M/enc.sqlite")" ] && echo "hash-unchanged => yes"
    "$DBKEY" migrate "$M/enc.sqlite" >/dev/null 2>"$M.err"; report migrate $?
    "$DBKEY" verify "$M/enc.sqlite" >/dev/null 2>"$M.err"; echo "verify => $?"
    rm -f "$M.err"
    exit 0
    """#
}
