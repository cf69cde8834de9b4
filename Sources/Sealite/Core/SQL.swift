/// SQL built with string interpolation, where interpolated values become bound
/// arguments and interpolated columns and tables become quoted identifiers:
///
///     let name = "O'Brien"
///     let sql: SQL = "SELECT * FROM \(Column("player")) WHERE name = \(name)"
///     // SELECT * FROM "player" WHERE name = ?   with arguments ["O'Brien"]
///
/// Raw SQL text goes in only where named: `\(sql: "…")` or `\(literal: other)`.
public struct SQL: Sendable {
  enum Element: Sendable {
    /// Raw SQL and its arguments.
    case sql(String, StatementArguments)
    /// An expression (a value becomes `?`, a column a quoted identifier).
    case expression(SQLExpression)
    /// A quoted identifier.
    case identifier(String)
    /// A table name given by a type, resolved when the SQL is generated.
    case tableName(@Sendable () -> String)
    /// Another literal, nested.
    case literal(SQL)
    /// Generated SQL (a subquery, an ordering), rendered when needed.
    case generated(@Sendable (SQLGenerationContext) throws -> String)
  }

  var elements: [Element]

  init(elements: [Element]) {
    self.elements = elements
  }

  /// Raw SQL with arguments.
  public init(sql: String, arguments: StatementArguments = StatementArguments()) {
    elements = [.sql(sql, arguments)]
  }

  /// An expression as SQL.
  public init(_ expression: some SQLExpressible) {
    elements = [.expression(expression.sqlExpression)]
  }

  /// True if there is no SQL at all.
  public var isEmpty: Bool {
    elements.allSatisfy { element in
      switch element {
      case .sql(let text, let arguments): return text.isEmpty && arguments.isEmpty
      case .literal(let literal): return literal.isEmpty
      default: return false
      }
    }
  }

  /// Concatenates two literals.
  public static func + (lhs: SQL, rhs: SQL) -> SQL {
    SQL(elements: lhs.elements + rhs.elements)
  }

  /// Appends a literal.
  public static func += (lhs: inout SQL, rhs: SQL) {
    lhs.elements += rhs.elements
  }

  /// Appends a literal.
  public mutating func append(literal: SQL) {
    elements += literal.elements
  }

  /// Appends raw SQL with arguments.
  public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
    elements.append(.sql(sql, arguments))
  }

  /// Renders the SQL, collecting arguments in the context.
  func sql(_ context: SQLGenerationContext) throws -> String {
    var result = ""
    for element in elements {
      switch element {
      case .sql(let text, let arguments):
        try context.append(arguments)
        result += text
      case .expression(let expression):
        result += try expression.sql(context)
      case .identifier(let name):
        result += name.quotedDatabaseIdentifier
      case .tableName(let name):
        result += name().quotedDatabaseIdentifier
      case .literal(let literal):
        result += try literal.sql(context)
      case .generated(let generate):
        result += try generate(context)
      }
    }
    return result
  }

  /// The SQL text and its arguments.
  public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
    let context = SQLGenerationContext(db: db)
    let text = try sql(context)
    return (text, context.arguments ?? StatementArguments())
  }
}

extension Sequence where Element == SQL {
  /// Joins literals with a separator.
  public func joined(separator: String = "") -> SQL {
    var result = SQL(elements: [])
    for (index, literal) in enumerated() {
      if index > 0 && !separator.isEmpty { result.elements.append(.sql(separator, StatementArguments())) }
      result.elements += literal.elements
    }
    return result
  }
}

extension SQL: ExpressibleByStringInterpolation {
  /// Raw SQL from a string literal without interpolation.
  public init(stringLiteral value: String) {
    self.init(sql: value)
  }

  /// SQL from an interpolated string.
  public init(stringInterpolation: StringInterpolation) {
    elements = stringInterpolation.elements
  }

  /// Builds an ``SQL`` literal: see ``SQL``.
  public struct StringInterpolation: StringInterpolationProtocol {
    var elements: [Element] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      elements.reserveCapacity(interpolationCount * 2 + 1)
    }

