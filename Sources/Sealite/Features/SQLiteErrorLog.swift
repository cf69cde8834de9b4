import CSQLCipher
import Synchronization

/// SQLite's error log (`SQLITE_CONFIG_LOG`), installed once for the process.
///
/// SQLite takes a log callback only before it is initialized (before 3.42):
/// so one callback of Sealite's is installed before the first connection of
/// Sealite's opens (the probe's included), and it forwards to the handler
/// set now, which ``Database/logError`` sets at any time.
enum SQLiteErrorLog {
  /// What receives each logged error: the extended result code and SQLite's
  /// message.
  typealias Handler = @Sendable (CInt, String) -> Void

  private static let handler = Mutex<Handler?>(nil)

  /// Installs the callback, once; called before every first use of SQLite.
  static func install() {
    _ = installation
  }

  private static let installation: Bool = {
    sealite_config_log(
      { _, code, message in
        guard let message, let handler = SQLiteErrorLog.handler.withLock({ $0 }) else { return }
        handler(code, String(cString: message))
      }, nil) == SQLITE_OK
  }()

  /// The handler now.
  static var current: Handler? {
    get { handler.withLock { $0 } }
    set { handler.withLock { $0 = newValue } }
  }
}
