import CLibSecret
import Foundation
import Sealite

/// Database keys kept in the freedesktop Secret Service (gnome-keyring, KeePassXC, …),
/// so that a program opens an encrypted database without handling the key itself.
///
///     let database = try KeyringDatabase(path: path)
///     try Keyring().store(.randomRaw(), for: database, label: "Notes database")
///     var config = Configuration()
///     try config.useKeyFromKeyring(for: database)
///     let dbPool = try DatabasePool(path: path, configuration: config)
///
/// Items use the schema `org.sealite.DatabaseKey`. Their attributes — which the Secret
/// Service does not protect — say only which database the key belongs to (`path`, the
/// canonical path, and `name`) and what kind of key it is (`kind`: `passphrase`, `raw` or
/// `raw-salted`); the key bytes are the item's secret (content type
/// `application/octet-stream`), so every kind round-trips exactly.
///
/// Every method is a blocking D-Bus call; each has an `async` counterpart that runs it off
/// the caller's thread. Nothing here ever prompts the user except ``unlock()-3rf2r``: a locked
/// collection is reported as ``KeyringError/collectionLocked(_:)``, never as a missing
/// item.
public final class Keyring: Sendable {
  /// Which collection of the keyring holds the keys.
  public enum Collection: Sendable, Hashable {
    /// The collection the Secret Service's `default` alias points to (gnome-keyring's
    /// "Login" collection in a desktop session).
    case `default`
    /// The collection with this label, exactly as a keyring manager such as Seahorse
    /// shows it (e.g. `"Login"`).
    case named(String)
  }

  /// The collection this keyring reads and writes.
  public let collection: Collection

  /// A keyring over `collection` (by default, the default collection). Nothing is
  /// contacted until the first call.
  public init(collection: Collection = .default) {
    self.collection = collection
  }

  // MARK: - Blocking calls

  /// Stores `key` for `database`, replacing the key stored for it before (of any kind).
  ///
  /// - Parameter key: the key to keep.
  /// - Parameter database: the database the key opens.
  /// - Parameter label: the label a keyring manager shows; by default it names the
  ///   database's path (and name).
  /// - Throws: ``KeyringError``, e.g. ``KeyringError/collectionLocked(_:)``.
  public func store(_ key: DatabaseKey, for database: KeyringDatabase, label: String? = nil) throws {
    try Self.serialized {
      let session = try Session(collection)
      try session.requireUnlocked()
      let kind = Self.kindAttribute(key.kind)
      let attributes = AttributeTable(Self.identity(database).merging([KeyringAttribute.kind: kind]) { $1 })
      let value = key.withUnsafeKeyBytes { bytes in
        // libsecret copies the bytes into its own memory, which it wipes when released.
        secret_value_new(
          bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gssize(bytes.count),
          "application/octet-stream")!
      }
      defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
      let itemLabel = label ?? Self.defaultLabel(database)
      _ = try withGError(collection: session.label) { error in
        secret_service_store_sync(
          session.service.pointer, session.schema.schema, attributes.table, session.collection.objectPath,
          itemLabel, value, nil, error)
      }
      // The Secret Service replaces only an item with exactly the same attributes; a key of
      // another kind for the same database is removed after the new one is safely stored.
      // The kinds are matched by the service (not read from libsecret's cached attributes,
      // which a freshly found item may not have loaded yet).
      for other in Self.kinds where other != kind {
        for item in try session.search(Self.identity(database).merging([KeyringAttribute.kind: other]) { $1 })
        {
          try session.delete(item)
        }
      }
    }
  }

  /// The key stored for `database`.
  ///
  /// - Throws: ``KeyringError/itemNotFound(path:name:)`` if there is none,
  ///   ``KeyringError/collectionLocked(_:)`` if the collection is locked (the key is then
  ///   not readable, whether or not it is there), or another ``KeyringError``.
  public func key(for database: KeyringDatabase) throws -> DatabaseKey {
    return try Self.serialized {
      let session = try Session(collection)
      guard let item = try session.items(of: database).first else {
        throw KeyringError.itemNotFound(path: database.canonicalPath, name: database.name)
      }
      return try session.key(of: item, database: database)
    }
  }

  /// The keys stored for `database`, the most recently stored first: one,
  /// except where a store that changed the key's kind was cut short; empty
  /// if there is none.
  func keys(for database: KeyringDatabase) throws -> [DatabaseKey] {
    return try Self.serialized {
      let session = try Session(collection)
      return try session.items(of: database).map { try session.key(of: $0, database: database) }
    }
  }

  /// Deletes the key stored for `database`.
  ///
  /// - Throws: ``KeyringError/itemNotFound(path:name:)`` if there is none, or another
  ///   ``KeyringError``.
  public func deleteKey(for database: KeyringDatabase) throws {
    try Self.serialized {
      let session = try Session(collection)
      for item in try session.unlockedItems(for: database) {
        try session.delete(item)
      }
    }
  }

  /// The Sealite items of the collection: labels and attributes, never secrets. Items of a
  /// locked collection are listed as far as the Secret Service shows them (gnome-keyring
  /// hides their labels and attributes until it is unlocked).
  public func items() throws -> [KeyringItem] {
    return try Self.serialized {
      let session = try Session(collection)
      return try session.search([:]).map { item in
        KeyringItem(
          label: takeString(secret_item_get_label(item.pointer)) ?? "",
          attributes: session.attributes(of: item))
      }
    }
  }

