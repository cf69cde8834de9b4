import Foundation
import Sealite
import SealiteKeyring

let initCommand = Command(
  name: "init", summary: "create an encrypted database keyed with a new random key kept in the keyring",
  synopsis: "init DB [--name NAME] [--collection LABEL] [--json]",
  details: "The key is stored as a pending item first; the database is written under a temporary name\n"
    + "(mode 0600) and renamed into place, never over a file (or link) that is there; then the key\n"
    + "becomes DB's key. An interruption leaves no file and no key (or, after the rename, both).\n"
    + "A key the keyring already holds for DB's path (the key of a database that was moved, say) is\n"
    + "never replaced.",
  options: [CommonOptions.name, CommonOptions.collection, CommonOptions.json]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  var info = stat()
  if lstat(path, &info) == 0 {
    let what = info.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link" : "already exists"
    throw CommandError(code: .cannotCreateOutput, message: "\(path) \(what): init creates a new file only")
  }
  let entry = try KeyringEntry(arguments, path: path)
  let key = DatabaseKey.randomRaw()
  try Interruption.working { cancellation in
    try keyringCall(path: path) {
      try entry.keyring.createDatabase(entry.database, key: key, cancellation: cancellation)
    }
  }
  Output.result(
    "created \(path), its key is in the keyring", ["created": path, "keyKind": keyKindName(key.kind)])
}

let rekeyCommand = Command(
  name: "rekey",
  summary: "re-encrypt DB with a new random key (or a passphrase), crash-safe, kept in the keyring",
  synopsis: "rekey DB [--new-passphrase-fd N | --new-passphrase] [--name NAME] [--collection LABEL] [--json]",
  details: "DB's key comes from the keyring. The new key is stored as a pending item, DB is re-encrypted\n"
    + "in one transaction, checked with the new key, and the new key replaces the old one. At every\n"
    + "instant one of the two keys opens DB: after a crash, `dbkey recover DB` (or any open through\n"
    + "the keyring) keeps the one that does. Other key operations on DB wait for this one to end.\n"
    + "An interruption before the re-encryption changes nothing; the re-encryption itself runs to\n"
    + "its end. An SQLCipher 3 database is re-encrypted in its own format.\n" + CommonOptions.keyNote,
  options: CommonOptions.newPassphrase(of: "DB") + [
    CommonOptions.name, CommonOptions.collection, CommonOptions.json,
  ]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  try requireDatabaseFile(path)
  let entry = try KeyringEntry(arguments, path: path)
  let newKey = try newPassphrase(arguments, for: path) ?? .randomRaw()
  try Interruption.working { cancellation in
    // SQLCipher rewrites the pages in one call that reports nothing: the
    // status line shows the time it takes.
    try keyringCall(path: path) {
      try TerminalProgress.run("re-encrypting \(path)") { _ in
        try entry.keyring.changeKey(of: entry.database, to: newKey, cancellation: cancellation)
      }
    }
  }
  Output.result(
    "rekeyed \(path), the new key is in the keyring", ["rekeyed": path, "keyKind": keyKindName(newKey.kind)])
}

