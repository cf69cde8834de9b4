import Dispatch
import Foundation
import Sealite
import Synchronization

/// One dbkey command: its name, one-line summary, usage, and body.
struct Command: Sendable {
  let name: String
  let summary: String
  let usage: String
  let flags: Set<String>
  let options: Set<String>
  let run: @Sendable (Arguments) throws -> Void
}

/// Prints a line on standard output.
func output(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Prints a JSON object on standard output, keys sorted.
func outputJSON(_ object: Any) throws {
  let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
  FileHandle.standardOutput.write(data + Data("\n".utf8))
}

/// Turns library errors into messages and exit codes.
func commandError(_ error: any Error, path: String?) -> CommandError {
  if let error = error as? CommandError { return error }
  if let error = error as? DatabaseError {
    let message = error.message ?? "\(error.resultCode)"
    switch error.resultCode {
    case .SQLITE_CANTOPEN:
      if message.hasPrefix("no database file") { return CommandError(code: .notFound, message: message) }
      if message.contains("already exists") || message.contains("not writable")
        || message.contains("not a writable directory")
      {
        return CommandError(code: .cannotCreateOutput, message: message)
      }
      return CommandError(code: .cannotOpen, message: message)
    case .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_AUTH:
      return CommandError(code: .cannotOpen, message: message)
    case .SQLITE_READONLY where message.contains("interrupted by a crash"):
      // A hot journal that a read-only command can not roll back: recover can.
      return CommandError(code: .cannotOpen, message: "\(message) (dbkey recover does)")
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return CommandError(
        code: .busy, message: "\(path ?? "the database") is locked by another connection: \(message)")
    case .SQLITE_FULL:
      return CommandError(
        code: .cannotCreateOutput, message: "\(message): free some disk space and try again")
    case .SQLITE_READONLY:
      return CommandError(
        code: .cannotCreateOutput, message: "\(path ?? "the database") can not be written: \(message)")
    default:
      return CommandError(code: .failure, message: message)
    }
  }
  return CommandError(code: .failure, message: "\(error)")
}

/// Options that choose the key of DB: descriptors, or the keyring item.
let keyOptions: Set<String> = ["--key-fd", "--passphrase-fd", "--name", "--collection"]

/// The flag that asks for DB's passphrase on the terminal.
let keyFlags: Set<String> = ["--passphrase"]

/// Every command: those that only read keys, then those that manage the keyring.
let commands: [Command] = baseCommands + keyringCommands

let baseCommands: [Command] = [
  Command(
    name: "probe", summary: "the SQLCipher and SQLite versions and capabilities linked in",
    usage: "dbkey probe [--json]", flags: ["--json"], options: []
  ) { arguments in
    let features = SQLiteFeatures.linked
    if arguments.has("--json") {
      try outputJSON([
        "sqlcipherVersion": features.sqlcipherVersion ?? NSNull(),
        "sqliteVersion": features.sqliteVersion,
        "cryptoProvider": features.cryptoProvider ?? NSNull(),
        "cryptoProviderVersion": features.cryptoProviderVersion ?? NSNull(),
        "capabilities": Dictionary(
          uniqueKeysWithValues: SQLiteFeatures.Capability.allCases.map {
            ($0.rawValue, features.supports($0))
          }),
        "compileOptions": features.compileOptions,
      ])
    } else {
      output("SQLCipher: \(features.sqlcipherVersion ?? "none")")
      output("SQLite: \(features.sqliteVersion)")
      output(
        "crypto provider: \(features.cryptoProvider ?? "unknown") \(features.cryptoProviderVersion ?? "")")
      for capability in SQLiteFeatures.Capability.allCases {
        output(
          "  \(features.supports(capability) ? "yes" : "no ")  \(capability.name) "
            + "(SQLite \(capability.minimumSQLiteVersion)+)")
      }
    }
  },
  Command(
    name: "info", summary: "cipher settings, format, page size and count, journal mode",
    usage: "dbkey info DB [--key-fd N | --passphrase-fd N | --passphrase | --name NAME] [--json]",
    flags: keyFlags.union(["--json"]),
    options: keyOptions
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    let resolved = try resolveKey(arguments, path: path)
    let key = resolved.key
    do {
      var config = Configuration()
      config.key = key
      config.readonly = true
      let (format, cipher) = try cipherSettings(path: path, key: key)
      config.cipher = cipher
      let dbQueue = try DatabaseQueue(path: path, configuration: config)
      defer { try? dbQueue.close() }
      var info: [String: Any] = try dbQueue.read { db in
        var info: [String: Any] = [:]
        info["encrypted"] = key != nil
        info["pageSize"] = try pragmaInteger(db, "page_size")
        info["pageCount"] = try pragmaInteger(db, "page_count")
        info["journalMode"] = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
        info["userVersion"] = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        for (name, value) in try db.cipherSettings() { info[name] = value }
        return info
      }
      info["keySource"] = resolved.source
      if let format { info["cipherFormat"] = format }
      if arguments.has("--json") {
        try outputJSON(info)
      } else {
        for name in info.keys.sorted() { output("\(name): \(info[name]!)") }
      }
    } catch {
      throw commandError(error, path: path)
    }
  },
  Command(
    name: "verify", summary: "check page authentication (names tampered pages) and integrity",
    usage: "dbkey verify DB [--key-fd N | --passphrase-fd N | --passphrase | --name NAME] [--json]",
    flags: keyFlags.union(["--json"]),
    options: keyOptions
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    let key = try resolveKey(arguments, path: path).key
    guard key != nil else {
      throw CommandError(code: .cannotOpen, message: "\(path) is not encrypted: there is no key to verify")
    }
    let verification: DatabaseVerification
    do {
      verification = try DatabaseQueue.verifyDatabase(
        atPath: path, key: key, cipher: cipherSettings(path: path, key: key).cipher)
    } catch {
      throw commandError(error, path: path)
    }
    if arguments.has("--json") {
      try outputJSON([
        "valid": verification.isValid, "encrypted": verification.isEncrypted,
        "tamperedPages": verification.tamperedPages, "cipherMessages": verification.cipherMessages,
        "integrityMessages": verification.integrityMessages, "walMessages": verification.walMessages,
      ])
    } else {
      output(verification.isValid ? "ok" : "FAILED")
      for page in verification.tamperedPages { output("tampered page: \(page)") }
      for message in verification.cipherMessages { output("cipher: \(message)") }
      for message in verification.walMessages { output("wal: \(message)") }
      if verification.integrityMessages != ["ok"] {
        for message in verification.integrityMessages { output("integrity: \(message)") }
      }
    }
    if !verification.isValid {
      throw CommandError(code: .verificationFailed, message: "\(path) failed verification")
    }
  },
  Command(
    name: "export",
    summary: "copy DB into a new file OUT: plaintext, with a passphrase, a new key, or DB's key",
    usage:
      "dbkey export DB OUT [--plaintext | --passphrase-fd N | --passphrase | --new-key] [--force]\n"
      + "       [--key-fd N | --source-passphrase-fd N | --source-passphrase | --name NAME] [--collection NAME]\n"
      + "  DB's key comes from the keyring unless given on a descriptor or typed (--source-passphrase).\n"
      + "  OUT gets DB's key unless --plaintext, --passphrase-fd (a passphrase read from descriptor N),\n"
      + "  --passphrase (typed twice) or --new-key (a new random key) says otherwise; a keyed OUT has\n"
      + "  its key stored in the keyring.",
    flags: ["--plaintext", "--force", "--new-key", "--passphrase", "--source-passphrase"],
    options: keyOptions.union(["--source-passphrase-fd"])
  ) { arguments in
    let paths = try arguments.positionals("DB", "OUT")
    let choices = [
      arguments.has("--plaintext"),
      arguments.value("--passphrase-fd") != nil || arguments.has("--passphrase"),
      arguments.has("--new-key"),
    ]
    guard choices.filter({ $0 }).count <= 1 else {
      throw CommandError(
        code: .usage, message: "choose one of --plaintext, --passphrase(-fd) or --new-key for OUT")
    }
    let key = try resolveKey(arguments, path: paths[0], passphraseOption: "--source-passphrase-fd").key
    let destinationKey: DatabaseKey?
    if arguments.has("--plaintext") {
      destinationKey = nil
    } else if arguments.has("--new-key") {
      destinationKey = .randomRaw()
    } else if let passphrase = try KeySource.key(
      arguments, keyOption: nil, prompt: "New passphrase for \(paths[1]): ", confirm: true)
    {
      destinationKey = passphrase
    } else {
      destinationKey = key
    }
    try requireNewOutput(paths[1], overwrite: arguments.has("--force"))
    // OUT's key goes to the keyring first, and the keyring is put back on failure.
    var restoreKeyring: () -> Void = {}
    if let destinationKey {
      let entry = try KeyringEntry(arguments, path: paths[1])
      let previous = try entry.storedKey()
      try entry.store(destinationKey)
      restoreKeyring = {
        if let previous { try? entry.store(previous) } else { try? entry.forget() }
      }
    }
    do {
      try TerminalProgress.run("exporting \(paths[0])") { progress in
        try DatabaseQueue.exportDatabase(
          atPath: paths[0], key: key, cipher: cipherSettings(path: paths[0], key: key).cipher, to: paths[1],
          destinationKey: destinationKey,
          overwrite: arguments.has("--force"), progress: { progress.update($0.fractionCompleted) })
      }
    } catch {
      restoreKeyring()
      throw commandError(error, path: paths[0])
    }
    output(
      "exported \(paths[0]) to \(paths[1])"
        + (destinationKey == nil ? " (plaintext)" : ", its key is in the keyring"))
  },
  Command(
    name: "migrate",
    summary: "upgrade an SQLCipher 3 database to the current format, after a verified backup",
    usage: "dbkey migrate DB [--key-fd N | --passphrase-fd N | --passphrase | --name NAME]", flags: keyFlags,
    options: keyOptions
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    // Before the backup copy: a key on a descriptor does not check the file.
    try requireDatabaseFile(path)
    guard let key = try resolveKey(arguments, path: path).key else {
      throw CommandError(code: .cannotOpen, message: "\(path) is not encrypted: there is nothing to migrate")
    }
    let backup = path + ".before-migrate"
    guard !FileManager.default.fileExists(atPath: backup) else {
      throw CommandError(code: .cannotCreateOutput, message: "\(backup) already exists: move it away first")
    }
    do {
      do {
        try FileManager.default.copyItem(atPath: path, toPath: backup)
      } catch {
        // A copy cut short (a full disk) must not stay behind as a backup.
        try? FileManager.default.removeItem(atPath: backup)
        let reason = (error as NSError).localizedDescription
        throw CommandError(
          code: .cannotCreateOutput, message: "could not write the backup \(backup): \(reason)")
      }
      guard FileManager.default.contentsEqual(atPath: path, andPath: backup) else {
        try? FileManager.default.removeItem(atPath: backup)
        throw CommandError(code: .failure, message: "the backup copy \(backup) differs from \(path)")
      }
      do {
        try TerminalProgress.run("migrating \(path)") { _ in
          try DatabaseQueue.migrateCipherFormat(atPath: path, key: key)
        }
      } catch {
        // A migration that changed nothing (a read-only file…) needs no backup.
        if FileManager.default.contentsEqual(atPath: path, andPath: backup) {
          try? FileManager.default.removeItem(atPath: backup)
        }
        throw error
      }
    } catch {
      throw commandError(error, path: path)
    }
    output("migrated \(path) (backup: \(backup))")
  },
  Command(
    name: "watch",
    summary: "print a line when any other process commits to DB (commits closer than a check share a line)",
    usage: "dbkey watch DB [--key-fd N | --passphrase-fd N | --passphrase] [--count N]", flags: keyFlags,
    options: keyOptions.union(["--count"])
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    let key = try resolveKey(arguments, path: path).key
    let limit = try arguments.value("--count").map { text -> Int in
      guard let count = Int(text), count > 0 else {
        throw CommandError(code: .usage, message: "--count needs a positive number")
      }
      return count
    }
    try requireDatabaseFile(path)
    var config = Configuration()
    config.key = key
    config.cipher = try cipherSettings(path: path, key: key).cipher
    let done = DispatchSemaphore(value: 0)
    let seen = Counter()
    let cancellable: AnyDatabaseCancellable
    // The pool must outlive the observation.
    let dbPool: DatabasePool
    do {
      dbPool = try DatabasePool(path: path, configuration: config)
      cancellable = DatabaseRegionObservation(tracking: DatabaseRegion.fullDatabase).start(
        in: dbPool, onError: { _ in done.signal() },
        onChange: { _ in
          let count = seen.increment()
          output("commit \(count) \(String(format: "%.6f", Date().timeIntervalSince1970))")
          if let limit, count >= limit { done.signal() }
        })
      output("watching \(path)")
    } catch {
      throw commandError(error, path: path)
    }
    done.wait()
    cancellable.cancel()
    try? dbPool.close()
  },
]

/// A counter shared with observation callbacks.
final class Counter: Sendable {
  private let value = Mutex(0)

  func increment() -> Int {
    value.withLock { value in
      value += 1
      return value
    }
  }
}

/// Exits with "cannot create output" unless a new file can be written at
/// `path`: it does not exist (or `overwrite`), and its directory is a writable
/// directory. Checked before anything else happens, keyring included.
func requireNewOutput(_ path: String, overwrite: Bool) throws {
  let fileManager = FileManager.default
  var isDirectory: ObjCBool = false
  if fileManager.fileExists(atPath: path, isDirectory: &isDirectory) {
    guard overwrite else {
      throw CommandError(
        code: .cannotCreateOutput, message: "\(path) already exists: refusing to overwrite it")
    }
    guard !isDirectory.boolValue else {
      throw CommandError(code: .cannotCreateOutput, message: "\(path) is a directory")
    }
  }
  let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
  guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory) else {
    throw CommandError(
      code: .cannotCreateOutput, message: "cannot create \(path): \(directory) does not exist")
  }
  guard isDirectory.boolValue else {
    throw CommandError(
      code: .cannotCreateOutput, message: "cannot create \(path): \(directory) is not a directory")
  }
  guard fileManager.isWritableFile(atPath: directory) else {
    throw CommandError(
      code: .cannotCreateOutput, message: "cannot create \(path): \(directory) is not writable")
  }
}

/// The SQLCipher format of an encrypted file (nil for plaintext, or a key
/// that opens it in no format), and the settings that open it: the linked
/// version's defaults, or an older format's, which `dbkey migrate` upgrades.
func cipherSettings(path: String, key: DatabaseKey?) throws -> (format: Int?, cipher: CipherConfiguration) {
  guard let key, let format = try DatabaseQueue.cipherFormat(atPath: path, key: key) else {
    return (nil, CipherConfiguration())
  }
  guard format < linkedSQLCipherMajorVersion, linkedSQLCipherMajorVersion >= 4 else {
    return (format, CipherConfiguration())
  }
  return (format, CipherConfiguration(compatibility: format))
}

/// The major version of the linked SQLCipher (0 if unknown).
var linkedSQLCipherMajorVersion: Int {
  SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) } ?? 0
}

/// An integer pragma: SQLCipher answers `page_size` of a keyed database as text.
func pragmaInteger(_ db: Database, _ name: String) throws -> Int {
  guard let value = try DatabaseValue.fetchOne(db, sql: "PRAGMA \(name)") else { return 0 }
  return Int.fromDatabaseValue(value) ?? String.fromDatabaseValue(value).flatMap { Int($0) } ?? 0
}
