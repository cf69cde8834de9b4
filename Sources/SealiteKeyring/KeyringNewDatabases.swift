import Foundation
import Sealite

extension Keyring {
  /// Creates a new, empty database encrypted with `key`, and keeps the key in the
  /// keyring: the key is stored before the file exists, and the file appears whole or
  /// not at all.
  ///
  ///     let database = try KeyringDatabase(path: path)
  ///     try Keyring().createDatabase(database)  // a new random raw key
  ///
  /// The key is first stored as the pending item (``KeyringDatabase/pendingKeyItem``),
  /// where it can not shadow another key; the file is written under a temporary name
  /// and renamed into place (the commit point); then the key becomes the stored key. A
  /// crash at any instant leaves either no file (the pending key is dropped by the next
  /// settling) or the file with its key (promoted by the next settling). The creation
  /// holds the database's `DatabaseFileLock`, so two creations of one path never undo
  /// each other's work.
  ///
  /// - parameter database: where to create the database, and its keyring item.
  /// - parameter key: its key; by default a new random raw key.
  /// - parameter cipher: its cipher settings.
  /// - parameter label: the label of its keyring item.
  /// - parameter cancellation: stops the creation before the file is put in place.
  /// - Throws: `SQLITE_CANTOPEN` if anything (a file, a symbolic link, a directory) is
  ///   at the path; ``KeyringError/keyWouldBeReplaced(path:name:)`` if the keyring
  ///   already holds a key for the path (the key of a database that was moved, say);
  ///   another ``KeyringError``. Nothing is changed on any failure.
  public func createDatabase(
    _ database: KeyringDatabase, key: DatabaseKey = .randomRaw(),
    cipher: CipherConfiguration = CipherConfiguration(), label: String? = nil,
    cancellation: OperationCancellation? = nil
  ) throws {
    try DatabaseFileLock.withLock(forDatabaseAtPath: database.canonicalPath, cancellation: cancellation) {
      try settleHoldingLock(database, cipher: cipher)
      var info = stat()
      if lstat(database.canonicalPath, &info) == 0 {
        throw DatabaseError(
          resultCode: .SQLITE_CANTOPEN, message: "\(database.canonicalPath) already exists")
      }
      guard try keys(for: database).isEmpty else {
        throw KeyringError.keyWouldBeReplaced(path: database.canonicalPath, name: database.name)
      }
      try cancellation?.check("the creation")
      try publishNewFile(database, key: key, label: label) { willPublish in
        try DatabaseQueue.createDatabase(
          atPath: database.canonicalPath, key: key, cipher: cipher, willPublish: willPublish)
      }
    }
  }

  /// Writes a copy of a database into a new file at `destination`, with a new key kept
  /// in the keyring (or in plaintext): how a plaintext database is imported, and how a
  /// database is exported with another key.
  ///
  ///     try Keyring().exportDatabase(
  ///       atPath: plainPath, key: nil, to: KeyringDatabase(path: path), destinationKey: .randomRaw())
  ///
  /// The copy is made by
  /// `DatabaseQueue.exportDatabase(atPath:key:cipher:to:destinationKey:overwrite:progress:cancellation:willPublish:)`:
  /// written beside the destination, checked, and renamed into place (the commit point).
  /// The new key is stored as the pending item right before the rename, and becomes the
  /// destination's stored key right after it, so that at every instant the keyring
  /// holds a key that opens the file at the destination: a crash or a cancellation
  /// leaves the destination and its key as they were, or the new file and its key
  /// (settled by the next ``settlePendingKeyChange(for:cipher:)-381ic``). Holds the
  /// destination's `DatabaseFileLock`.
  ///
  /// A key the keyring already holds for the destination is replaced only when
  /// `overwrite` is on and that key opens the file being replaced; a key for a
  /// destination where no file is, or whose file it does not open, may be the key of a
  /// database that was moved: the export is refused
  /// (``KeyringError/keyWouldBeReplaced(path:name:)``). A plaintext copy removes the
  /// destination's key once the copy is in place.
  ///
  /// - parameter sourcePath: the database to copy.
  /// - parameter key: the key of the source, nil for plaintext.
  /// - parameter cipher: the cipher settings of the source.
  /// - parameter destination: the file to write, and its keyring item.
  /// - parameter destinationKey: the key of the copy, nil for plaintext.
  /// - parameter overwrite: whether an existing destination is replaced.
  /// - parameter label: the label of the destination's keyring item.
  /// - parameter progress: see `DatabaseQueue.exportDatabase`.
  /// - parameter cancellation: stops the export before the rename, changing nothing.
  public func exportDatabase(
    atPath sourcePath: String, key: DatabaseKey?, cipher: CipherConfiguration = CipherConfiguration(),
    to destination: KeyringDatabase, destinationKey: DatabaseKey?, overwrite: Bool = false,
    label: String? = nil, progress: (@Sendable (DatabaseExportProgress) -> Void)? = nil,
    cancellation: OperationCancellation? = nil
  ) throws {
    try DatabaseFileLock.withLock(forDatabaseAtPath: destination.canonicalPath, cancellation: cancellation) {
      var info = stat()
      let exists = lstat(destination.canonicalPath, &info) == 0
      let isRegularFile = exists && info.st_mode & S_IFMT == S_IFREG
      // A link or a directory is refused by the export itself.
      if !exists || isRegularFile { try settleHoldingLock(destination, cipher: CipherConfiguration()) }
      let stored = try keys(for: destination)
      if !stored.isEmpty {
        if !exists {
          throw KeyringError.keyWouldBeReplaced(path: destination.canonicalPath, name: destination.name)
        }
        if isRegularFile && overwrite,
          try !stored.contains(where: { try Self.key($0, opens: destination, cipher: CipherConfiguration()) })
        {
          throw KeyringError.keyWouldBeReplaced(path: destination.canonicalPath, name: destination.name)
        }
      }
      let export = { (willPublish: @escaping () throws -> Void) in
        try DatabaseQueue.exportDatabase(
          atPath: sourcePath, key: key, cipher: cipher, to: destination.canonicalPath,
          destinationKey: destinationKey, overwrite: overwrite, progress: progress,
          cancellation: cancellation,
          willPublish: willPublish)
      }
      if let destinationKey {
        try publishNewFile(destination, key: destinationKey, label: label, export)
      } else {
        try export({})
        // The file in place is plaintext: a key kept for it opens nothing.
        if !stored.isEmpty { try deleteKey(for: destination) }
      }
    }
  }

