import CSQLCipher
import Foundation

extension Row {
  /// Whether the row, or one of its scopes at any depth, holds a value that
  /// is not NULL: false for the scope of an optional association that
  /// matched no row.
  ///
  ///     let row = try Row.fetchOne(db, sql: "SELECT NULL AS a, 1 AS b")!
  ///     row.containsNonNullValue  // true
  public var containsNonNullValue: Bool {
    if (0..<count).contains(where: { !isNull(atUncheckedIndex: $0) }) { return true }
    return scopes.contains { _, row in row.containsNonNullValue }
  }

  /// Whether the value at `index` is NULL. Stops the program when `index`
  /// is out of range, as GRDB does.
  public func hasNull(atIndex index: Int) -> Bool {
    isNull(atUncheckedIndex: Row.trap { try checkedIndex(index) })
  }

  /// The first value that is not NULL among `columns`, read as `T`, or nil.
  ///
  ///     // The name of the team, or of the player when the player has no team.
  ///     let name: String? = row.coalesce(["teamName", "playerName"])
  public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
    for column in columns {
      if let value = self[column] as T? { return value }
    }
    return nil
  }

  /// The first value that is not NULL among `columns`, read as `T`, or nil.
  ///
  ///     let name: String? = row.coalesce([Column("teamName"), Column("playerName")])
  public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
    coalesce(columns.lazy.map(\.name))
  }

  /// Runs `body` with the bytes at `index`, without copying them when the
  /// row reads a live statement: the `Data` is valid inside `body` only.
  /// NULL is nil; text is its UTF-8 bytes. Stops the program when `index` is
  /// out of range, as GRDB does.
  ///
  ///     let hash = try row.withUnsafeData(atIndex: 0) { data in data.map(sha256) }
  public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) rethrows -> T {
    try withUnsafeData(atCheckedIndex: Row.trap { try checkedIndex(index) }, body)
  }

  /// Runs `body` with the bytes of the leftmost column named `columnName`
  /// (see ``withUnsafeData(atIndex:_:)``); nil when there is no such column.
  public func withUnsafeData<T>(named columnName: String, _ body: (Data?) throws -> T) rethrows -> T {
    guard let index = layout.index(of: columnName) else { return try body(nil) }
    return try withUnsafeData(atCheckedIndex: index, body)
  }

  /// Runs `body` with the bytes of `column` (see ``withUnsafeData(atIndex:_:)``).
  public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) rethrows -> T {
    try withUnsafeData(named: column.name, body)
  }

  /// The bytes at `index`, without copying them when the row reads a live
  /// statement; nil for NULL. Stops the program when `index` is out of range.
  ///
  /// The data is only valid as long as the row is: it must not outlive the
  /// step of the cursor that produced it.
  @available(*, deprecated, message: "Use withUnsafeData(atIndex:_:) instead.")
  public func dataNoCopy(atIndex index: Int) -> Data? {
    withUnsafeData(atIndex: index) { $0 }
  }

  /// The bytes of the leftmost column named `columnName`, without copying
  /// them (see ``dataNoCopy(atIndex:)``); nil for NULL or a missing column.
  @available(*, deprecated, message: "Use withUnsafeData(named:_:) instead.")
  public func dataNoCopy(named columnName: String) -> Data? {
    withUnsafeData(named: columnName) { $0 }
  }

  /// The bytes of `column`, without copying them (see
  /// ``dataNoCopy(atIndex:)``); nil for NULL or a missing column.
  @available(*, deprecated, message: "Use withUnsafeData(at:_:) instead.")
  public func dataNoCopy(_ column: some ColumnExpression) -> Data? {
    withUnsafeData(named: column.name) { $0 }
  }

  private func withUnsafeData<T>(atCheckedIndex index: Int, _ body: (Data?) throws -> T) rethrows -> T {
    if let sqliteStatement = _sqliteStatement {
      let column = CInt(index)
      switch sqlite3_column_type(sqliteStatement, column) {
      case SQLITE_NULL:
        return try body(nil)
      case SQLITE_BLOB, SQLITE_TEXT:
        // The pointer comes first: asking for the length may convert the value.
        let type = sqlite3_column_type(sqliteStatement, column)
        let pointer =
          type == SQLITE_BLOB
          ? sqlite3_column_blob(sqliteStatement, column)
          : sqlite3_column_text(sqliteStatement, column).map { UnsafeRawPointer($0) }
        let length = Int(sqlite3_column_bytes(sqliteStatement, column))
        guard let pointer, length > 0 else { return try body(Data()) }
        return try body(
          Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: pointer), count: length, deallocator: .none))
      default:
        break
      }
    }
    switch databaseValue(atUncheckedIndex: index).storage {
    case .null: return try body(nil)
    case .blob(let data): return try body(data)
    case .string(let string): return try body(Data(string.utf8))
    case .int64, .double: return try body(Data.fromDatabaseValue(databaseValue(atUncheckedIndex: index)))
    }
  }
}
