import Foundation
import Sealite
import SealiteKeyring

/// The keyring item of one database, chosen with `--name` and `--collection`.
/// Key changes and their crash recovery are the library's
/// (`Keyring.changeKey(of:to:cipher:)`, `settlePendingKeyChange(for:cipher:)`).
struct KeyringEntry {
  let keyring: Keyring
  let database: KeyringDatabase

  /// From `--name` and `--collection`.
  init(_ arguments: Arguments, path: String) throws {
    do {
      keyring = Keyring(collection: arguments.value("--collection").map { .named($0) } ?? .default)
      database = try KeyringDatabase(path: path, name: arguments.value("--name"))
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

  func store(_ key: DatabaseKey) throws {
    do {
      try keyring.store(key, for: database)
    } catch {
      throw keyringCommandError(error)
    }
  }

  func forget() throws {
    do {
      try keyring.deleteKey(for: database)
    } catch {
      throw keyringCommandError(error)
    }
  }

  /// Settles what a key change interrupted by a crash left behind; returns a
  /// description of what was done, or nil if nothing was pending.
  @discardableResult
  func settlePendingKeyChange(path: String) throws -> String? {
    let outcome: PendingKeyChangeOutcome?
    do {
      outcome = try keyring.settlePendingKeyChange(
        for: database, cipher: cipherSettings(path: path, key: nil).cipher)
    } catch {
      throw keyringCommandError(error)
    }
    switch outcome {
    case nil: return nil
    case .keptStoredKey?:
      return "a key change was interrupted before the database changed: the stored key was kept"
    case .promotedPendingKey?:
      return "a key change was interrupted after the database changed: the new key is now the stored key"
    }
  }
}

/// True if `key` opens the database at `path` (reads page 1). Throws when
/// another connection holds the database locked: that tells nothing about the
/// key. Not read-only, so that a hot journal a crash left behind is rolled
/// back (as `Keyring.settlePendingKeyChange` does; see there).
func opens(_ path: String, with key: DatabaseKey?) throws -> Bool {
  var config = Configuration()
  config.key = key
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
  if let error = error as? CommandError { return error }
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
    try requireDatabaseFile(path)
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

/// Exits with "not found" unless a file exists at `path`, and with "can not
/// open" if it is a directory or empty (SQLite would take an empty file for a
/// new database: no command may turn it into one, or keep a key for it).
func requireDatabaseFile(_ path: String) throws {
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
    throw CommandError(code: .notFound, message: "no database file at \(path)")
  }
  guard !isDirectory.boolValue else {
    throw CommandError(code: .cannotOpen, message: "\(path) is a directory, not a database file")
  }
  func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
  }
  // (A non-empty -wal beside an empty file would hold the database.)
  if size(path) == 0, (size(path + "-wal") ?? 0) == 0 {
    throw CommandError(code: .cannotOpen, message: "\(path) is empty: not a database")
  }
}
