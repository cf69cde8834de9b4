extension SQLSelection {
  func sql(_ context: SQLGenerationContext) throws -> String {
    switch impl {
    case .allColumns(let alias):
      if let alias, context.qualifiesColumns || alias.forcesQualification {
        return context.name(of: alias).quotedDatabaseIdentifier + ".*"
      }
      return "*"
    case .allColumnsExcluding(let alias, let excluded):
      guard let alias, let db = context.db, let tableName = context.tableName(of: alias) else {
        throw DatabaseError.misuse("allColumns(excluding:) is used outside of a request of a table")
      }
      let columns = try db.columns(in: tableName)
      let names = columns.map(\.name).filter { !excluded.contains($0.lowercased()) }
      guard !names.isEmpty else {
        throw DatabaseError.misuse("allColumns(excluding:) excludes every column of the table \(tableName)")
      }
      // Excluding no column of the table is all of them: `*`, as GRDB writes it.
      if names.count == columns.count { return try SQLSelection(impl: .allColumns(alias)).sql(context) }
      return names.map { context.qualifiedColumn($0, alias: alias) }.joined(separator: ", ")
    case .expression(let expression):
      return try expression.sql(context)
    case .aliased(let expression, let name):
      return try expression.sql(context) + " AS " + name.quotedDatabaseIdentifier
    case .literal(let literal):
      return try literal.sql(context)
    }
  }

  /// True if the selection counts the rows of `*`.
  var isAllColumns: Bool {
    if case .allColumns = impl { return true }
    return false
  }
}

/// `*`: all columns of a table.
public struct AllColumns: SQLSelectable, Sendable {
  /// All columns.
  public init() {}
  public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumns(nil)) }
}

extension SQLSelectable where Self == AllColumns {
  /// All columns of the table: `Player.select(.allColumns, Column.rowID)`.
  public static var allColumns: AllColumns { AllColumns() }
}

extension SQLSelectable where Self == Column {
  /// The hidden rowid column, in a selection: `Player.select(.allColumns, .rowID)`.
  public static var rowID: Self { Column.rowID }
}

/// All columns of a table but the ones it names, read from the schema when
/// the request runs:
///
///     // SELECT id, name FROM player (when player has id, name, photo)
///     let request = Player.select(.allColumns(excluding: ["photo"]))
///
/// Names compare without regard to case, as SQLite compares them.
public struct AllColumnsExcluding: SQLSelectable, Sendable {
  let excludedColumns: Set<String>

  /// All columns but those named in `excludedColumns`.
  public init(_ excludedColumns: some Collection<String>) {
    self.excludedColumns = Set(excludedColumns.map { $0.lowercased() })
  }

  public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumnsExcluding(nil, excludedColumns)) }
}

extension SQLSelectable where Self == AllColumnsExcluding {
  /// All columns but the named ones: `.allColumns(excluding: ["photo"])`.
  public static func allColumns(excluding excludedColumns: some Collection<String>) -> Self {
    AllColumnsExcluding(excludedColumns)
  }

  /// All columns but the given ones: `.allColumns(excluding: [Columns.photo])`.
  public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> Self {
    AllColumnsExcluding(excludedColumns.map(\.name))
  }
}

extension Optional: SQLSelectable where Wrapped: SQLSelectable {
  /// The selection of the wrapped value; `NULL` for nil.
  public var sqlSelection: SQLSelection {
    self?.sqlSelection ?? SQLSelection(impl: .expression(DatabaseValue.null.sqlExpression))
  }
}

extension SQLSpecificExpressible {
  /// The expression selected under a name: `count(Column("id")).forKey("n")`
  /// reads as `row["n"]`.
  public func forKey(_ key: String) -> SQLSelection {
    SQLSelection(impl: .aliased(sqlExpression, key))
  }

  /// The expression selected under a name, as `forKey(_:)`.
  public func aliased(_ name: String) -> SQLSelection {
    forKey(name)
  }

  /// The expression selected under the name of a coding key.
  public func forKey(_ key: some CodingKey) -> SQLSelection {
    forKey(key.stringValue)
  }
}

extension TableAlias {
  /// All columns of the aliased table, for a selection.
  public var allColumns: SQLSelection { SQLSelection(impl: .allColumns(alias)) }
}