let recoverCommand = Command(
  name: "recover",
  summary: "settle what an interrupted operation left: keys, temporary files, a transaction",
  synopsis: "recover DB [--name NAME] [--collection LABEL] [--json]",
  details: "After a crash (or SIGKILL) of a key change, an export, an import, a migration or an init of\n"
    + "DB: keeps whichever of the stored and the pending key opens DB, removes temporary files\n"
    + "beside DB, and rolls back a transaction the crash interrupted (read-only commands can not).\n"
    + "Waits for a key operation on DB that is still running.",
  options: [CommonOptions.name, CommonOptions.collection, CommonOptions.json]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  let entry = try KeyringEntry(arguments, path: path)
  var done: [String] = []
  try Interruption.working { cancellation in
    let lock = try keyringCall(path: path) {
      try DatabaseFileLock.acquire(forDatabaseAtPath: path, cancellation: cancellation)
    }
    defer { lock.release() }
    if !lock.removedLeftovers.isEmpty {
      done.append("removed \(lock.removedLeftovers.count) temporary file(s) an interrupted operation left")
    }
    var info = stat()
    if lstat(path, &info) != 0 {
      if let settled = try entry.settle() { done.append(settled) }
      guard !done.isEmpty else { throw CommandError(code: .notFound, message: "no database file at \(path)") }
      return
    }
    try requireDatabaseFile(path)
    if let settled = try entry.settle() { done.append(settled) }
    let backup = path + ".before-migrate"
    if isHardLink(backup, to: path), unlink(backup) == 0 {
      done.append("removed \(backup), which an interrupted migration left (it was \(path) itself)")
    }
    // Opening for writing rolls back a hot journal, which read-only commands
    // (info, verify) can not do.
    let hadJournal = FileManager.default.fileExists(atPath: path + "-journal")
    let key = try resolveKey(arguments, path: path).key
    guard try opens(path, with: key) else {
      throw CommandError(code: .cannotOpen, message: "the key in the keyring does not open \(path)")
    }
    if hadJournal && !FileManager.default.fileExists(atPath: path + "-journal") {
      done.append("rolled back a transaction that a crash interrupted")
    }
    if try removeStaleJournal(path, key: key) {
      done.append("removed \(path)-journal, which a crash left with nothing to roll back")
    }
  }
  if Output.json {
    Output.json(["recovered": path, "actions": done])
  } else if done.isEmpty {
    Output.line("nothing to recover: no operation on \(path) was interrupted")
  } else {
    for line in done { Output.line(line) }
  }
}

let migrateCommand = Command(
  name: "migrate",
  summary: "upgrade an SQLCipher 3 (or older) database to the current format, keeping a backup",
  synopsis:
    "migrate DB [--key-fd N | --passphrase-fd N | --passphrase] [--name NAME] [--collection LABEL] [--json]",
  details: "The key stays the same. DB is copied into the current format under a temporary name beside\n"
    + "it, checked, and renamed over DB; the original is kept as DB.before-migrate. A database in\n"
    + "WAL mode is checkpointed first (the backup holds every commit). A database in the current\n"
    + "format is left alone, with no backup. Close every other program that has DB open first.\n"
    + CommonOptions.keyNote,
  options: CommonOptions.databaseKey + [CommonOptions.json]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  try requireDatabaseFile(path)
  guard let key = try resolveKey(arguments, path: path).key else {
    throw CommandError(code: .cannotOpen, message: "\(path) is not encrypted: there is nothing to migrate")
  }
  let backup = path + ".before-migrate"
  let format = try cipherSettings(path: path, key: key).format
  let current = Int(SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first ?? "") ?? 0
  if let format, format >= current {
    Output.result(
      "\(path) is already in the current SQLCipher format (\(format)): nothing to do",
      ["migrated": false, "path": path, "format": format])
    return
  }
  guard !FileManager.default.fileExists(atPath: backup) || isHardLink(backup, to: path) else {
    throw CommandError(code: .cannotCreateOutput, message: "\(backup) already exists: move it away first")
  }
  let migrated = try Interruption.working { cancellation in
    try keyringCall(path: path) {
      try TerminalProgress.run("migrating \(path)") { _ in
        try DatabaseQueue.migrateCipherFormat(
          atPath: path, key: key, backupPath: backup, cancellation: cancellation)
      }
    }
  }
  Output.result(
    migrated ? "migrated \(path) (backup: \(backup))" : "\(path) is already in the current SQLCipher format",
    ["migrated": migrated, "path": path, "backup": migrated ? backup : NSNull(), "format": current])
}

/// True if `link` names the same file as `path` (a hard link to it).
func isHardLink(_ link: String, to path: String) -> Bool {
  var linked = stat()
  var original = stat()
  return lstat(link, &linked) == 0 && stat(path, &original) == 0 && linked.st_dev == original.st_dev
    && linked.st_ino == original.st_ino
}

/// Removes a `-journal` that holds nothing to roll back (see
/// `DatabaseQueue.removeStaleJournal(atPath:key:cipher:)`).
func removeStaleJournal(_ path: String, key: DatabaseKey?) throws -> Bool {
  let cipher = try cipherSettings(path: path, key: key).cipher
  return try keyringCall(path: path) {
    try DatabaseQueue.removeStaleJournal(atPath: path, key: key, cipher: cipher)
  }
}
