/// A cursor over the statements of some SQL, compiled one at a time as the
/// cursor moves (a statement can then use a table an earlier one created),
/// made by ``Database/allStatements(sql:arguments:)``.
public final class SQLStatementCursor: Cursor {
  private let database: Database
  /// The SQL, NUL-terminated, and where the next statement starts in it.
  private let text: ContiguousArray<CChar>
  private var offset = 0
  /// The arguments the statements consume, in order; nil leaves them unset.
  private let arguments: StatementArguments?
  private var consumer: ArgumentConsumer?
  private var isFinished = false

  init(database: Database, sql: String, arguments: StatementArguments?) {
    self.database = database
    text = ContiguousArray(sql.utf8CString)
    self.arguments = arguments
    consumer = arguments.map { ArgumentConsumer($0) }
  }

  /// The next statement, its arguments set; nil after the last. Arguments
  /// left unused once the last statement was returned are an error.
  public func next() throws -> Statement? {
    guard !isFinished else { return nil }
    let next = try text.withUnsafeBufferPointer { buffer -> (statement: Statement, offset: Int)? in
      let base = buffer.baseAddress!
      guard base[offset] != 0, let compiled = try database.compileFirstStatement(base + offset) else {
        return nil
      }
      return (compiled.statement, compiled.tail.map { $0 - base } ?? buffer.count - 1)
    }
    guard let next else {
      isFinished = true
      try consumer?.checkFullyConsumed(statement: nil)
      return nil
    }
    offset = next.offset
    let statement = next.statement
    if var consumer, let arguments {
      let values = try consumer.values(for: statement)
      try statement.bind(values, arguments: arguments)
      self.consumer = consumer
    }
    return statement
  }
}

extension Database {
  /// A cursor over the statements of `sql`, separated by semicolons, each
  /// compiled when the cursor reaches it. Given `arguments`, each statement
  /// takes the positional values it needs, in order (named values are
  /// shared), and values left unused are an error at the end:
  ///
  ///     let statements = try db.allStatements(
  ///       sql: "INSERT INTO player (name) VALUES (?); INSERT INTO player (name) VALUES (?)",
  ///       arguments: ["Arthur", "Barbara"])
  ///     while let statement = try statements.next() {
  ///       try statement.execute()
  ///     }
  public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
    _ = try connection
    _ = try requireAccess(sql: sql)
    return SQLStatementCursor(database: self, sql: sql, arguments: arguments)
  }

  /// A cursor over the statements of an SQL literal, whose interpolated
  /// values are the statements' arguments.
  public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
    let (sql, arguments) = try sqlLiteral.build(self)
    return try allStatements(sql: sql, arguments: arguments)
  }
}
