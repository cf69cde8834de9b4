import Sealite

extension Configuration {
  /// Sets ``Configuration/key`` to the key the keyring holds for `database`, so that the
  /// program opens its encrypted database without ever handling the key:
  ///
  ///     var config = Configuration()
  ///     try config.useKeyFromKeyring(for: KeyringDatabase(path: path))
  ///     let dbPool = try DatabasePool(path: path, configuration: config)
  ///
  /// The keyring is asked once, now: every connection of a queue or pool opened with this
  /// configuration (a pool's writer and each of its readers) uses the fetched key, with no
  /// further D-Bus call, and a lookup failure surfaces here rather than at some later
  /// connection. (The core `Sealite` module knows nothing of the keyring; this method only
  /// fills in its `key`.)
  ///
  /// A key change that a crash interrupted (see ``Keyring/changeKey(of:to:cipher:cancellation:)-9kkxr``) is
  /// settled first, with ``Keyring/settlePendingKeyChange(for:cipher:)``: the key found is
  /// the one that opens the database.
  ///
  /// - Throws: ``KeyringError``, e.g. ``KeyringError/itemNotFound(path:name:)`` or
  ///   ``KeyringError/collectionLocked(_:)``; `SQLITE_BUSY` when another process's key
  ///   operation on the database is still in progress after `DatabaseFileLock.defaultTimeout`.
  public mutating func useKeyFromKeyring(_ keyring: Keyring = Keyring(), for database: KeyringDatabase)
    throws
  {
    try keyring.settlePendingKeyChange(for: database, cipher: cipher)
    key = try keyring.key(for: database)
  }

  /// Sets ``Configuration/key`` to the key the keyring holds for `database`, fetched off
  /// the caller's thread; see ``useKeyFromKeyring(_:for:)``.
  public mutating func useKeyFromKeyring(_ keyring: Keyring = Keyring(), for database: KeyringDatabase)
    async throws
  {
    let cipher = cipher
    try await keyring.settlePendingKeyChange(for: database, cipher: cipher)
    key = try await keyring.key(for: database)
  }
}
