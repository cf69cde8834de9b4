import CLibSecret
import Foundation

/// The attribute names of Sealite's keyring items. Attributes are not secret: they hold
/// only what identifies the database and the kind of key.
enum KeyringAttribute {
  static let path = "path"
  static let name = "name"
  static let kind = "kind"
  /// The schema's name, stored by libsecret as the item's `xdg:schema` attribute.
  static let schemaName = "org.sealite.DatabaseKey"
}

/// An item (or collection) that went away during an operation: the operation
/// starts over (see `Keyring.serialized`).
struct VanishedObject: Error {
  let message: String
}

/// An owned GError, turned into a ``KeyringError``.
struct GErrorInfo {
  let domain: GQuark
  let code: Int32
  let message: String
  /// The D-Bus error name the service sent, if the error came from it.
  let remoteName: String?

  /// Takes the error out of `pointer` (freeing it), or returns nil if there is none.
  static func take(_ pointer: inout UnsafeMutablePointer<GError>?) -> GErrorInfo? {
    guard let error = pointer else { return nil }
    defer {
      g_error_free(error)
      pointer = nil
    }
    return GErrorInfo(
      domain: error.pointee.domain, code: error.pointee.code,
      message: error.pointee.message.map { String(cString: $0) } ?? "unknown error",
      remoteName: takeString(g_dbus_error_get_remote_error(error)))
  }

  /// True when the object asked for went away meanwhile (another program
  /// deleted an item between a search and the load of its secret).
  var isVanishedObject: Bool {
    // gnome-keyring answers for a deleted item with Secret.Error.NoSuchObject,
    // or, once the object is gone from the bus, with D-Bus's unknown object,
    // interface or method: with the remote name, or mapped to GDBus codes.
    matches(secret_error_get_quark(), SECRET_ERROR_NO_SUCH_OBJECT.rawValue)
      || matches(g_dbus_error_quark(), G_DBUS_ERROR_UNKNOWN_OBJECT.rawValue)
      || matches(g_dbus_error_quark(), G_DBUS_ERROR_UNKNOWN_INTERFACE.rawValue)
      || matches(g_dbus_error_quark(), G_DBUS_ERROR_UNKNOWN_METHOD.rawValue)
      || [
        "org.freedesktop.Secret.Error.NoSuchObject", "org.freedesktop.DBus.Error.UnknownObject",
        "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownMethod",
      ].contains(remoteName ?? "")
  }

  func matches(_ domain: GQuark, _ code: UInt32) -> Bool {
    self.domain == domain && UInt32(bitPattern: self.code) == code
  }

  var isCancelled: Bool { matches(g_io_error_quark(), G_IO_ERROR_CANCELLED.rawValue) }

  /// The error a user can act on. `collection` names the collection for "locked";
  /// `connecting` tells that the call was the first contact with the bus.
  func keyringError(collection: String, connecting: Bool) -> KeyringError {
    // The bus answered, but nothing owns (or can be activated as) org.freedesktop.secrets.
    if matches(g_dbus_error_quark(), G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue)
      || matches(g_dbus_error_quark(), G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue)
    {
      return .noSecretService
    }
    if matches(secret_error_get_quark(), SECRET_ERROR_IS_LOCKED.rawValue) {
      return .collectionLocked(collection)
    }
    if isCancelled { return .promptDismissed }
    // Connecting to the bus fails with a GIO error (no socket, connection refused, no X11
    // for autolaunch); a bus that goes away later reports a closed connection. Other GIO
    // errors after connecting (a timed-out call, say) are not about the bus being absent.
    // Without DBUS_SESSION_BUS_ADDRESS, GLib tries to start a bus with dbus-launch,
    // which fails with a spawn error where dbus-launch is not installed (cron, ssh).
    if (connecting && (domain == g_io_error_quark() || domain == g_spawn_error_quark()))
      || matches(g_io_error_quark(), G_IO_ERROR_CLOSED.rawValue)
      || matches(g_dbus_error_quark(), G_DBUS_ERROR_DISCONNECTED.rawValue)
      || matches(g_dbus_error_quark(), G_DBUS_ERROR_NO_SERVER.rawValue)
    {
      return .noSessionBus
    }
    return .failure(message)
  }
}

/// Calls a libsecret function taking a trailing `GError **`, throwing its error.
func withGError<T>(
  collection: String, connecting: Bool = false,
  _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
) throws -> T {
  var error: UnsafeMutablePointer<GError>?
  let result = body(&error)
  if let info = GErrorInfo.take(&error) {
    if info.isVanishedObject { throw VanishedObject(message: info.message) }
    throw info.keyringError(collection: collection, connecting: connecting)
  }
  return result
}

/// A GHashTable of strings to strings (libsecret's attribute tables), owning its copies.
final class AttributeTable {
  let table: OpaquePointer

  init(_ attributes: [String: String]) {
    table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
    for (key, value) in attributes {
      g_hash_table_insert(table, g_strdup(key), g_strdup(value))
    }
  }

  deinit { g_hash_table_unref(table) }

  /// Reads a string-to-string GHashTable (borrowed) into a dictionary.
  static func dictionary(_ table: OpaquePointer) -> [String: String] {
    var result: [String: String] = [:]
    var iterator = GHashTableIter()
    g_hash_table_iter_init(&iterator, table)
    var key: gpointer?
    var value: gpointer?
    while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
      guard let key, let value else { continue }
      result[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(
        cString: value.assumingMemoryBound(to: CChar.self))
    }
    return result
  }
}

/// Sealite's schema: three string attributes. Made per call (it is cheap) so that no
/// non-Sendable C pointer needs to be shared between threads.
final class DatabaseKeySchema {
  let schema: UnsafeMutablePointer<SecretSchema>

  init() {
    let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
    defer { g_hash_table_unref(types) }
    for name in [KeyringAttribute.path, KeyringAttribute.name, KeyringAttribute.kind] {
      // SECRET_SCHEMA_ATTRIBUTE_STRING is 0, i.e. a null pointer value.
      g_hash_table_insert(types, g_strdup(name), nil)
    }
    schema = secret_schema_newv(KeyringAttribute.schemaName, SECRET_SCHEMA_NONE, types)
  }

  deinit { secret_schema_unref(schema) }
}

/// A GList of GObjects (owned), as libsecret returns them.
func takeObjectList<T>(_ list: UnsafeMutablePointer<GList>?, as type: T.Type) -> [ObjectRef<T>] {
  var result: [ObjectRef<T>] = []
  var node = list
  while let current = node {
    if let data = current.pointee.data {
      result.append(ObjectRef(owning: data.assumingMemoryBound(to: T.self)))
    }
    node = current.pointee.next
  }
  // The references moved into the ObjectRefs; only the list cells are freed here.
  g_list_free(list)
  return result
}

/// Owns one reference to a GObject and drops it when released.
final class ObjectRef<T> {
  let pointer: UnsafeMutablePointer<T>

  init(owning pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }

  var proxy: UnsafeMutablePointer<GDBusProxy> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GDBusProxy.self)
  }

  var objectPath: String { String(cString: g_dbus_proxy_get_object_path(proxy)) }

  deinit { g_object_unref(pointer) }
}

/// Takes an owned C string (freeing it).
func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
  guard let pointer else { return nil }
  defer { g_free(pointer) }
  return String(cString: pointer)
}
