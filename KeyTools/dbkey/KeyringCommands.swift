import Foundation
import Sealite
import SealiteKeyring

/// Fails (exit 77) unless storing `key` for `entry` loses no other key: a
/// different key stored there must open the database too (else it may be the
/// key of a database that was moved away). `--force` skips the check.
func requireNoOtherKey(_ entry: KeyringEntry, replacedBy key: DatabaseKey, path: String, force: Bool) throws {
  guard !force, let existing = try entry.storedKey(), !existing.hasSameBytes(as: key) else { return }
  var info = stat()
  if stat(path, &info) == 0, try opens(path, with: existing) { return }
  throw ErrorMapping.keyring(
    .keyWouldBeReplaced(path: entry.database.canonicalPath, name: entry.database.name))
}

let keyringStoreCommand = Command(
  name: "keyring store", summary: "store the key of an existing database in the keyring",
  synopsis:
    "keyring store DB (--key-fd N | --passphrase-fd N | --passphrase) [--name NAME] [--collection LABEL]\n"
    + "       [--force] [--json]",
  details: "The key must open DB (in any SQLCipher format). A different key the keyring holds for DB is\n"
    + "replaced only if it opens DB too, or with --force.\n" + CommonOptions.keyNote,
  options: CommonOptions.databaseKey + [
    .flag("--force", "replace a stored key even if it does not open DB"), CommonOptions.json,
  ]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  guard
    let key = try KeySource.key(
      arguments, keyOption: "--key-fd", passphraseOption: "--passphrase-fd", promptFlag: "--passphrase",
      prompt: "Passphrase of \(path): ")
  else {
    throw CommandError(code: .usage, message: "keyring store needs --key-fd, --passphrase-fd or --passphrase")
  }
  try requireDatabaseFile(path)
  try storeCheckedKey(key, path: path, arguments)
}

/// Stores `key` for DB (the `keyring store` and `import-key` commands): when
/// DB's file exists, the key must open it, and no other key may be lost
/// (see ``requireNoOtherKey(_:replacedBy:path:force:)``).
func storeCheckedKey(_ key: DatabaseKey, path: String, _ arguments: Arguments) throws {
  var info = stat()
  if stat(path, &info) == 0 {
    try requireDatabaseFile(path)
    guard try opens(path, with: key) else {
      throw CommandError(code: .cannotOpen, message: "the key does not open \(path): it was not stored")
    }
  }
  let entry = try KeyringEntry(arguments, path: path)
  try requireNoOtherKey(entry, replacedBy: key, path: path, force: arguments.has("--force"))
  try Interruption.working { _ in
    try keyringCall(path: path) { try entry.keyring.store(key, for: entry.database) }
  }
  Output.result("stored the key of \(path)", ["stored": path, "keyKind": keyKindName(key.kind)])
}

let keyringForgetCommand = Command(
  name: "keyring forget", summary: "delete the key of a database from the keyring",
  synopsis: "keyring forget DB [--force] [--name NAME] [--collection LABEL] [--json]",
  details: "While DB's file exists, its key is often the only copy: forget asks for confirmation on a\n"
    + "terminal, and refuses (exit 77) elsewhere unless --force is given. Keep a copy first with\n"
    + "`dbkey keyring export-key DB --to-fd N`.",
  options: [
    .flag("--force", "delete the key even though DB's file exists, without asking"),
    CommonOptions.name, CommonOptions.collection, CommonOptions.json,
  ]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  let entry = try KeyringEntry(arguments, path: path)
  guard try entry.storedKey() != nil else {
    throw ErrorMapping.keyring(.itemNotFound(path: entry.database.canonicalPath, name: entry.database.name))
  }
  var info = stat()
  if lstat(path, &info) == 0 && !arguments.has("--force") {
    let question =
      "\(path) exists, and its key may be the only copy: without it the database can never be "
      + "opened again. Type yes to forget it: "
    guard TerminalPrompt.confirm(question) == true else {
      throw CommandError(
        code: .refused,
        message: "\(path) exists: refusing to forget what may be the only copy of its key (keep a copy "
          + "with `dbkey keyring export-key \(path) --to-fd N`, then use --force). Nothing was changed")
    }
  }
  try Interruption.working { _ in
    try keyringCall(path: path) { try entry.keyring.deleteKey(for: entry.database) }
  }
  Output.result("forgot the key of \(path)", ["forgot": path])
}

let keyringListCommand = Command(
  name: "keyring list", summary: "list the Sealite keys of the keyring (never their secrets)",
  synopsis: "keyring list [--collection LABEL] [--json]",
  details: "One line per item: its label, the database's path and name, the key's kind, and whether it\n"
    + "is the pending key of an operation in progress (or interrupted: `dbkey recover` settles it).",
  options: [CommonOptions.collection, CommonOptions.json]
) { arguments in
  _ = try arguments.positionals()
  let keyring = Keyring(collection: arguments.value("--collection").map { .named($0) } ?? .default)
  let items = try keyringCall { try keyring.items() }
  let pendingPrefix = "sealite.pending-key"
  let described: [[String: Any]] = items.map { item in
    let name = item.name
    let pending = name.map { $0 == pendingPrefix || $0.hasPrefix(pendingPrefix + ":") } ?? false
    let databaseName =
      pending
      ? name.flatMap { $0.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) } : name
    return [
      "label": item.label, "path": item.path ?? "", "name": databaseName ?? NSNull(),
      "kind": item.attributes["kind"] ?? "", "pending": pending,
      "schema": item.attributes["xdg:schema"] ?? NSNull(),
    ]
  }
  if Output.json {
    Output.json(described)
    return
  }
  for item in described {
    let name = (item["name"] as? String).map { " name=\($0)" } ?? ""
    let pending = item["pending"] as? Bool == true ? " (pending)" : ""
    Output.line("\(item["path"]!)\(name) kind=\(item["kind"]!)\(pending)  \(item["label"]!)")
  }
}

let keyringMoveCommand = Command(
  name: "keyring move", summary: "re-point a key to where its database was moved",
  synopsis: "keyring move OLD NEW [--name NAME] [--new-name NAME] [--collection LABEL] [--force] [--json]",
  details: "After `mv OLD NEW`, the key stored for OLD becomes NEW's. The key must open NEW. Refused\n"
    + "(exit 77) without --force while the key still opens a file at OLD (a copy, not a move: store\n"
    + "the key for NEW instead), or when the keyring holds another key for NEW. The new item is stored\n"
    + "before the old one is deleted.",
  options: [
    .option("--name", "NAME", "the name of OLD's keyring item"),
    .option("--new-name", "NAME", "the name of NEW's keyring item (default: the same as OLD's)"),
    CommonOptions.collection, .flag("--force", "move even if OLD still opens, or NEW has a key"),
    CommonOptions.json,
  ]
) { arguments in
  let paths = try arguments.positionals("OLD", "NEW")
  let old = try KeyringEntry(arguments, path: paths[0])
  let new = try KeyringDatabase(
    path: paths[1], name: arguments.value("--new-name") ?? arguments.value("--name"))
  try requireDatabaseFile(paths[1])
  try Interruption.working { _ in
    try keyringCall(path: paths[1]) {
      try old.keyring.moveKey(from: old.database, to: new, force: arguments.has("--force"))
    }
  }
  Output.result("moved the key of \(paths[0]) to \(paths[1])", ["moved": paths[0], "to": paths[1]])
}
