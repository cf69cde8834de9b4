/// Why a ``Keyring`` operation failed, in terms a user can act on.
///
/// Descriptions never contain key bytes: the only values they quote are database paths,
/// names, collection names and the Secret Service's own error text, none of which can
/// hold a key (keys travel to the Secret Service only as the secret of an item).
public enum KeyringError: Error, CustomStringConvertible, Equatable, Sendable {
  /// No D-Bus session bus could be reached (`DBUS_SESSION_BUS_ADDRESS` unset, or pointing
  /// to a bus that does not answer), so no keyring can be asked.
  case noSessionBus
  /// The session bus answers, but no program provides the Secret Service
  /// (`org.freedesktop.secrets`) on it: no keyring daemon is installed or running.
  case noSecretService
  /// The collection (named by its label) is locked: its items can not be read or changed
  /// until it is unlocked.
  case collectionLocked(String)
  /// The keyring asked the user to unlock a collection and the prompt was dismissed, or
  /// could not be shown (no prompter, as in a headless session).
  case promptDismissed
  /// The collection holds no key for this database.
  case itemNotFound(path: String, name: String?)
  /// No collection with this label exists (or, for the default collection, the keyring
  /// has no `default` alias).
  case collectionNotFound(String)
  /// The database path is unusable (empty).
  case invalidDatabasePath(String)
  /// Writing a new database at this path would replace a key that may still be needed:
  /// the keyring holds a key for the path, and no file is there, or the file there does
  /// not open with it. It may be the key of a database that was moved or copied away.
  case keyWouldBeReplaced(path: String, name: String?)
  /// Moving the key away from this database would leave it without one: its file is
  /// still there, and the key opens it.
  case keyStillNeeded(path: String, name: String?)
  /// Any other failure of the Secret Service, with its message.
  case failure(String)

  /// What happened and what to do about it.
  public var description: String {
    switch self {
    case .noSessionBus:
      return "No D-Bus session bus is reachable, so the keyring can not be used: run the program "
        + "in a desktop or D-Bus session (DBUS_SESSION_BUS_ADDRESS must name a running bus; "
        + "dbus-run-session starts one)."
    case .noSecretService:
      return "The D-Bus session has no Secret Service (org.freedesktop.secrets): install and start "
        + "a keyring daemon such as gnome-keyring."
    case .collectionLocked(let collection):
      return "The keyring collection \"\(collection)\" is locked: unlock it (log in to the desktop, "
        + "use a keyring manager such as Seahorse, or call Keyring.unlock()) and try again."
    case .promptDismissed:
      return "The keyring's unlock prompt was dismissed or could not be shown, so the collection "
        + "stays locked: unlock it from a desktop session and try again."
    case .itemNotFound(let path, let name):
      let named = name.map { " named \"\($0)\"" } ?? ""
      return "The keyring holds no key for the database\(named) at \(path): store one first "
        + "(Keyring.store(_:for:label:))."
    case .collectionNotFound(let collection):
      return "The keyring has no collection \"\(collection)\": create it with a keyring manager "
        + "such as Seahorse, or use the default collection."
    case .invalidDatabasePath(let path):
      return "\"\(path)\" is not a usable database path."
    case .keyWouldBeReplaced(let path, let name):
      let named = name.map { " named \"\($0)\"" } ?? ""
      return "The keyring holds a key for the database\(named) at \(path) that does not open a file "
        + "there: it may be the key of a database that was moved or copied. Nothing was written: "
        + "re-point the key to where the database is now (Keyring.moveKey(from:to:)), or delete it "
        + "if it is not needed, then try again."
    case .keyStillNeeded(let path, let name):
      let named = name.map { " named \"\($0)\"" } ?? ""
      return "The key of the database\(named) at \(path) still opens the file there: moving it away "
        + "would leave that database without its key. Nothing was changed."
    case .failure(let message):
      return "The Secret Service failed: \(message)"
    }
  }
}
