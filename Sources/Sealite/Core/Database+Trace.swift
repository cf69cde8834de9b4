import CSQLCipher
import Foundation

extension Database {
  /// Which events ``Database/trace(options:_:)`` reports.
  public struct TracingOptions: OptionSet, Sendable {
    public let rawValue: CInt
    public init(rawValue: CInt) { self.rawValue = rawValue }
    /// Each statement as it starts, including statements run by triggers.
    public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))
    /// Each statement as it ends, with its duration.
    public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
  }

  /// An event reported by ``Database/trace(options:_:)``.
  public enum TraceEvent: CustomStringConvertible {
    /// A statement starts.
    case statement(Statement)
    /// A statement ended, after `duration` seconds.
    case profile(statement: Statement, duration: TimeInterval)

    /// A traced statement. Valid only during the trace callback.
    ///
    /// Its description, debug description and mirror (so `dump`) show ``sql``
    /// only: never the SQL of a keying statement, never arguments.
    public struct Statement: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
      let sqliteStatement: SQLiteStatement
      let unexpandedSQL: String
      let publicStatementArguments: Bool
      /// Judged once per event: `sql`, `expandedSQL` and the description may
      /// all be read for it.
      let isKeyingStatement: Bool

      init(sqliteStatement: SQLiteStatement, unexpandedSQL: String, publicStatementArguments: Bool) {
        self.sqliteStatement = sqliteStatement
        self.unexpandedSQL = unexpandedSQL
        self.publicStatementArguments = publicStatementArguments
        self.isKeyingStatement = KeyingStatementRedaction.isKeyingStatement(unexpandedSQL)
      }

      /// The SQL, with parameter placeholders; keying statements are redacted.
      public var sql: String {
        isKeyingStatement ? KeyingStatementRedaction.redacted : unexpandedSQL
      }

      /// The SQL with its arguments inlined. Keying statements are redacted.
      /// Prints arguments: use it only where they may be seen.
      public var expandedSQL: String {
        if isKeyingStatement { return KeyingStatementRedaction.redacted }
        guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
        defer { sqlite3_free(cString) }
        let expanded = String(cString: cString)
        // Inlined arguments are quoted literals, which SQLite reads as values:
        // judged again all the same, on the safe side.
        return KeyingStatementRedaction.isKeyingStatement(expanded)
          ? KeyingStatementRedaction.redacted : expanded
      }

      /// The SQL, with placeholders (``sql``).
      public var description: String { sql }

      /// The SQL, with placeholders (``sql``).
      public var debugDescription: String { sql }

      /// Shows ``sql`` only: the stored SQL may be a keying statement.
      public var customMirror: Mirror { Mirror(self, children: ["sql": sql]) }
    }

    /// The SQL, with arguments only if the configuration makes them public.
    public var description: String { describe(expanded: false) }

    /// The SQL with its arguments whatever the configuration says
    /// (`0.001s SELECT * FROM player WHERE email = 'arthur@example.com'` for
    /// a profile): for logs that may hold personal data. A keying statement
    /// is still `<redacted keying statement>`.
    public var expandedDescription: String { describe(expanded: true) }

    private func describe(expanded: Bool) -> String {
      switch self {
      case .statement(let statement):
        return expanded || statement.publicStatementArguments ? statement.expandedSQL : statement.sql
      case .profile(let statement, let duration):
        let sql = expanded || statement.publicStatementArguments ? statement.expandedSQL : statement.sql
        return String(format: "%.3fs", duration) + " \(sql)"
      }
    }
  }

  /// Reports the statements this connection runs, or stops reporting when
  /// `trace` is nil.
  ///
  ///     try dbQueue.write { db in
  ///       db.trace { print($0) }
  ///     }
  ///
  /// Statements that carry a key (`PRAGMA key`, `PRAGMA rekey`, `ATTACH … KEY`)
  /// are reported as `<redacted keying statement>`.
  public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
    guard let connection = sqliteConnection else { return }
    guard let trace, !options.isEmpty else {
      tracer = nil
      sqlite3_trace_v2(connection, 0, nil, nil)
      return
    }
    let tracer = Tracer(callback: trace, publicStatementArguments: configuration.publicStatementArguments)
    self.tracer = tracer
    let context = Unmanaged.passUnretained(tracer).toOpaque()
    sqlite3_trace_v2(
      connection, UInt32(options.rawValue),
      { mask, context, p, x in
        guard let context, let p else { return 0 }
        let tracer = Unmanaged<Tracer>.fromOpaque(context).takeUnretainedValue()
        tracer.report(mask: mask, statement: OpaquePointer(p), x: x)
        return 0
      }, context)
  }
}

/// Holds a trace callback for the C trace hook.
final class Tracer {
  let callback: (Database.TraceEvent) -> Void
  let publicStatementArguments: Bool
  /// True while the connection reads its own state with the C API (the
  /// schema version at the start of an access): not the user's statements.
  var isPaused = false

  init(callback: @escaping (Database.TraceEvent) -> Void, publicStatementArguments: Bool) {
    self.callback = callback
    self.publicStatementArguments = publicStatementArguments
  }

  func report(mask: UInt32, statement: SQLiteStatement, x: UnsafeMutableRawPointer?) {
    if isPaused { return }
    let sql: String
    if mask == UInt32(SQLITE_TRACE_STMT), let x {
      // For statements run by triggers, SQLite passes a `-- TRIGGER name` comment.
      let text = String(cString: x.assumingMemoryBound(to: CChar.self))
      sql = text.hasPrefix("--") ? text : (sqlite3_sql(statement).map { String(cString: $0) } ?? text)
    } else {
      sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
    }
    let traced = Database.TraceEvent.Statement(
      sqliteStatement: statement, unexpandedSQL: Database.trimmed(sql),
      publicStatementArguments: publicStatementArguments)
    if mask == UInt32(SQLITE_TRACE_STMT) {
      callback(.statement(traced))
    } else if mask == UInt32(SQLITE_TRACE_PROFILE), let x {
      let nanoseconds = x.assumingMemoryBound(to: Int64.self).pointee
      callback(.profile(statement: traced, duration: TimeInterval(nanoseconds) / 1_000_000_000))
    }
  }
}
