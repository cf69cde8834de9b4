import Foundation
import Sealite

/// How ``Keyring/settlePendingKeyChange(for:cipher:)-381ic`` settled what an interrupted
/// operation left.
public enum PendingKeyChangeOutcome: Sendable, Equatable {
  /// The database still opens with the stored key (the operation was interrupted before
  /// the database changed): the pending key was dropped.
  case keptStoredKey
  /// The database opens with the pending key (the operation was interrupted after the
  /// database changed): the pending key became the stored key.
  case promotedPendingKey
  /// No file is at the database's path (the creation, import or export of a new file was
  /// interrupted before the file was put in place): the pending key opened nothing and was
  /// dropped. A stored key, if any, was kept.
  case droppedPendingKey
}

extension KeyringDatabase {
  /// The keyring item that holds a new key while an operation that changes the
  /// database's key is in progress — a key change, or the creation, import or export of
  /// a new file at its path: the same path, under a reserved name. A key is pending
  /// until the database it opens is in place, and never shadows the stored key before.
  public var pendingKeyItem: KeyringDatabase {
    KeyringDatabase(canonicalPath: canonicalPath, name: "sealite.pending-key" + (name.map { ":" + $0 } ?? ""))
  }
}

extension Keyring {
  /// Re-encrypts the database with `newKey` and keeps the new key in the
  /// keyring, in an order that survives a crash at any instant:
  ///
  /// 1. `newKey` is stored as the *pending* item (``KeyringDatabase/pendingKeyItem``);
  /// 2. the database is re-encrypted, in one SQLCipher transaction (the commit point);
  /// 3. a new connection checks that `newKey` opens it;
  /// 4. `newKey` becomes the stored key; 5. the pending item is dropped.
  ///
  /// At every instant one of the two items opens the database. The whole change holds
  /// the database's `DatabaseFileLock`, so concurrent key changes of one database run one
  /// after the other, and no other process settles (and so deletes) the pending key of a
  /// change in progress. After a crash,
  /// ``settlePendingKeyChange(for:cipher:)-381ic`` — called by every
  /// `Configuration.useKeyFromKeyring(_:for:)` — finds out which key opens the database,
  /// and keeps it.
  ///
  /// - parameter database: the database to re-encrypt, whose key the keyring holds.
  /// - parameter newKey: the key the database gets.
  /// - parameter cipher: the cipher settings of the database; by default those of the
  ///   format the stored key opens it in (an SQLCipher 3 database stays in that format).
  /// - parameter cancellation: stops the change before the re-encryption starts (the
  ///   re-encryption itself is one transaction, which runs to its end).
  /// - Throws: ``KeyringError`` when the keyring fails (nothing is changed), a
  ///   `DatabaseError` when the stored key does not open the database or the
  ///   re-encryption fails (the database keeps its key, the pending item is dropped);
  ///   `SQLITE_BUSY` when another connection holds the database, or another whole-file
  ///   operation on it did not end within `DatabaseFileLock.defaultTimeout`;
  ///   `SQLITE_INTERRUPT` after a cancellation.
  public func changeKey(
    of database: KeyringDatabase, to newKey: DatabaseKey, cipher: CipherConfiguration = CipherConfiguration(),
    cancellation: OperationCancellation? = nil
  ) throws {
    try DatabaseFileLock.withLock(forDatabaseAtPath: database.canonicalPath, cancellation: cancellation) {
      try settleHoldingLock(database, cipher: cipher)
      let current = try key(for: database)
      let cipher = try Self.cipher(opening: database, with: current, given: cipher)
      try cancellation?.check("the key change")
      try store(
        newKey, for: database.pendingKeyItem, label: "Sealite pending key for \(database.canonicalPath)")
      do {
        try cancellation?.check("the key change")
        var config = Configuration()
        config.key = current
        config.cipher = cipher
        config.observesOtherProcesses = false
        // Readers of other processes hold their locks for moments: the key
        // change waits for them rather than fail.
        config.busyMode = .timeout(10)
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
      try dropPendingKey(of: database)
    }
  }

  /// Deletes the pending key of `database`; one already gone is no error.
  func dropPendingKey(of database: KeyringDatabase) throws {
    do {
      try deleteKey(for: database.pendingKeyItem)
    } catch KeyringError.itemNotFound {
    }
  }

  /// Settles what an operation that changes the database's key left when it was
  /// interrupted (by a crash, SIGKILL, a full disk): of the stored key and the pending
  /// key, the one that opens the database becomes the stored key, and the pending item
  /// is dropped. Returns nil, after one lookup, when there is nothing to settle.
  ///
  /// The settling holds the database's `DatabaseFileLock`: while another process's key
  /// change or export into the database is in progress, it waits for it to end (up to
  /// `DatabaseFileLock.defaultTimeout`), and never touches the pending key such a live
  /// operation owns.
  ///
  /// - Throws: ``KeyringError``; a `DatabaseError` when neither key opens the
  ///   database (nothing is changed), when another connection holds it locked, or
  ///   (`SQLITE_BUSY`) when another operation on it did not end in time.
  @discardableResult
  public func settlePendingKeyChange(
    for database: KeyringDatabase, cipher: CipherConfiguration = CipherConfiguration()
  ) throws -> PendingKeyChangeOutcome? {
    guard try needsSettling(database) else { return nil }
    return try DatabaseFileLock.withLock(forDatabaseAtPath: database.canonicalPath) {
      try settleHoldingLock(database, cipher: cipher)
    }
  }

  /// True if a pending key exists, or more than one stored key.
  func needsSettling(_ database: KeyringDatabase) throws -> Bool {
    try !keys(for: database.pendingKeyItem).isEmpty || keys(for: database).count > 1
  }

  /// Settles, with the database's lock held (no live operation owns a pending key).
  func settleHoldingLock(_ database: KeyringDatabase, cipher: CipherConfiguration) throws
    -> PendingKeyChangeOutcome?
  {
    let pending = try keys(for: database.pendingKeyItem)
    let stored = try keys(for: database)
    guard !pending.isEmpty || stored.count > 1 else { return nil }
    var info = stat()
    guard lstat(database.canonicalPath, &info) == 0 else {
      // Nothing can be opened: stored keys are kept (they may be the keys of a
      // database that was moved), pending ones opened nothing that exists.
      guard !pending.isEmpty else { return nil }
      try dropPendingKey(of: database)
      return .droppedPendingKey
    }
    for key in stored where try Self.key(key, opens: database, cipher: cipher) {
      if stored.count > 1 { try store(key, for: database, label: nil) }
      if !pending.isEmpty { try dropPendingKey(of: database) }
      return .keptStoredKey
    }
    for key in pending where try Self.key(key, opens: database, cipher: cipher) {
      try store(key, for: database, label: nil)
      try dropPendingKey(of: database)
      return .promotedPendingKey
    }
    throw DatabaseError(
      resultCode: .SQLITE_NOTADB,
      message:
        "neither the stored key nor the pending key opens \(database.canonicalPath): nothing was changed")
  }

  /// Re-encrypts off the caller's thread; see ``changeKey(of:to:cipher:cancellation:)``.
  public func changeKey(
    of database: KeyringDatabase, to newKey: DatabaseKey, cipher: CipherConfiguration = CipherConfiguration(),
    cancellation: OperationCancellation? = nil
  ) async throws {
    try await Self.offThread {
      try self.changeKey(of: database, to: newKey, cipher: cipher, cancellation: cancellation)
    }
  }

  /// Settles an interrupted key change off the caller's thread; see
  /// ``settlePendingKeyChange(for:cipher:)``.
  @discardableResult
  public func settlePendingKeyChange(
    for database: KeyringDatabase, cipher: CipherConfiguration = CipherConfiguration()
  ) async throws -> PendingKeyChangeOutcome? {
    try await Self.offThread { try self.settlePendingKeyChange(for: database, cipher: cipher) }
  }

  /// True if `key` opens the database (a connection reads its schema), with
  /// `cipher`, or — when `cipher` is the default — in an older SQLCipher format.
  /// Throws when the database is locked, or damaged: that tells nothing about the key.
  static func key(_ key: DatabaseKey, opens database: KeyringDatabase, cipher: CipherConfiguration) throws
    -> Bool
  {
    try openingCipher(database, key: key, given: cipher) != nil
  }

  /// The settings that open the database with `key`: `given` unless it is the
  /// default, else those of the format the key opens the file in. Throws the
  /// opening error when the key opens it in no format.
  static func cipher(opening database: KeyringDatabase, with key: DatabaseKey, given: CipherConfiguration)
    throws -> CipherConfiguration
  {
    do {
      if let cipher = try openingCipher(database, key: key, given: given) { return cipher }
      // Opened once more, for the error that says why (wrong key, not a database…).
      try open(database, key: key, cipher: given)
      return given
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
      throw DatabaseError(
        resultCode: error.extendedResultCode,
        message: "the key in the keyring does not open \(database.canonicalPath): \(error.message ?? "")")
    }
  }

  /// The settings that open the database with `key` (see
  /// ``cipher(opening:with:given:)``), or nil when it opens in no format.
  ///
  /// The connection is not read-only: after a crash in the middle of a
  /// transaction (a key change, say), SQLite must roll back the hot journal
  /// before anything can be read, which a read-only connection can not do.
  /// The rollback copies the journal's pages back as they are, whatever the
  /// key, and nothing else is written.
  private static func openingCipher(_ database: KeyringDatabase, key: DatabaseKey, given: CipherConfiguration)
    throws -> CipherConfiguration?
  {
    do {
      try open(database, key: key, cipher: given)
      return given
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
      guard given == CipherConfiguration() else { return nil }
      return try DatabaseQueue.cipherConfiguration(atPath: database.canonicalPath, key: key)
    }
  }

  /// Opens (and closes) a connection to the database keyed with `key`.
  private static func open(_ database: KeyringDatabase, key: DatabaseKey, cipher: CipherConfiguration) throws
  {
    var config = Configuration()
    config.key = key
    config.cipher = cipher
    config.observesOtherProcesses = false
    try DatabaseQueue(path: database.canonicalPath, configuration: config).close()
  }
}
