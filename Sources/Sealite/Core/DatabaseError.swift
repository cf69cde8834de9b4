import CSQLCipher

/// An error thrown by SQLite, or by Sealite where it guards SQLite's rules.
///
/// ``message`` is SQLite's own message ("no such table: foo"); ``description``
/// adds the context, as GRDB builds it: "SQLite error 1: no such table: foo -
/// while executing `SELECT * FROM foo`", and the statement arguments only when
/// ``Configuration/publicStatementArguments`` is on (arguments may hold personal
/// or secret data; ``expandedDescription`` always has them). Keying statements
/// are always redacted, arguments included.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
  /// The extended result code (see https://www.sqlite.org/rescode.html#extrc).
  public let extendedResultCode: ResultCode
  /// What went wrong: SQLite's message, or the text of the result code when
  /// none was given.
  public let message: String?
  /// The SQL of the failed statement, redacted if it was a keying statement.
  public let sql: String?
  /// The arguments of the failed statement. Present in the error, but only
  /// printed in ``description`` with ``Configuration/publicStatementArguments``.
  public let arguments: StatementArguments?
  let publicStatementArguments: Bool
  /// Where the error happened when no statement failed (the file a connection
  /// could not open): printed in ``description``, never in ``message``.
  let context: String?

  /// The primary result code.
  public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

  /// Creates an error. Without a message, the error has the text SQLite
  /// gives the result code ("database is locked").
  public init(
    resultCode: ResultCode = .SQLITE_ERROR,
    message: String? = nil,
    sql: String? = nil,
    arguments: StatementArguments? = nil,
    publicStatementArguments: Bool = false
  ) {
    self.init(
      resultCode: resultCode, message: message, sql: sql, arguments: arguments,
      publicStatementArguments: publicStatementArguments, context: nil)
  }

  init(
    resultCode: ResultCode, message: String?, sql: String?, arguments: StatementArguments?,
    publicStatementArguments: Bool, context: String? = nil
  ) {
    self.extendedResultCode = resultCode
    self.context = context
    let message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
    if let sql, KeyingStatementRedaction.isKeyingStatement(sql) {
      // SQLite's message may quote the statement ("unrecognized token: …"),
      // and so the key: only a generic text is kept. One of SQLite's own fixed
      // texts quotes nothing and is kept as it is: sqlcipher_export reports a
      // full disk as SQLITE_ERROR with the text of SQLITE_FULL, which is all
      // that tells the two apart.
      if DatabaseError.genericMessages.contains(message) {
        self.message = message
      } else {
        self.message =
          String(cString: sqlite3_errstr(resultCode.rawValue)) + " (details withheld: they may quote a key)"
      }
      self.sql = KeyingStatementRedaction.redacted
      self.arguments = nil
    } else {
      self.message = message
      self.sql = sql
      self.arguments = (arguments?.isEmpty ?? true) ? nil : arguments
    }
    self.publicStatementArguments = publicStatementArguments
  }

  /// An error of SQLite's, with where it happened: `context` is printed in
  /// the description ("while opening `/path/db.sqlite`"), not in the message.
  init(resultCode: ResultCode, message: String?, context: String) {
    self.init(
      resultCode: resultCode, message: message, sql: nil, arguments: nil, publicStatementArguments: false,
      context: context)
  }

  /// SQLite's fixed text for each result code (`sqlite3_errstr`).
  /// Extended codes share their primary code's text, but for SQLITE_ABORT_ROLLBACK.
  private static let genericMessages: Set<String> = Set(
    (Array(CInt(0)..<256) + [4 | (2 << 8)]).map { String(cString: sqlite3_errstr($0)) })

  /// "SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT …`",
  /// followed by "with arguments […]" only with
  /// ``Configuration/publicStatementArguments``.
  public var description: String {
    describe(withArguments: publicStatementArguments)
  }

  /// The description, with the statement arguments whatever
  /// ``Configuration/publicStatementArguments`` says: for logs that may hold
  /// personal data. Keys never appear: keying statements keep no arguments.
  public var expandedDescription: String {
    describe(withArguments: true)
  }

  private func describe(withArguments: Bool) -> String {
    var text = "SQLite error \(resultCode.rawValue)"
    if let message { text += ": \(message)" }
    if let sql { text += " - while executing `\(sql)`" }
    if let context { text += " - \(context)" }
    if withArguments, let arguments { text += " with arguments \(arguments)" }
    return text
  }

  /// True if the error comes from an interrupted statement (SQLITE_ABORT or
  /// SQLITE_INTERRUPT): a cancellation, or a rollback that aborted it.
  public var isInterruptionError: Bool {
    resultCode == .SQLITE_ABORT || resultCode == .SQLITE_INTERRUPT
  }

  /// Builds the error SQLite reports for a connection.
  static func fromConnection(
    _ connection: SQLiteConnection?, code: CInt, sql: String? = nil, arguments: StatementArguments? = nil,
    publicStatementArguments: Bool = false
  ) -> DatabaseError {
    let message: String
    if let connection, let cMessage = sqlite3_errmsg(connection) {
      message = String(cString: cMessage)
    } else {
      message = String(cString: sqlite3_errstr(code))
    }
    let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
    let finalCode = (extended & 0xFF) == (code & 0xFF) ? extended : code
    return DatabaseError(
      resultCode: ResultCode(rawValue: finalCode), message: message, sql: sql, arguments: arguments,
      publicStatementArguments: publicStatementArguments)
  }

  /// A misuse of the API that SQLite would not catch, or would catch too late.
  static func misuse(_ message: String, sql: String? = nil) -> DatabaseError {
    DatabaseError(resultCode: .SQLITE_MISUSE, message: message, sql: sql)
  }
}

extension DatabaseError: Equatable {
  public static func == (lhs: DatabaseError, rhs: DatabaseError) -> Bool {
    lhs.extendedResultCode == rhs.extendedResultCode && lhs.message == rhs.message && lhs.sql == rhs.sql
  }
}
