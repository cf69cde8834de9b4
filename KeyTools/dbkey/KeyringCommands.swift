import Foundation
import Sealite
import SealiteKeyring

let keyringOptions: Set<String> = ["--name", "--collection"]

let keyringCommands: [Command] = [
  Command(
    name: "init", summary: "create an encrypted database keyed with a new random key kept in the keyring",
    usage: "dbkey init DB [--name NAME] [--collection NAME]", flags: [], options: keyringOptions
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    guard !FileManager.default.fileExists(atPath: path) else {
      throw CommandError(code: .cannotCreateOutput, message: "\(path) already exists")
    }
    let entry = try KeyringEntry(arguments, path: path)
    if try entry.storedKey() != nil {
      throw CommandError(
        code: .cannotCreateOutput,
        message: "the keyring already holds a key for \(entry.database.canonicalPath) (dbkey keyring forget)")
    }
    let key = DatabaseKey.randomRaw()
    // The key is stored first: a database is never left without its key.
    try entry.store(key)
    do {
      var config = Configuration()
      config.key = key
      let dbQueue = try DatabaseQueue(path: path, configuration: config)
      try dbQueue.close()
    } catch {
      try? entry.forget()
      for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
      throw commandError(error, path: path)
    }
    output("created \(path), its key is in the keyring")
  },
  Command(
    name: "import",
    summary: "encrypt a plaintext SQLite database into a new file keyed like init (or with a passphrase)",
    usage:
      "dbkey import PLAIN OUT [--passphrase-fd N | --passphrase] [--name NAME] [--collection NAME] [--force]",
    flags: ["--force", "--passphrase"], options: keyringOptions.union(["--passphrase-fd"])
  ) { arguments in
    let paths = try arguments.positionals("PLAIN", "OUT")
    try requireDatabaseFile(paths[0])
    guard isPlaintextDatabase(paths[0]) else {
      throw CommandError(code: .cannotOpen, message: "\(paths[0]) is not a plaintext SQLite database")
    }
    try requireNewOutput(paths[1], overwrite: arguments.has("--force"))
    let entry = try KeyringEntry(arguments, path: paths[1])
    let previous = try entry.storedKey()
    let key =
      try KeySource.key(arguments, keyOption: nil, prompt: "New passphrase for \(paths[1]): ", confirm: true)
      ?? .randomRaw()
    try entry.store(key)
    do {
      try TerminalProgress.run("importing \(paths[0])") { progress in
        try DatabaseQueue.exportDatabase(
          atPath: paths[0], key: nil, to: paths[1], destinationKey: key, overwrite: arguments.has("--force"),
          progress: { progress.update($0.fractionCompleted) })
      }
    } catch {
      // Put the keyring back as it was.
      if let previous { try? entry.store(previous) } else { try? entry.forget() }
      throw commandError(error, path: paths[0])
    }
    output("imported \(paths[0]) into \(paths[1]), its key is in the keyring")
  },
  Command(
    name: "rekey",
    summary: "re-encrypt DB with a new random key (or a passphrase), crash-safe, kept in the keyring",
    usage: "dbkey rekey DB [--new-passphrase-fd N | --new-passphrase] [--name NAME] [--collection NAME]",
    flags: ["--new-passphrase"],
    options: keyringOptions.union(["--new-passphrase-fd"])
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    try requireDatabaseFile(path)
    let entry = try KeyringEntry(arguments, path: path)
    try entry.settlePendingKeyChange(path: path)
    guard let current = try entry.storedKey() else {
      throw CommandError(
        code: .notFound, message: "the keyring holds no key for \(entry.database.canonicalPath)")
    }
    guard try opens(path, with: current) else {
      if let format = try? DatabaseQueue.cipherFormat(atPath: path, key: current) {
        throw CommandError(
          code: .cannotOpen, message: "\(path) is in the SQLCipher \(format) format: run dbkey migrate first")
      }
      throw CommandError(code: .cannotOpen, message: "the key in the keyring does not open \(path)")
    }
    let newKey =
      try KeySource.key(
        arguments, keyOption: nil, passphraseOption: "--new-passphrase-fd",
        prompt: "New passphrase for \(path): ", confirm: true)
      ?? .randomRaw()
    // Crash-safe: the library keeps the new key as a pending item until the
    // database is re-encrypted and checked. SQLCipher rewrites the pages in one
    // call that reports nothing: the status line shows the time it takes.
    do {
      try TerminalProgress.run("re-encrypting \(path)") { _ in
        try entry.keyring.changeKey(of: entry.database, to: newKey)
      }
    } catch {
      throw keyringCommandError(error)
    }
    output("rekeyed \(path), the new key is in the keyring")
  },
  Command(
    name: "recover",
    summary: "settle a key change that a crash interrupted, and roll back an interrupted transaction",
    usage: "dbkey recover DB [--name NAME] [--collection NAME]", flags: [], options: keyringOptions
  ) { arguments in
    let path = try arguments.positionals("DB")[0]
    try requireDatabaseFile(path)
    let entry = try KeyringEntry(arguments, path: path)
    let settled = try entry.settlePendingKeyChange(path: path)
    if let settled { output(settled) }
    // Opening for writing rolls back a hot journal, which read-only commands
    // (info, verify) can not do.
    let hadJournal = FileManager.default.fileExists(atPath: path + "-journal")
    let key = try resolveKey(arguments, path: path).key
    guard try opens(path, with: key) else {
      throw CommandError(code: .cannotOpen, message: "the key in the keyring does not open \(path)")
    }
    let rolledBack = hadJournal && !FileManager.default.fileExists(atPath: path + "-journal")
    if rolledBack { output("rolled back a transaction that a crash interrupted") }
    if settled == nil && !rolledBack {
      output("nothing to recover: no key change or transaction was interrupted")
    }
  },
  Command(
    name: "keyring", summary: "store, forget or list keys in the keyring (list never shows secrets)",
    usage:
      "dbkey keyring store DB (--key-fd N | --passphrase-fd N | --passphrase) | forget DB | list [--json]\n"
      + "       [--name NAME] [--collection NAME]",
    flags: ["--json", "--passphrase"], options: keyringOptions.union(["--key-fd", "--passphrase-fd"])
  ) { arguments in
    guard let action = arguments.positionals.first else {
      throw CommandError(code: .usage, message: "dbkey keyring needs store, forget or list")
    }
    switch action {
    case "store":
      guard arguments.positionals.count == 2 else {
        throw CommandError(code: .usage, message: "expected store DB")
      }
      let path = arguments.positionals[1]
      guard let key = try KeySource.key(arguments, prompt: "Passphrase of \(path): ") else {
        throw CommandError(code: .usage, message: "store needs --key-fd, --passphrase-fd or --passphrase")
      }
      try requireDatabaseFile(path)
      guard try opens(path, with: key) else {
        throw CommandError(code: .cannotOpen, message: "the key does not open \(path): not stored")
      }
      try KeyringEntry(arguments, path: path).store(key)
      output("stored the key of \(path)")
    case "forget":
      guard arguments.positionals.count == 2 else {
        throw CommandError(code: .usage, message: "expected forget DB")
      }
      try KeyringEntry(arguments, path: arguments.positionals[1]).forget()
      output("forgot the key of \(arguments.positionals[1])")
    case "list":
      let keyring = Keyring(collection: arguments.value("--collection").map { .named($0) } ?? .default)
      let items: [KeyringItem]
      do {
        items = try keyring.items()
      } catch {
        throw keyringCommandError(error)
      }
      if arguments.has("--json") {
        try outputJSON(items.map { ["label": $0.label, "attributes": $0.attributes] })
      } else {
        for item in items {
          let attributes = item.attributes.keys.sorted().map { "\($0)=\(item.attributes[$0]!)" }
          output("\(item.label)\t\(attributes.joined(separator: " "))")
        }
      }
    default:
      throw CommandError(code: .usage, message: "unknown keyring action \(action)")
    }
  },
]
