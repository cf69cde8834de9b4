import Foundation
import Sealite
import SealiteKeyring

/// Library errors as dbkey errors: an exit code chosen by what happened (see
/// ``ExitCode``), and a message for operators (what to run, not which API to call).
enum ErrorMapping {
  static func commandError(_ error: any Error, path: String?) -> CommandError {
    switch error {
    case let error as CommandError: return error
    case let error as KeyringError: return keyring(error)
    case let error as DatabaseError: return database(error, path: path)
    default: return CommandError(code: .failure, message: "\(error)")
    }
  }

  static func database(_ error: DatabaseError, path: String?) -> CommandError {
    let message = error.message ?? "\(error.resultCode)"
    let subject = path ?? "the database"
    switch error.resultCode {
    case .SQLITE_CANTOPEN where error.extendedResultCode == .SEALITE_CANTOPEN_NOFILE:
      return CommandError(code: .notFound, message: message)
    case .SQLITE_CANTOPEN:
      return CommandError(code: .cannotCreateOutput, message: message)
    case .SQLITE_NOTADB, .SQLITE_AUTH:
      return CommandError(code: .cannotOpen, message: message)
    case .SQLITE_CORRUPT:
      return CommandError(
        code: .damaged, message: "\(message) (dbkey verify names the damaged pages)")
    case .SQLITE_READONLY where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK:
      // A hot journal that a read-only command can not roll back: recover can.
      return CommandError(code: .cannotOpen, message: "\(message) (dbkey recover does)")
    case .SQLITE_BUSY where error.extendedResultCode == .SEALITE_BUSY_FILE_OPERATION:
      // The message names the file and what to do.
      return CommandError(code: .busy, message: message)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return CommandError(code: .busy, message: "\(subject) is locked by another connection: \(message)")
    case .SQLITE_FULL:
      return CommandError(
        code: .cannotCreateOutput, message: "\(message): free some disk space and try again")
    case .SQLITE_READONLY, .SQLITE_PERM:
      return CommandError(code: .cannotCreateOutput, message: "\(subject) can not be written: \(message)")
    case .SQLITE_IOERR:
      return CommandError(code: .ioError, message: "an input/output error on \(subject): \(message)")
    case .SQLITE_INTERRUPT:
      return CommandError(code: .interrupted, message: message)
    default:
      return CommandError(code: .failure, message: message)
    }
  }

  static func keyring(_ error: KeyringError) -> CommandError {
    switch error {
    case .itemNotFound(let path, let name):
      return CommandError(
        code: .notFound,
        message: "the keyring holds no key for \(described(path, name)): store it with "
          + "`dbkey keyring store \(path) --key-fd N` (or --passphrase-fd N, --passphrase)")
    case .collectionNotFound(let collection):
      return CommandError(
        code: .notFound,
        message: "the keyring has no collection \"\(collection)\": check --collection (dbkey keyring "
          + "list shows the default collection's keys), or create it with a keyring manager such as Seahorse")
    case .noSessionBus:
      return CommandError(
        code: .keyringUnavailable,
        message: "no D-Bus session bus is reachable, so the keyring can not be used: run dbkey in the "
          + "user's desktop session; from ssh, cron or a system service, set "
          + "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$(id -u)/bus when that user's session runs, "
          + "or start a session with dbus-run-session")
    case .noSecretService:
      return CommandError(
        code: .keyringUnavailable,
        message: "the D-Bus session has no Secret Service (org.freedesktop.secrets): install and start "
          + "a keyring daemon such as gnome-keyring (gnome-keyring-daemon --start --components=secrets)")
    case .collectionLocked(let collection):
      return CommandError(
        code: .keyringUnavailable,
        message: "the keyring collection \"\(collection)\" is locked: unlock it (log in to the desktop "
          + "session, or open it in a keyring manager such as Seahorse) and run the command again")
    case .promptDismissed:
      return CommandError(
        code: .keyringUnavailable,
        message: "the keyring's unlock prompt was dismissed or could not be shown: unlock the "
          + "collection from the desktop session and run the command again")
    case .keyWouldBeReplaced(let path, let name):
      return CommandError(
        code: .refused,
        message: "the keyring holds a key for \(described(path, name)) that does not open a file there: "
          + "it may be the key of a database that was moved. Nothing was written. If the database is "
          + "elsewhere now, `dbkey keyring move \(path) NEW-PATH`; if the key is not needed, "
          + "`dbkey keyring forget \(path) --force`")
    case .keyStillNeeded(let path, let name):
      return CommandError(
        code: .refused,
        message: "the key still opens \(described(path, name)): moving it would leave that database "
          + "without its key (store the key for the new path instead, or use --force). Nothing was changed")
    case .invalidDatabasePath:
      return CommandError(code: .usage, message: error.description)
    case .failure:
      return CommandError(code: .failure, message: error.description)
    }
  }

  private static func described(_ path: String, _ name: String?) -> String {
    name.map { "\(path) (named \"\($0)\")" } ?? path
  }
}
