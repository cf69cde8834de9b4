import CLibSecret
import Sealite

extension Keyring {
  /// One operation's connection to the Secret Service and its collection. Objects are
  /// looked up afresh for each operation: libsecret's cached proxies learn of changes (a
  /// collection locked by another program) only through a GLib main loop, which a Swift
  /// program need not run.
  final class Session {
    let service: ObjectRef<SecretService>
    let collection: ObjectRef<SecretCollection>
    let schema = DatabaseKeySchema()
    /// The collection's label, for error messages.
    let label: String

    init(_ wanted: Keyring.Collection) throws {
      let requested: String
      switch wanted {
      case .default: requested = "default"
      case .named(let name): requested = name
      }
      // Opening a session makes a missing Secret Service fail here, not at the first item.
      let service = try withGError(collection: requested, connecting: true) {
        secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, nil, $0)
      }
      guard let service else { throw KeyringError.noSecretService }
      self.service = ObjectRef(owning: service)
      let found: UnsafeMutablePointer<SecretCollection>?
      switch wanted {
      case .default:
        found = try withGError(collection: requested) {
          secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, nil, $0)
        }
      case .named(let name):
        found = try Self.collection(labelled: name, in: service)
      }
      guard let found else { throw KeyringError.collectionNotFound(requested) }
      collection = ObjectRef(owning: found)
      label = takeString(secret_collection_get_label(found)) ?? requested
    }

    private static func collection(
      labelled name: String, in service: UnsafeMutablePointer<SecretService>
    ) throws -> UnsafeMutablePointer<SecretCollection>? {
      _ = try withGError(collection: name) { secret_service_load_collections_sync(service, nil, $0) }
      let all = takeObjectList(secret_service_get_collections(service), as: SecretCollection.self)
      // The instance libsecret caches for this path: its Locked property may lag behind a
      // lock made by another program, which is why items are also checked one by one, and
      // a store into a collection locked meanwhile fails with IS_LOCKED (collectionLocked).
      guard let match = all.first(where: { takeString(secret_collection_get_label($0.pointer)) == name })
      else { return nil }
      return UnsafeMutablePointer(
        mutating: g_object_ref(match.pointer)?.assumingMemoryBound(to: SecretCollection.self))
    }

    var isLocked: Bool { secret_collection_get_locked(collection.pointer) != 0 }

    func requireUnlocked() throws {
      if isLocked { throw KeyringError.collectionLocked(label) }
    }

    /// The collection's Sealite items whose attributes include `attributes`, locked or not.
    ///
    /// libsecret's own search lists the matching paths, then loads every item, and fails
    /// as a whole when another program deleted one in between: with programs that store
    /// and forget keys all the time, a listing of the whole collection then rarely
    /// succeeds. Here an item that vanished makes only the paths search run again (it
    /// is cheap): an item the new search still lists (replaced under the same path) is
    /// loaded again, one it no longer lists is gone, and items loaded already are kept.
    func search(_ attributes: [String: String]) throws -> [ObjectRef<SecretItem>] {
      let table = AttributeTable(attributes)
      var loaded: [String: ObjectRef<SecretItem>] = [:]
      for _ in 0..<Self.searchRounds {
        let paths = try itemPaths(matching: table)
        var missing = false
        for path in paths where loaded[path] == nil {
          do {
            loaded[path] = try item(at: path)
          } catch is VanishedObject {
            missing = true
          }
        }
        if !missing { return paths.compactMap { loaded[$0] } }
      }
      // Still changing after every round: the whole operation starts over
      // (`Keyring.serialized`), then fails with this message.
      throw VanishedObject(message: "the items of \(label) kept changing while they were listed")
    }

    /// How many times one search reads the paths again while items vanish under it.
    private static let searchRounds = 20

    /// The D-Bus paths of the matching items, without loading any.
    private func itemPaths(matching table: AttributeTable) throws -> [String] {
      let paths = try withGError(collection: label) {
        secret_collection_search_for_dbus_paths_sync(collection.pointer, schema.schema, table.table, nil, $0)
      }
      defer { g_strfreev(paths) }
      var result: [String] = []
      var index = 0
      while let path = paths?[index] {
        result.append(String(cString: path))
        index += 1
      }
      return result
    }

    /// The item at `path`; throws `VanishedObject` if it was deleted meanwhile.
    private func item(at path: String) throws -> ObjectRef<SecretItem> {
      let item = try withGError(collection: label) {
        secret_item_new_for_dbus_path_sync(service.pointer, path, SECRET_ITEM_NONE, nil, $0)
      }
      guard let item else { throw VanishedObject(message: "no such secret item at path \(path)") }
      return ObjectRef(owning: item)
    }

    /// The items holding the key of `database`, all unlocked; throws `itemNotFound` or
    /// `collectionLocked` (told apart: a plain lookup would return nothing for both).
    func unlockedItems(for database: KeyringDatabase) throws -> [ObjectRef<SecretItem>] {
      let items = try search(Keyring.identity(database))
      if items.isEmpty {
        // A locked collection may hide its items from searches.
        try requireUnlocked()
        throw KeyringError.itemNotFound(path: database.canonicalPath, name: database.name)
      }
      if items.contains(where: { secret_item_get_locked($0.pointer) != 0 }) {
        throw KeyringError.collectionLocked(label)
      }
      return items
    }

    /// The items holding keys of `database` (any kind), the most recently
    /// changed first; empty if there is none. Throws `collectionLocked` when
    /// any of them is locked, or when a locked collection may hide them.
    func items(of database: KeyringDatabase) throws -> [ObjectRef<SecretItem>] {
      let items = try search(Keyring.identity(database))
      if items.isEmpty {
        try requireUnlocked()
        return []
      }
      if items.contains(where: { secret_item_get_locked($0.pointer) != 0 }) {
        throw KeyringError.collectionLocked(label)
      }
      // Two items for one database are what a store that changed the key's
      // kind left when it was cut short: the newer one is the stored key.
      return items.sorted { secret_item_get_modified($0.pointer) > secret_item_get_modified($1.pointer) }
    }

    /// The key an item of `database` holds.
    func key(of item: ObjectRef<SecretItem>, database: KeyringDatabase) throws -> DatabaseKey {
      let kind = try kind(of: item, database: database)
      _ = try withGError(collection: label) { secret_item_load_secret_sync(item.pointer, nil, $0) }
      guard let value = secret_item_get_secret(item.pointer) else {
        // The item was locked again between the search and the load.
        throw KeyringError.collectionLocked(label)
      }
      defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
      var length = 0
      let bytes = secret_value_get(value, &length)!
      return try Keyring.makeKey(
        kind: kind, bytes: UnsafeRawBufferPointer(start: bytes, count: length), database: database)
    }

    func attributes(of item: ObjectRef<SecretItem>) -> [String: String] {
      guard let table = secret_item_get_attributes(item.pointer) else { return [:] }
      defer { g_hash_table_unref(table) }
      return AttributeTable.dictionary(table)
    }

    /// The `kind` attribute of an item of `database`: from libsecret's cached attributes,
    /// else asked of the service (the cache of a just-found item may still be empty).
    func kind(of item: ObjectRef<SecretItem>, database: KeyringDatabase) throws -> String {
      if let kind = attributes(of: item)[KeyringAttribute.kind] { return kind }
      for kind in Keyring.kinds {
        let matching = try search(Keyring.identity(database).merging([KeyringAttribute.kind: kind]) { $1 })
        if matching.contains(where: { $0.objectPath == item.objectPath }) { return kind }
      }
      return ""
    }

    func delete(_ item: ObjectRef<SecretItem>) throws {
      _ = try withGError(collection: label) { secret_item_delete_sync(item.pointer, nil, $0) }
    }
  }
}