    public mutating func appendLiteral(_ literal: String) {
      elements.append(.sql(literal, StatementArguments()))
    }

    /// A value, bound as an argument (`?`); nil is NULL.
    public mutating func appendInterpolation(_ value: (some DatabaseValueConvertible)?) {
      elements.append(.expression(value?.sqlExpression ?? DatabaseValue.null.sqlExpression))
    }

    /// An expression: values become arguments, columns quoted identifiers.
    public mutating func appendInterpolation(_ expression: some SQLSpecificExpressible) {
      elements.append(.expression(expression.sqlExpression))
    }

    /// A value that is an expression of its own (a ``DatabaseValue``), bound
    /// as an argument.
    public mutating func appendInterpolation(_ value: some DatabaseValueConvertible & SQLSpecificExpressible)
    {
      elements.append(.expression(value.sqlExpression))
    }

    /// Text, bound as an argument: `"… WHERE name = \(name.prefix(3))"`.
    public mutating func appendInterpolation<S: StringProtocol>(_ string: S) {
      elements.append(.expression(String(string).sqlExpression))
    }

    /// Any expression, of a type known at run time only; nil is `NULL`.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
      if let expressible {
        elements.append(.expression(expressible.sqlExpression))
      } else {
        elements.append(.sql("NULL", StatementArguments()))
      }
    }

    /// The name of a collation: `"… COLLATE \(.nocase)"`.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
      elements.append(.sql(collation.rawValue, StatementArguments()))
    }

    /// The name of a custom collation: `"… COLLATE \(myCollation)"`.
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
      elements.append(.sql(collation.name, StatementArguments()))
    }

    /// Raw SQL text, with its own arguments: the only ways raw text goes in.
    public mutating func appendInterpolation(
      sql: String, arguments: StatementArguments = StatementArguments()
    ) {
      elements.append(.sql(sql, arguments))
    }

    /// Another literal.
    public mutating func appendInterpolation(literal: SQL) {
      elements.append(.literal(literal))
    }

    /// A quoted identifier: `\(identifier: "my table")` → `"my table"`.
    public mutating func appendInterpolation(identifier: String) {
      elements.append(.identifier(identifier))
    }

    /// A comma-separated list of values, each bound: `IN \(ids)` → `IN (?,?,?)`;
    /// an empty list is a subquery of no row, `(SELECT NULL WHERE NULL)`, as in GRDB.
    @_disfavoredOverload
    public mutating func appendInterpolation<S: Sequence>(_ values: S)
    where S.Element: DatabaseValueConvertible {
      appendList(values.map { SQLExpression(.value($0.databaseValue)) })
    }

    /// A parenthesized list, written as GRDB writes it: `(?,?,?)`, or
    /// `(SELECT NULL WHERE NULL)` when empty (SQLite's `IN ()` is not
    /// standard SQL).
    mutating func appendList(_ expressions: [SQLExpression]) {
      guard !expressions.isEmpty else {
        return elements.append(.sql("(SELECT NULL WHERE NULL)", StatementArguments()))
      }
      elements.append(.sql("(", StatementArguments()))
      for (index, expression) in expressions.enumerated() {
        if index > 0 { elements.append(.sql(",", StatementArguments())) }
        elements.append(.expression(expression))
      }
      elements.append(.sql(")", StatementArguments()))
    }
  }
}

extension SQL: SQLSpecificExpressible {
  /// The literal as an expression.
  public var sqlExpression: SQLExpression { SQLExpression(.literal(self)) }
}

extension Database {
  /// Runs an SQL literal, which may hold several statements.
  ///
  ///     try db.execute(literal: "INSERT INTO player (name) VALUES (\(name))")
  public func execute(literal sqlLiteral: SQL) throws {
    let (sql, arguments) = try sqlLiteral.build(self)
    try execute(sql: sql, arguments: arguments)
  }
}
