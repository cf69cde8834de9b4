/// What the Encryption layer keeps on a keyed connection.
final class KeyingState: ConnectionState {
  /// The passphrase this connection was keyed with (also through
  /// `usePassphrase` in `prepareDatabase`): a pool derives the key from it
  /// once for its readers, then forgets it.
  var passphraseInUse: DatabaseKey?
  /// The raw key derived from ``passphraseInUse`` that keys this connection
  /// instead (see `keyWithDerivedPassphrase()`), for a pool's readers.
  var derivedKey: DatabaseKey?
  /// True once the connection is keyed with a raw key, which SQLCipher uses
  /// without any derivation.
  var isKeyedWithRawKey = false
  /// The key this connection was keyed with, until its first read: a key
  /// whose settings authenticate no page is checked through another
  /// connection first (see Database+KeyProbe.swift).
  var keyOfFirstRead: DatabaseKey?
  /// Told of every key change on this connection, so that a pool keys the
  /// connections it opens afterwards with the new key (GRDB's way to rekey a
  /// pool: `db.changePassphrase` in a barrier, then `invalidateReadOnlyConnections()`).
  var keyChangeObserver: (@Sendable (DatabaseKey) -> Void)?

  static func make(for db: Database) -> KeyingState { KeyingState() }

  func connectionWillClose() {
    passphraseInUse = nil
    derivedKey = nil
    keyOfFirstRead = nil
    keyChangeObserver = nil
  }
}

extension Database {
  /// Tells `observer` of every key change on this connection.
  func observeKeyChanges(_ observer: @escaping @Sendable (DatabaseKey) -> Void) {
    state(for: KeyingState.self).keyChangeObserver = observer
  }
}
