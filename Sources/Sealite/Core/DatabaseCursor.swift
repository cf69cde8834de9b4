/// A cursor over the results of a prepared ``Statement``: ``RowCursor``,
/// ``DatabaseValueCursor``, ``FastDatabaseValueCursor`` and ``RecordCursor``.
///
///     try dbQueue.read { db in
///       let names = try String.fetchCursor(db, sql: "SELECT name FROM player WHERE score > ?", arguments: [10])
///       print(names.sql)          // "SELECT name FROM player WHERE score > ?"
///       print(names.arguments)    // [10]
///       print(names.columnNames)  // ["name"]
///       while let name = try names.next() { print(name) }
///     }
///
/// A database cursor is valid only during the database access (read or
/// write) that made it: used later, ``Cursor/next()`` throws a misuse error.
public protocol DatabaseCursor<Element>: Cursor {
  /// The statement iterated by the cursor.
  var statement: Statement { get }
}

// Read-only facts about the statement, read when asked for: stepping the
// cursor does no more work than before.
extension DatabaseCursor {
  /// The SQL of the statement.
  ///
  ///     let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
  ///     rows.sql  // "SELECT * FROM player"
  public var sql: String { statement.sql }

  /// The arguments of the statement.
  ///
  ///     let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [1])
  ///     rows.arguments  // [1]
  public var arguments: StatementArguments { statement.arguments }

  /// The names of the columns of the rows, from left to right.
  ///
  ///     let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM player")
  ///     rows.columnNames  // ["id", "name"]
  public var columnNames: [String] { statement.columnNames }

  /// The number of columns of the rows.
  ///
  ///     let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM player")
  ///     rows.columnCount  // 2
  public var columnCount: Int { statement.columnCount }
}
