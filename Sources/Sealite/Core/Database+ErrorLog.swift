extension Database {
  /// A function that receives SQLite's logged errors: the extended result
  /// code and SQLite's terse message.
  public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

  /// The function SQLite's error log calls with each error and warning (see
  /// <https://www.sqlite.org/errlog.html>), or nil for none (the default).
  ///
  ///     Database.logError = { resultCode, message in
  ///       print("SQLite error \(resultCode): \(message)")
  ///     }
  ///
  /// Unlike GRDB's, it may be set at any time, before or after connections
  /// open: Sealite installs its own callback before SQLite's first
  /// connection, and forwards to this function. (A program that uses SQLite
  /// without Sealite before its first Sealite connection keeps Sealite's
  /// callback out, on SQLite older than 3.42; then nothing is logged.)
  ///
  /// A message that mentions key material (`key` or `cipher`, in any case:
  /// SQLite quotes the failed statement, which may be a `PRAGMA key` or an
  /// `ATTACH … KEY`) is replaced with SQLite's text of the result code,
  /// followed by "(details withheld: they may quote a key)".
  public static var logError: LogErrorFunction? {
    get { currentLogError.withLock { $0 } }
    set {
      currentLogError.withLock { $0 = newValue }
      guard let newValue else {
        SQLiteErrorLog.current = nil
        return
      }
      SQLiteErrorLog.current = { code, message in
        newValue(ResultCode(rawValue: code), KeyingStatementRedaction.redactedLogMessage(message, code: code))
      }
    }
  }

  private static let currentLogError = Locked<LogErrorFunction?>(nil)
}
