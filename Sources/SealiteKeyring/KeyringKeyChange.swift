import Foundation
import Sealite

/// How ``Keyring/settlePendingKeyChange(for:cipher:)-381ic`` settled a key change that a crash
/// interrupted.
public enum PendingKeyChangeOutcome: Sendable, Equatable {
  /// The database still opens with the stored key (the crash came before it was
  /// re-encrypted): the pending key was dropped.
  case keptStoredKey
  /// The database opens with the pending key (the crash came after it was
  /// re-encrypted): the pending key became the stored key.
  case promotedPendingKey
}

extension KeyringDatabase {
  /// The keyring item that holds the new key while a key change is in progress:
  /// the same path, under a reserved name.
  public var pendingKeyItem: KeyringDatabase {
    KeyringDatabase(canonicalPath: canonicalPath, name: "sealite.pending-key" + (name.map { ":" + $0 } ?? ""))
  }
}

extension Keyring {
  /// Re-encrypts the database with `newKey` and keeps the new key in the
  /// keyring, in an order that survives a crash at any instant:
  ///
  /// 1. `newKey` is stored as the *pending* item (``KeyringDatabase/pendingKeyItem``);
  /// 2. the database is re-encrypted, in one SQLCipher transaction;
  /// 3. a new connection checks that `newKey` opens it;
  /// 4. `newKey` becomes the stored key; 5. the pending item is dropped.
  ///
  /// At every instant one of the two items opens the database. After a crash,
  /// ``settlePendingKeyChange(for:cipher:)-381ic`` — called by every
  /// `Configuration.useKeyFromKeyring(_:for:)` — finds out which, and keeps it.
  ///
  /// - parameter database: the database to re-encrypt, whose key the keyring holds.
  /// - parameter newKey: the key the database gets.
  /// - parameter cipher: the cipher settings of the database.
  /// - Throws: ``KeyringError`` when the keyring fails (nothing is changed), a
  ///   `DatabaseError` when the stored key does not open the database or the
  ///   re-encryption fails (the database keeps its key, the pending item is
  ///   dropped); `SQLITE_BUSY` when another connection holds the database.
  public func changeKey(
    of database: KeyringDatabase, to newKey: DatabaseKey, cipher: CipherConfiguration = CipherConfiguration()
  ) throws {
    try settlePendingKeyChange(for: database, cipher: cipher)
    let current = try key(for: database)
    guard try Self.key(current, opens: database, cipher: cipher) else {
      throw DatabaseError(
        resultCode: .SQLITE_NOTADB,
        message: "the key in the keyring does not open \(database.canonicalPath)")
    }
    try store(
      newKey, for: database.pendingKeyItem, label: "Sealite pending key for \(database.canonicalPath)")
    do {
      var config = Configuration()
      config.key = current
      config.cipher = cipher
      let dbQueue = try DatabaseQueue(path: database.canonicalPath, configuration: config)
      do {
        try dbQueue.changeKey(to: newKey)
        try dbQueue.close()
      } catch {
        try? dbQueue.close()
        throw error
      }
    } catch {
      // The database kept its key.
      try? deleteKey(for: database.pendingKeyItem)
      throw error
    }
    guard try Self.key(newKey, opens: database, cipher: cipher) else {
      throw DatabaseError(
        resultCode: .SQLITE_NOTADB,
        message: "the new key does not open \(database.canonicalPath) after the key change; "
          + "settlePendingKeyChange (dbkey recover) settles it")
    }
    try store(newKey, for: database, label: nil)
    try deleteKey(for: database.pendingKeyItem)
  }

  /// Settles what a key change interrupted by a crash left behind: of the
  /// stored key and the pending key, the one that opens the database becomes
  /// the stored key, and the pending item is dropped. Returns nil, after one
  /// lookup, when no key change was pending.
  ///
  /// - Throws: ``KeyringError``; a `DatabaseError` when neither key opens the
  ///   database (nothing is changed) or another connection holds it locked.
  @discardableResult
  public func settlePendingKeyChange(
    for database: KeyringDatabase, cipher: CipherConfiguration = CipherConfiguration()
  ) throws -> PendingKeyChangeOutcome? {
    let pendingKey: DatabaseKey
    do {
      pendingKey = try key(for: database.pendingKeyItem)
    } catch KeyringError.itemNotFound {
      return nil
    }
    let stored: DatabaseKey?
    do {
      stored = try key(for: database)
    } catch KeyringError.itemNotFound {
      stored = nil
    }
    if let stored, try Self.key(stored, opens: database, cipher: cipher) {
      try deleteKey(for: database.pendingKeyItem)
      return .keptStoredKey
    }
    guard try Self.key(pendingKey, opens: database, cipher: cipher) else {
      throw DatabaseError(
        resultCode: .SQLITE_NOTADB,
        message:
          "neither the stored key nor the pending key opens \(database.canonicalPath): nothing was changed")
    }
    try store(pendingKey, for: database, label: nil)
    try deleteKey(for: database.pendingKeyItem)
    return .promotedPendingKey
  }

  /// Re-encrypts off the caller's thread; see ``changeKey(of:to:cipher:)``.
  public func changeKey(
    of database: KeyringDatabase, to newKey: DatabaseKey, cipher: CipherConfiguration = CipherConfiguration()
  ) async throws {
    try await Self.offThread { try self.changeKey(of: database, to: newKey, cipher: cipher) }
  }

  /// Settles an interrupted key change off the caller's thread; see
  /// ``settlePendingKeyChange(for:cipher:)``.
  @discardableResult
  public func settlePendingKeyChange(
    for database: KeyringDatabase, cipher: CipherConfiguration = CipherConfiguration()
  ) async throws -> PendingKeyChangeOutcome? {
    try await Self.offThread { try self.settlePendingKeyChange(for: database, cipher: cipher) }
  }

  /// True if `key` opens the database (a connection reads its schema). Throws
  /// when the database is locked: that tells nothing about the key.
  ///
  /// The connection is not read-only: after a crash in the middle of a
  /// transaction (a key change, say), SQLite must roll back the hot journal
  /// before anything can be read, which a read-only connection can not do.
  /// The rollback copies the journal's pages back as they are, whatever the
  /// key, and nothing else is written.
  static func key(_ key: DatabaseKey, opens database: KeyringDatabase, cipher: CipherConfiguration) throws
    -> Bool
  {
    var config = Configuration()
    config.key = key
    config.cipher = cipher
    do {
      let dbQueue = try DatabaseQueue(path: database.canonicalPath, configuration: config)
      try? dbQueue.close()
      return true
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    {
      throw error
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
      return false
    }
  }
}