  /// Locks the collection: its keys can not be read until it is unlocked again.
  public func lock() throws {
    try Self.serialized {
      let session = try Session(collection)
      let objects = g_list_append(nil, UnsafeMutableRawPointer(session.collection.pointer))
      defer { g_list_free(objects) }
      _ = try withGError(collection: session.label) {
        secret_service_lock_sync(session.service.pointer, objects, nil, nil, $0)
      }
    }
  }

  /// Unlocks the collection. The Secret Service asks the user for the collection's
  /// password in a prompt of its own; nothing happens if it is unlocked already.
  ///
  /// - Throws: ``KeyringError/promptDismissed`` if the user dismissed the prompt, or no
  ///   prompt could be shown (a session without a prompter).
  public func unlock() throws {
    try Self.serialized {
      let session = try Session(collection)
      guard secret_collection_get_locked(session.collection.pointer) != 0 else { return }
      let objects = g_list_append(nil, UnsafeMutableRawPointer(session.collection.pointer))
      defer { g_list_free(objects) }
      var unlocked: UnsafeMutablePointer<GList>?
      let count = try withGError(collection: session.label) {
        secret_service_unlock_sync(session.service.pointer, objects, nil, &unlocked, $0)
      }
      _ = takeObjectList(unlocked, as: GObject.self)
      // A dismissed (or impossible) prompt is not an error for libsecret: nothing unlocked.
      if count == 0 { throw KeyringError.promptDismissed }
    }
  }

  // MARK: - Async counterparts

  /// Stores `key` for `database` off the caller's thread; see ``store(_:for:label:)``.
  public func store(_ key: DatabaseKey, for database: KeyringDatabase, label: String? = nil) async throws {
    try await Self.offThread { try self.store(key, for: database, label: label) }
  }

  /// The key stored for `database`, fetched off the caller's thread; see ``key(for:)``.
  public func key(for database: KeyringDatabase) async throws -> DatabaseKey {
    try await Self.offThread { try self.key(for: database) }
  }

  /// Deletes the key stored for `database` off the caller's thread; see ``deleteKey(for:)``.
  public func deleteKey(for database: KeyringDatabase) async throws {
    try await Self.offThread { try self.deleteKey(for: database) }
  }

  /// The Sealite items of the collection, listed off the caller's thread; see ``items()``.
  public func items() async throws -> [KeyringItem] {
    try await Self.offThread { try self.items() }
  }

  /// Locks the collection off the caller's thread; see ``lock()``.
  public func lock() async throws {
    try await Self.offThread { try self.lock() }
  }

  /// Unlocks the collection off the caller's thread (waiting for the user's answer to the
  /// prompt without blocking the caller); see ``unlock()``.
  public func unlock() async throws {
    try await Self.offThread { try self.unlock() }
  }

  // MARK: - Helpers

  /// Runs a blocking D-Bus call on a Dispatch worker thread, so that the caller's thread
  /// (a cooperative-pool thread in async code) is never blocked.
  static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
  }

  /// Guards every use of libsecret: its process-wide SecretService object is shared by
  /// all threads, and parallel blocking calls on it were seen to lose items (a search
  /// right after a successful store found nothing). Calls take milliseconds; only
  /// ``unlock()`` may hold the lock for as long as its prompt is shown.
  private static let libsecretLock = NSLock()

  ///
  /// Another program may delete an item between the search that finds it and the call
  /// that reads it (a key operation dropping its pending key, say): such an operation
  /// starts over, a few times, from a new search.
  private static func serialized<T>(_ body: () throws -> T) throws -> T {
    libsecretLock.lock()
    defer { libsecretLock.unlock() }
    var attempt = 0
    while true {
      attempt += 1
      do {
        return try body()
      } catch let vanished as VanishedObject {
        if attempt >= 5 { throw KeyringError.failure(vanished.message) }
      }
    }
  }

  static func identity(_ database: KeyringDatabase) -> [String: String] {
    // The name is always present (empty when none) so that a search for an unnamed
    // database never matches a named one of the same file.
    [KeyringAttribute.path: database.canonicalPath, KeyringAttribute.name: database.name ?? ""]
  }

  static func defaultLabel(_ database: KeyringDatabase) -> String {
    let named = database.name.map { " \"\($0)\"" } ?? ""
    return "Sealite database key\(named) for \(database.canonicalPath)"
  }

  /// The values of the `kind` attribute.
  static let kinds = ["passphrase", "raw", "raw-salted"]

  static func kindAttribute(_ kind: DatabaseKey.Kind) -> String {
    switch kind {
    case .passphrase: return "passphrase"
    case .raw(let hasSalt): return hasSalt ? "raw-salted" : "raw"
    }
  }

  static func makeKey(kind: String, bytes: UnsafeRawBufferPointer, database: KeyringDatabase) throws
    -> DatabaseKey
  {
    // Data copies are wiped once the DatabaseKey holds its own copy.
    var key = Data(bytes)
    defer { wipe(&key) }
    switch (kind, bytes.count) {
    case ("passphrase", _):
      return .passphrase(key)
    case ("raw", 32):
      return try .raw(key)
    case ("raw-salted", 48):
      var raw = key.prefix(32)
      var salt = key.suffix(16)
      defer {
        wipe(&raw)
        wipe(&salt)
      }
      return try .raw(Data(raw), salt: Data(salt))
    default:
      throw KeyringError.failure(
        "the keyring item for \(database.canonicalPath) does not hold a Sealite key of a known kind "
          + "(kind \"\(kind)\", \(bytes.count) bytes); store the key again")
    }
  }

  static func wipe(_ data: inout Data) {
    data.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress, buffer.count > 0 else { return }
      explicit_bzero(base, buffer.count)
    }
  }
}
