import Foundation
import Sealite
import SealiteKeyring

/// The keyring item of one database, chosen with `--name` (or another option)
/// and `--collection`. Key changes, creations and their crash recovery are the
/// library's (`Keyring.changeKey`, `createDatabase`, `exportDatabase`,
/// `settlePendingKeyChange`).
struct KeyringEntry {
  let keyring: Keyring
  let database: KeyringDatabase

  init(_ arguments: Arguments, path: String, nameOption: String = "--name") throws {
    keyring = Keyring(collection: arguments.value("--collection").map { .named($0) } ?? .default)
    database = try keyringCall { try KeyringDatabase(path: path, name: arguments.value(nameOption)) }
  }

  /// The stored key, or nil if there is none.
  func storedKey() throws -> DatabaseKey? {
    do {
      return try keyring.key(for: database)
    } catch KeyringError.itemNotFound {
      return nil
    } catch {
      throw ErrorMapping.commandError(error, path: database.canonicalPath)
    }
  }

  /// Settles what an interrupted operation left; a description of what was
  /// done, or nil if nothing was pending.
  @discardableResult
  func settle() throws -> String? {
    let outcome = try keyringCall(path: database.canonicalPath) {
      try keyring.settlePendingKeyChange(for: database)
    }
    switch outcome {
    case nil: return nil
    case .keptStoredKey?:
      return "an operation was interrupted before the database changed: the stored key was kept"
    case .promotedPendingKey?:
      return "an operation was interrupted after the database changed: its new key is now the stored key"
    case .droppedPendingKey?:
      return
        "the creation of this database was interrupted before its file was in place: its new key was dropped"
    }
  }
}

/// Runs a keyring (or library) call, its errors as dbkey errors.
func keyringCall<T>(path: String? = nil, _ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch {
    throw ErrorMapping.commandError(error, path: path)
  }
}

/// The key that opens DB, and where it came from.
struct ResolvedKey {
  var key: DatabaseKey?
  /// Where the key came from, for people.
  var source: String
  var isFromKeyring = false

  /// `raw`, `raw-salted`, `passphrase`, or `none`.
  var kind: String { key.map { keyKindName($0.kind) } ?? "none" }
}

func keyKindName(_ kind: DatabaseKey.Kind) -> String {
  switch kind {
  case .passphrase: "passphrase"
  case .raw(let hasSalt): hasSalt ? "raw-salted" : "raw"
  }
}

/// The key of DB: from a descriptor or the terminal if given, else — for an
/// encrypted file — from the keyring, after settling an interrupted
/// operation. A plaintext file needs no key, and no keyring.
func resolveKey(_ arguments: Arguments, path: String) throws -> ResolvedKey {
  if let key = try KeySource.key(
    arguments, keyOption: "--key-fd", passphraseOption: "--passphrase-fd", promptFlag: "--passphrase",
    prompt: "Passphrase of \(path): ")
  {
    try requireDatabaseFile(path)
    let source =
      arguments.gives("--key-fd")
      ? "raw key from file descriptor"
      : arguments.gives("--passphrase-fd")
        ? "passphrase from file descriptor" : "passphrase typed on the terminal"
    return ResolvedKey(key: key, source: source)
  }
  try requireDatabaseFile(path)
  if isPlaintextDatabase(path) { return ResolvedKey(key: nil, source: "none: the file is not encrypted") }
  let entry = try KeyringEntry(arguments, path: path)
  try entry.settle()
  guard let key = try entry.storedKey() else {
    throw ErrorMapping.keyring(.itemNotFound(path: entry.database.canonicalPath, name: entry.database.name))
  }
  return ResolvedKey(key: key, source: "keyring (\(entry.database.canonicalPath))", isFromKeyring: true)
}

/// Runs `body` with DB's key (see ``resolveKey(_:path:)``). When the key came
/// from the keyring and does not open DB, another process may have changed it
/// in between (a rekey that ended right after the lookup): `body` runs once
/// more with the keyring's key, if that changed.
func withKey<T>(_ arguments: Arguments, path: String, _ body: (ResolvedKey) throws -> T) throws -> T {
  let resolved = try resolveKey(arguments, path: path)
  do {
    return try body(resolved)
  } catch {
    guard resolved.isFromKeyring, let old = resolved.key, isKeyError(error) else { throw error }
    let again = try resolveKey(arguments, path: path)
    guard let new = again.key, !new.hasSameBytes(as: old) else { throw error }
    return try body(again)
  }
}

private func isKeyError(_ error: any Error) -> Bool {
  if let error = error as? DatabaseError { return error.resultCode == .SQLITE_NOTADB }
  if let error = error as? CommandError { return error.code == .cannotOpen }
  return false
}

/// The SQLCipher format of an encrypted file (nil for plaintext), and the
/// settings that open it: the linked version's defaults, or an older
/// format's, which `dbkey migrate` upgrades. A key that opens it in no format
/// gets the defaults (opening then says the key does not open it).
func cipherSettings(path: String, key: DatabaseKey?) throws -> (format: Int?, cipher: CipherConfiguration) {
  guard let key else { return (nil, CipherConfiguration()) }
  return try keyringCall(path: path) {
    guard let format = try DatabaseQueue.cipherFormat(atPath: path, key: key) else {
      return (nil, CipherConfiguration())
    }
    return (format, try DatabaseQueue.cipherConfiguration(atPath: path, key: key) ?? CipherConfiguration())
  }
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

/// True if the file starts with the plaintext SQLite header.
func isPlaintextDatabase(_ path: String) -> Bool {
  guard let handle = FileHandle(forReadingAtPath: path) else { return false }
  defer { try? handle.close() }
  let header = (try? handle.read(upToCount: 16)) ?? Data()
  return header == Data("SQLite format 3\0".utf8)
}

/// True if `key` opens the database at `path` in any SQLCipher format. Not
/// read-only, so that a hot journal a crash left behind is rolled back.
/// Throws when the database is locked or damaged: that tells nothing about the key.
func opens(_ path: String, with key: DatabaseKey?) throws -> Bool {
  try keyringCall(path: path) {
    var config = Configuration()
    config.key = key
    config.observesOtherProcesses = false
    do {
      try DatabaseQueue(path: path, configuration: config).close()
      return true
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
      guard let key else { return false }
      return try DatabaseQueue.cipherFormat(atPath: path, key: key) != nil
    }
  }
}
