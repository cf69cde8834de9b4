import CSQLCipher
import Foundation
import Synchronization

/// The close-time check of the test suite: with `SEALITE_CLOSE_CHECK=1` in a
/// debug build (`make test` sets it for both legs), every connection checks,
/// as it closes, that no statement was prepared with the C API and left
/// unfinalized (each `sqlite3_stmt` Sealite makes belongs to a ``Statement``,
/// which finalizes it), and that no transaction is left open. A failure stops
/// the program, naming the connection: the test that closed it leaked.
///
/// Statements kept alive by a cursor, a row or a variable are no leak: the
/// connection stays open for them (`sqlite3_close_v2`) until they go. Nor are
/// the statements a virtual table module (FTS, R-tree) keeps on its shadow
/// tables: SQLite finalizes them when it disconnects the table, at close.
enum CloseCheck {
  #if DEBUG
    static let isEnabled = ProcessInfo.processInfo.environment["SEALITE_CLOSE_CHECK"] == "1"
  #else
    static let isEnabled = false
  #endif

  /// The ``Statement`` objects alive for one connection.
  final class StatementCount: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    func decrement() { count.subtract(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
  }

  /// Checks `connection`, which its `Database` is about to close.
  static func check(_ connection: SQLiteConnection, statements: StatementCount, description: String) {
    let found = problems(connection, statements: statements)
    precondition(found.isEmpty, "close-time check of \(description): \(found.joined(separator: "; "))")
  }

  /// What the check finds wrong with `connection`, whose live ``Statement``
  /// objects `statements` counts.
  static func problems(_ connection: SQLiteConnection, statements: StatementCount) -> [String] {
    var texts: [String] = []
    var statement = sqlite3_next_stmt(connection, nil)
    while let current = statement {
      texts.append(sqlite3_sql(current).map { String(cString: $0) } ?? "")
      statement = sqlite3_next_stmt(connection, current)
    }
    // The schema is read only when there are statements to tell apart: a
    // connection that could not read its file (a wrong key) must not try
    // again as it closes. With SQLCipher 1's settings, that read would take a
    // wrong key's noise for a header, and could create -wal and -shm.
    let virtualTables = texts.isEmpty ? [] : virtualTableNames(connection)
    var sql: [String] = []
    for text in texts {
      // FTS5 also reads `PRAGMA 'schema'.data_version`. A full-text table with
      // external content reads its content table: FTS3 and FTS4 as
      // `SELECT rowid, x.'a' FROM 'main'.'t' AS x WHERE rowid = ?`, FTS5 as
      // `SELECT T.… FROM 'schema'.'table' AS T`.
      let isModuleStatement =
        virtualTables.contains { text.contains("'\($0)_") }
        || (!virtualTables.isEmpty && text.hasPrefix("PRAGMA '") && text.hasSuffix(".data_version"))
        || (!virtualTables.isEmpty && text.hasPrefix("SELECT rowid, ") && text.contains(" AS x WHERE rowid"))
        || (!virtualTables.isEmpty && text.hasPrefix("SELECT T.") && text.contains(" AS T"))
      if isModuleStatement { continue }
      sql.append(KeyingStatementRedaction.isKeyingStatement(text) ? KeyingStatementRedaction.redacted : text)
    }
    var found: [String] = []
    let owned = statements.value
    if sql.count > owned {
      found.append(
        "\(sql.count - owned) statement(s) prepared with the C API were never finalized (of \(sql.count) "
          + "statements: \(sql.prefix(12).joined(separator: " | ")))")
    }
    if sqlite3_get_autocommit(connection) == 0 { found.append("a transaction is open") }
    return found
  }

  /// The virtual tables of every schema of `connection`, whose modules keep
  /// statements of their own on `'schema'.'table_suffix'` shadow tables.
  private static func virtualTableNames(_ connection: SQLiteConnection) -> [String] {
    var names: [String] = []
    for master in ["sqlite_master", "sqlite_temp_master"] {
      var statement: SQLiteStatement?
      let sql = "SELECT name FROM \(master) WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'"
      guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
        continue
      }
      defer { sqlite3_finalize(statement) }
      while sqlite3_step(statement) == SQLITE_ROW {
        if let name = sqlite3_column_text(statement, 0) { names.append(String(cString: name)) }
      }
    }
    return names
  }
}
