import Foundation
import Sealite
import SealiteKeyring

/// The keyring items of one database: its key, and the pending key of a key
/// change in progress (a separate item, so that a crash at any instant leaves
/// a key that opens the database in the keyring).
struct KeyringEntry {
  let keyring: Keyring
  let database: KeyringDatabase
  let pending: KeyringDatabase

  /// From `--name` and `--collection`.
  init(_ arguments: Arguments, path: String) throws {
    do {
      let name = arguments.value("--name")
      keyring = Keyring(collection: arguments.value("--collection").map { .named($0) } ?? .default)
      database = try KeyringDatabase(path: path, name: name)
      pending = try KeyringDatabase(path: path, name: "sealite.pending-key" + (name.map { ":" + $0 } ?? ""))
    } catch {
      throw keyringCommandError(error)
    }
  }

  /// The stored key, or nil if there is none.
  func storedKey() throws -> DatabaseKey? {
    do {
      return try keyring.key(for: database)
    } catch KeyringError.itemNotFound {
      return nil
    } catch {
      throw keyringCommandError(error)
    }
  }

  func pendingKey() throws -> DatabaseKey? {
    do {
      return try keyring.key(for: pending)
    } catch KeyringError.itemNotFound {
      return nil
    } catch {
      throw keyringCommandError(error)
    }
  }

  func store(_ key: DatabaseKey, pending isPending: Bool = false) throws {
    do {
      let label =
        isPending
        ? "Sealite pending key for \(database.canonicalPath)" : "Sealite key for \(database.canonicalPath)"
      try keyring.store(key, for: isPending ? pending : database, label: label)
    } catch {
      throw keyringCommandError(error)
    }
  }

  func forget(pending isPending: Bool = false) throws {
    do {
      try keyring.deleteKey(for: isPending ? pending : database)
    } catch {
      throw keyringCommandError(error)
    }
  }

  /// Settles what a key change interrupted by a crash left behind: the key
  /// that opens the database becomes the stored key, the other is dropped.
  /// Returns a description of what was done, or nil if nothing was pending.
  @discardableResult
  func settlePendingKeyChange(path: String) throws -> String? {
    guard let pendingKey = try pendingKey() else { return nil }
    if let current = try storedKey(), try opens(path, with: current) {
      try forget(pending: true)
      return "a key change was interrupted before the database changed: the stored key was kept"
    }
    guard try opens(path, with: pendingKey) else {
      throw CommandError(
        code: .cannotOpen,
        message: "neither the stored key nor the pending key opens \(path): nothing was changed")
    }
    try store(pendingKey)
    try forget(pending: true)
    return "a key change was interrupted after the database changed: the new key is now the stored key"
  }
}

/// True if `key` opens the database at `path` (reads page 1, writes nothing).
/// Throws when another connection holds the database locked: that tells
/// nothing about the key.
func opens(_ path: String, with key: DatabaseKey?) throws -> Bool {
  var config = Configuration()
  config.key = key
  config.readonly = true
  do {
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    try? dbQueue.close()
    return true
  } catch let error as DatabaseError
    where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
  {
    throw commandError(error, path: path)
  } catch {
    return false
  }
}

/// True if the file starts with the plaintext SQLite header.
func isPlaintextDatabase(_ path: String) -> Bool {
  guard let handle = FileHandle(forReadingAtPath: path) else { return false }
  defer { try? handle.close() }
  let header = (try? handle.read(upToCount: 16)) ?? Data()
  return header == Data("SQLite format 3\0".utf8)
}

/// Keyring failures as dbkey errors.
func keyringCommandError(_ error: any Error) -> CommandError {
  guard let error = error as? KeyringError else { return commandError(error, path: nil) }
  switch error {
  case .itemNotFound, .collectionNotFound: return CommandError(code: .notFound, message: error.description)
  case .noSessionBus, .noSecretService, .collectionLocked, .promptDismissed:
    return CommandError(code: .keyringUnavailable, message: error.description)
  case .invalidDatabasePath: return CommandError(code: .usage, message: error.description)
  default: return CommandError(code: .failure, message: error.description)
  }
}

/// Where the key that opens DB comes from.
struct ResolvedKey {
  var key: DatabaseKey?
  var source: String
}

/// The key of DB: from a descriptor if given, else from the keyring (after
/// settling an interrupted key change). A plaintext file with no stored key
/// opens without key.
func resolveKey(_ arguments: Arguments, path: String, passphraseOption: String = "--passphrase-fd") throws
  -> ResolvedKey
{
  if let key = try KeySource.key(
    arguments, passphraseOption: passphraseOption, prompt: "Passphrase of \(path): ")
  {
    let source =
      arguments.value("--key-fd") != nil
      ? "raw key from file descriptor"
      : arguments.value(passphraseOption) != nil
        ? "passphrase from file descriptor" : "passphrase typed on the terminal"
    return ResolvedKey(key: key, source: source)
  }
  try requireDatabaseFile(path)
  let entry = try KeyringEntry(arguments, path: path)
  try entry.settlePendingKeyChange(path: path)
  if let key = try entry.storedKey() {
    return ResolvedKey(key: key, source: "keyring (\(entry.database.canonicalPath))")
  }
  if isPlaintextDatabase(path) { return ResolvedKey(key: nil, source: "none: the file is not encrypted") }
  throw CommandError(code: .notFound, message: "the keyring holds no key for \(entry.database.canonicalPath)")
}

/// Exits with "not found" unless a file exists at `path`, and with "not a
/// database" if it is a directory.
func requireDatabaseFile(_ path: String) throws {
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
    throw CommandError(code: .notFound, message: "no database file at \(path)")
  }
  guard !isDirectory.boolValue else {
    throw CommandError(code: .cannotOpen, message: "\(path) is a directory, not a database file")
  }
}
