/// Something that can be selected: columns, expressions, `AllColumns()`.
public protocol SQLSelectable {
  /// The selection.
  var sqlSelection: SQLSelection { get }
}

/// A selected column or expression of a query, maybe aliased.
public struct SQLSelection: SQLSelectable, Sendable {
  enum Impl: Sendable {
    /// `*`, or `alias.*`.
    case allColumns(SQLTableAlias?)
    /// An expression.
    case expression(SQLExpression)
    /// `expression AS name`.
    case aliased(SQLExpression, String)
    /// Raw SQL.
    case literal(SQL)
  }

  let impl: Impl

  public var sqlSelection: SQLSelection { self }

  func qualified(with alias: SQLTableAlias) -> SQLSelection {
    switch impl {
    case .allColumns(let current): return SQLSelection(impl: .allColumns(current ?? alias))
    case .expression(let expression):
      return SQLSelection(impl: .expression(expression.qualified(with: alias)))
    case .aliased(let expression, let name):
      return SQLSelection(impl: .aliased(expression.qualified(with: alias), name))
    case .literal: return self
    }
  }

  func sql(_ context: SQLGenerationContext) throws -> String {
    switch impl {
    case .allColumns(let alias):
      if let alias, context.qualifiesColumns {
        return context.name(of: alias).quotedDatabaseIdentifier + ".*"
      }
      return "*"
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

extension SQLExpression: SQLSelectable {
  public var sqlSelection: SQLSelection { SQLSelection(impl: .expression(self)) }
}

extension Column: SQLSelectable {
  public var sqlSelection: SQLSelection { SQLSelection(impl: .expression(sqlExpression)) }
}

extension SQL: SQLSelectable {
  public var sqlSelection: SQLSelection { SQLSelection(impl: .literal(self)) }
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