  /// Runs `write`, which writes the file of `database` and calls the closure it is
  /// given right before renaming it into place: there `key` is stored as the pending
  /// item; once the file is in place it becomes the stored key. A failure before the
  /// rename drops the pending key.
  private func publishNewFile(
    _ database: KeyringDatabase, key: DatabaseKey, label: String?,
    _ write: (@escaping () throws -> Void) throws -> Void
  ) throws {
    let pendingLabel = "Sealite pending key for \(database.canonicalPath)"
    var stored = false
    do {
      try write {
        try self.store(key, for: database.pendingKeyItem, label: pendingLabel)
        stored = true
      }
    } catch {
      if stored { try? deleteKey(for: database.pendingKeyItem) }
      throw error
    }
    try store(key, for: database, label: label)
    try dropPendingKey(of: database)
  }

  /// Re-points a key after its database was moved (or renamed): the key stored for
  /// `old` becomes the key of `new`, and `old`'s item is removed.
  ///
  ///     // after `mv a.sqlite b.sqlite`:
  ///     try Keyring().moveKey(from: KeyringDatabase(path: "a.sqlite"), to: KeyringDatabase(path: "b.sqlite"))
  ///
  /// The key must open the file at `new`. Unless `force`, the move is refused when the
  /// key still opens a file at `old` (``KeyringError/keyStillNeeded(path:name:)``: that
  /// database would be left without a key; store the key for `new` instead), and when
  /// the keyring holds another key for `new` (``KeyringError/keyWouldBeReplaced(path:name:)``).
  /// The new item is stored before the old one is removed: a crash in between leaves
  /// both, never neither. Holds both paths' `DatabaseFileLock`.
  public func moveKey(
    from old: KeyringDatabase, to new: KeyringDatabase, cipher: CipherConfiguration = CipherConfiguration(),
    force: Bool = false
  ) throws {
    guard old != new else { return }
    // Two locks, always taken in the same order.
    let (first, second) = old.canonicalPath < new.canonicalPath ? (old, new) : (new, old)
    try DatabaseFileLock.withLock(forDatabaseAtPath: first.canonicalPath) {
      try DatabaseFileLock.withLock(forDatabaseAtPath: second.canonicalPath) {
        try settleHoldingLock(old, cipher: cipher)
        let key = try self.key(for: old)
        var info = stat()
        guard stat(new.canonicalPath, &info) == 0 else {
          throw DatabaseError(
            resultCode: .SEALITE_CANTOPEN_NOFILE, message: "no database file at \(new.canonicalPath)")
        }
        guard try Self.key(key, opens: new, cipher: cipher) else {
          throw DatabaseError(
            resultCode: .SQLITE_NOTADB,
            message: "the key of \(old.canonicalPath) does not open \(new.canonicalPath): nothing was changed"
          )
        }
        if !force {
          if old.canonicalPath != new.canonicalPath, lstat(old.canonicalPath, &info) == 0,
            try Self.key(key, opens: old, cipher: cipher)
          {
            throw KeyringError.keyStillNeeded(path: old.canonicalPath, name: old.name)
          }
          let existing = try keys(for: new)
          if existing.contains(where: { !$0.hasSameBytes(as: key) }) {
            throw KeyringError.keyWouldBeReplaced(path: new.canonicalPath, name: new.name)
          }
        }
        try store(key, for: new, label: nil)
        try deleteKey(for: old)
      }
    }
  }
}
