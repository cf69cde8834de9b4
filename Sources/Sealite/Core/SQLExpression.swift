/// An SQL expression, built from values, columns, operators and functions.
/// Values always become bound arguments (`?`), never SQL text; identifiers are
/// always quoted.
public struct SQLExpression: SQLSpecificExpressible, Sendable {
  // Values, constants, columns and raw SQL are stored in place: the
  // expressions every request builds (`Column("id") > value`, an ordering)
  // then allocate one box, for the operator, instead of one for each operand.
  // The other cases are boxed: they hold other expressions or a subquery, or
  // more than the 24 bytes of a column, and keep an expression that small.
  enum Impl: Sendable {
    /// A value, bound as an argument (inlined as a literal in schema SQL).
    case value(DatabaseValue)
    /// A value written into the SQL as a literal, never bound: a constant that must
    /// match the same constant in an index on an expression (a JSON path).
    case constant(DatabaseValue)
    /// A column; `alias` qualifies it with a table once the request knows it.
    case column(String, alias: SQLTableAlias?)
    /// Raw SQL with its arguments.
    case literal(SQL)
    /// `op expr`, e.g. `NOT`, `-`.
    indirect case prefix(String, SQLExpression)
    /// `expr op`, e.g. `IS NULL`.
    indirect case postfix(SQLExpression, String)
    /// `lhs op rhs`.
    indirect case binary(String, SQLExpression, SQLExpression)
    /// `a op b op c`; empty lists use `empty` (`1` for AND, `0` for OR).
    indirect case associative(String, [SQLExpression], empty: String)
    /// `name(args)` or `name(DISTINCT args)`.
    indirect case function(String, [SQLExpression], distinct: Bool)
    /// `name(args ORDER BY ordering) FILTER (WHERE filter)`: an aggregate
    /// with an ordering (SQLite 3.44) or a filter (SQLite 3.30). The
    /// ordering renders as an ORDER BY term (`x DESC`).
    indirect case aggregate(String, [SQLExpression], orderBy: SQLExpression?, filter: SQLExpression?)
    /// `COUNT(*)`.
    case countAll
    /// `expr [NOT] IN (list)`; an empty list is always false (true when negated).
    indirect case inList(SQLExpression, [SQLExpression], negated: Bool)
    /// `expr [NOT] IN (subquery)`.
    indirect case inSubquery(SQLExpression, SQL, negated: Bool)
    /// `[NOT] EXISTS (subquery)`.
    indirect case exists(SQL, negated: Bool)
    /// `expr [NOT] BETWEEN low AND high`.
    indirect case between(SQLExpression, SQLExpression, SQLExpression, negated: Bool)
    /// `expr COLLATE name`.
    indirect case collate(SQLExpression, String)
    /// `CAST(expr AS type)`.
    indirect case cast(SQLExpression, String)
    /// `(subquery)` as a scalar value.
    indirect case subquery(SQL)
    /// SQL that depends on the table it is qualified with (an association
    /// aggregate's correlated subquery, `TableAlias.exists`), rendered when
    /// the request runs. The closure is told whether the expression sits
    /// inside a larger one, where it must be parenthesized. `isAggregate`
    /// marks association aggregates, whose request is rendered twice.
    indirect case dependent(
      SQLTableAlias?, @Sendable (SQLGenerationContext, SQLTableAlias, _ wrapped: Bool) throws -> String,
      isAggregate: Bool = false)
    /// An expression that knows the SQL of its negation (`!alias.exists` is
    /// `"t"."id" IS NULL`, not `NOT ("t"."id" IS NOT NULL)`): it renders as the
    /// first, and `!` turns it into the second.
    indirect case negatable(SQLExpression, negation: SQLExpression)
    /// An expression that JSON builders (`JSON_ARRAY`, `JSON_OBJECT`, …) read as JSON
    /// rather than as text (`JSONColumn`, `asJSON`); it renders as the expression itself.
    indirect case jsonValue(SQLExpression)
  }

  let impl: Impl

  init(_ impl: Impl) {
    self.impl = impl
  }

  public var sqlExpression: SQLExpression { self }

  /// Raw SQL as an expression: `SQLExpression(sql: "score + ?", arguments: [1])`.
  public init(sql: String, arguments: StatementArguments = StatementArguments()) {
    self.init(.literal(SQL(sql: sql, arguments: arguments)))
  }

  /// An SQL literal as an expression.
  public init(literal: SQL) {
    self.init(.literal(literal))
  }

  /// Renders the expression.
  func sql(_ context: SQLGenerationContext, wrapped: Bool = false) throws -> String {
    func paren(_ text: String) -> String { wrapped ? "(\(text))" : text }
    switch impl {
    case .value(let value):
      return context.append(value)
    case .constant(let value):
      return SQLGenerationContext.literal(value)
    case .column(let name, let alias):
      return context.qualifiedColumn(name, alias: alias)
    case .literal(let literal):
      let text = try literal.sql(context)
      return wrapped ? "(\(text))" : text
    case .prefix(let op, let expression):
      return paren(op + (try expression.sql(context, wrapped: true)))
    case .postfix(let expression, let op):
      return paren((try expression.sql(context, wrapped: true)) + " " + op)
    case .binary(let op, let lhs, let rhs):
      return paren("\(try lhs.sql(context, wrapped: true)) \(op) \(try rhs.sql(context, wrapped: true))")
    case .associative(let op, let expressions, let empty):
      // `(a AND b) AND c` is written `a AND b AND c`, as GRDB writes it.
      let expressions = SQLExpression.flattened(expressions, op)
      if expressions.isEmpty { return empty }
      if expressions.count == 1 { return try expressions[0].sql(context, wrapped: wrapped) }
      return paren(try expressions.map { try $0.sql(context, wrapped: true) }.joined(separator: " \(op) "))
    case .function(let name, let arguments, let distinct):
      let list = try arguments.map { try $0.sql(context) }.joined(separator: ", ")
      return "\(name)(\(distinct ? "DISTINCT " : "")\(list))"
    case .aggregate(let name, let arguments, let orderBy, let filter):
      var text = name + "(" + (try arguments.map { try $0.sql(context) }.joined(separator: ", "))
      if let orderBy {
        try SQLiteFeatures.linked.require(.aggregateOrderBy)
        text += " ORDER BY " + (try orderBy.sql(context))
      }
      text += ")"
      if let filter {
        try SQLiteFeatures.linked.require(.aggregateFilter)
        text += " FILTER (WHERE " + (try filter.sql(context)) + ")"
      }
      return text
    case .countAll:
      return "COUNT(*)"
    case .inList(let expression, let list, let negated):
      if list.isEmpty { return negated ? "1" : "0" }
      if list.count == 1 {
        // `a = 1`, `a <> 1`: one value is compared, as GRDB writes it.
        return paren(
          "\(try expression.sql(context, wrapped: true)) \(negated ? "<>" : "=") \(try list[0].sql(context, wrapped: true))"
        )
      }
      let items = try list.map { try $0.sql(context) }.joined(separator: ", ")
      return paren("\(try expression.sql(context, wrapped: true)) \(negated ? "NOT IN" : "IN") (\(items))")
    case .inSubquery(let expression, let subquery, let negated):
      return paren(
        "\(try expression.sql(context, wrapped: true)) \(negated ? "NOT IN" : "IN") (\(try subquery.sql(context)))"
      )
    case .exists(let subquery, let negated):
      return paren("\(negated ? "NOT " : "")EXISTS (\(try subquery.sql(context)))")
    case .between(let expression, let low, let high, let negated):
      let keyword = negated ? "NOT BETWEEN" : "BETWEEN"
      return paren(
        "\(try expression.sql(context, wrapped: true)) \(keyword) \(try low.sql(context, wrapped: true)) AND "
          + (try high.sql(context, wrapped: true)))
    case .collate(let expression, let collation):
      return paren("\(try expression.sql(context, wrapped: true)) COLLATE \(collation)")
    case .cast(let expression, let type):
      return "CAST(\(try expression.sql(context)) AS \(type))"
    case .subquery(let subquery):
      return "(\(try subquery.sql(context)))"
    case .dependent(let alias, let render, _):
      guard let alias else {
        throw DatabaseError.misuse(
          "an association aggregate is used outside of a request of its origin table")
      }
      return try render(context, alias, wrapped)
    case .negatable(let expression, _):
      return try expression.sql(context, wrapped: wrapped)
    case .jsonValue(let expression):
      return try expression.sql(context, wrapped: wrapped)
    }
  }

  /// The terms of an associative operator, those of nested uses of the same
  /// operator in their place.
  static func flattened(_ expressions: [SQLExpression], _ op: String) -> [SQLExpression] {
    expressions.flatMap { expression -> [SQLExpression] in
      if case .associative(op, let terms, _) = expression.impl { return flattened(terms, op) }
      return [expression]
    }
  }

  /// True if the expression holds SQL that depends on the table it is
  /// qualified with (an association aggregate, `TableAlias.exists`): the
  /// request then qualifies its columns.
  var isDependent: Bool {
    contains { if case .dependent = $0.impl { return true } else { return false } }
  }

  /// True if the expression holds an association aggregate.
  var holdsAggregate: Bool {
    contains { if case .dependent(_, _, true) = $0.impl { return true } else { return false } }
  }

  /// True if the expression, or one of the expressions it is made of,
  /// satisfies `predicate`.
  func contains(where predicate: (SQLExpression) -> Bool) -> Bool {
    if predicate(self) { return true }
    // Operands visited in place: an array of them per node allocates, and
    // every request rendered asks twice (`SQLRelation.needsQualifiedColumns`).
    func any(_ expressions: [SQLExpression]) -> Bool {
      expressions.contains { $0.contains(where: predicate) }
    }
    switch impl {
    case .value, .constant, .column, .literal, .countAll, .exists, .subquery, .dependent: return false
    case .prefix(_, let expression), .postfix(let expression, _), .collate(let expression, _),
      .cast(let expression, _), .inSubquery(let expression, _, _), .jsonValue(let expression):
      return expression.contains(where: predicate)
    case .negatable(let expression, let negation):
      return expression.contains(where: predicate) || negation.contains(where: predicate)
    case .binary(_, let lhs, let rhs): return lhs.contains(where: predicate) || rhs.contains(where: predicate)
    case .associative(_, let expressions, _): return any(expressions)
    case .function(_, let arguments, _): return any(arguments)
    case .aggregate(_, let arguments, let orderBy, let filter):
      return any(arguments) || orderBy?.contains(where: predicate) == true
        || filter?.contains(where: predicate) == true
    case .inList(let expression, let list, _): return expression.contains(where: predicate) || any(list)
    case .between(let a, let b, let c, _):
      return a.contains(where: predicate) || b.contains(where: predicate) || c.contains(where: predicate)
    }
  }

  /// The same expression with unqualified columns qualified by `alias`.
  func qualified(with alias: SQLTableAlias) -> SQLExpression {
    rewritten { node in
      switch node.impl {
      case .column(let name, nil): return SQLExpression(.column(name, alias: alias))
      case .dependent(nil, let render, let isAggregate):
        return SQLExpression(.dependent(alias, render, isAggregate: isAggregate))
      default: return nil
      }
    }
  }

  /// The same expression with the columns of `alias` replaced by values
  /// (how an emulated upsert reads SQLite's `excluded` row).
  func substituting(_ alias: SQLTableAlias, with value: (String) -> DatabaseValue) -> SQLExpression {
    rewritten { node in
      if case .column(let name, let current) = node.impl, current === alias {
        return SQLExpression(.value(value(name)))
      }
      return nil
    }
  }

  /// The same expression with the columns of one alias moved to another.
  func replacingAlias(_ old: SQLTableAlias, with new: SQLTableAlias) -> SQLExpression {
    rewritten { node in
      switch node.impl {
      case .column(let name, let alias) where alias === old: return SQLExpression(.column(name, alias: new))
      case .dependent(let alias, let render, let isAggregate) where alias === old:
        return SQLExpression(.dependent(new, render, isAggregate: isAggregate))
      default: return nil
      }
    }
  }

  /// The expression with `replace` applied to every node, from the top: where
  /// it returns an expression, that replaces the node; where it returns nil,
  /// the node's children are rewritten.
  func rewritten(_ replace: (SQLExpression) -> SQLExpression?) -> SQLExpression {
    if let replacement = replace(self) { return replacement }
    func sub(_ expression: SQLExpression) -> SQLExpression { expression.rewritten(replace) }
    switch impl {
    case .value, .constant, .column, .literal, .countAll, .exists, .subquery, .dependent:
      return self
    case .prefix(let op, let expression):
      return SQLExpression(.prefix(op, sub(expression)))
    case .postfix(let expression, let op):
      return SQLExpression(.postfix(sub(expression), op))
    case .binary(let op, let lhs, let rhs):
      return SQLExpression(.binary(op, sub(lhs), sub(rhs)))
    case .associative(let op, let expressions, let empty):
      return SQLExpression(.associative(op, expressions.map(sub), empty: empty))
    case .function(let name, let arguments, let distinct):
      return SQLExpression(.function(name, arguments.map(sub), distinct: distinct))
    case .aggregate(let name, let arguments, let orderBy, let filter):
      return SQLExpression(
        .aggregate(name, arguments.map(sub), orderBy: orderBy.map(sub), filter: filter.map(sub)))
    case .inList(let expression, let list, let negated):
      return SQLExpression(.inList(sub(expression), list.map(sub), negated: negated))
    case .inSubquery(let expression, let subquery, let negated):
      return SQLExpression(.inSubquery(sub(expression), subquery, negated: negated))
    case .between(let expression, let low, let high, let negated):
      return SQLExpression(.between(sub(expression), sub(low), sub(high), negated: negated))
    case .collate(let expression, let collation):
      return SQLExpression(.collate(sub(expression), collation))
    case .cast(let expression, let type):
      return SQLExpression(.cast(sub(expression), type))
    case .jsonValue(let expression):
      return SQLExpression(.jsonValue(sub(expression)))
    case .negatable(let expression, let negation):
      return SQLExpression(.negatable(sub(expression), negation: sub(negation)))
    }
  }

  /// The column name, if the expression is a bare column.
  var columnName: String? {
    switch impl {
    case .column(let name, _): return name
    case .jsonValue(let expression): return expression.columnName
    default: return nil
    }
  }
}

/// The identity of a table in a request: associations give each joined table
/// its own, named uniquely when SQL is generated. ``TableAlias`` wraps one;
/// two aliases are equal only if they are the same table of a request.
public final class TableAliasBase: Sendable, Hashable {
  /// The name given by the user, if any.
  let userName: String?
  /// The table name, for aliases made by requests and associations; a user's
  /// alias gets its table from the request that uses it, when SQL is generated.
  let tableName: String?
  /// Columns of this alias are always qualified (SQLite's `excluded` row).
  let forcesQualification: Bool
  /// Made by the user (`TableAlias`): requests keep it instead of copying it.
  let isUserAlias: Bool

  init(
    name: String? = nil, tableName: String? = nil, forcesQualification: Bool = false,
    isUserAlias: Bool = false
  ) {
    self.userName = name
    self.tableName = tableName
    self.forcesQualification = forcesQualification
    self.isUserAlias = isUserAlias
  }

  public static func == (lhs: TableAliasBase, rhs: TableAliasBase) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// A column of the aliased table.
  public subscript(_ column: some ColumnExpression) -> SQLExpression {
    SQLExpression(.column(column.name, alias: self))
  }

  /// An expression whose columns belong to the aliased table.
  public subscript(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    expression.sqlExpression.qualified(with: self)
  }
}

/// The name the SQL generation layer gives a table alias.
typealias SQLTableAlias = TableAliasBase

/// A table of a request, to refer to its columns from elsewhere in the
/// request (another table's filter, an ordering, an upsert's `excluded` row):
///
///     let authorAlias = TableAlias<Author>()
///     let request = Book
///       .joining(required: Book.author.aliased(authorAlias))
///       .order(authorAlias[Column("name")])
///
/// An alias of a record type gives its columns as members
/// (`authorAlias.name`, from `Author.Columns`); `TableAlias()` is an alias of
/// any table.
@dynamicMemberLookup
public struct TableAlias<RowDecoder>: Sendable {
  let alias: SQLTableAlias

  /// A new alias of a table of `record`, optionally with the name it has in
  /// SQL: `TableAlias<Player>(name: "p")` makes `SELECT p.* FROM player p`.
  public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
    alias = SQLTableAlias(name: name, isUserAlias: true)
  }

  init(alias: SQLTableAlias) {
    self.alias = alias
  }

  /// A column of the aliased table.
  public subscript(_ columnName: String) -> SQLExpression {
    SQLExpression(.column(columnName, alias: alias))
  }

  /// A column of the aliased table.
  public subscript(_ column: some ColumnExpression) -> SQLExpression {
    SQLExpression(.column(column.name, alias: alias))
  }

  /// An expression whose columns belong to the aliased table.
  public subscript(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    expression.sqlExpression.qualified(with: alias)
  }
}

extension TableAlias where RowDecoder == Void {
  /// A new alias of any table, optionally with the name it has in SQL:
  ///
  ///     // SELECT p.* FROM player p
  ///     let request = Player.all().aliased(TableAlias(name: "p"))
  public init(name: String? = nil) {
    alias = SQLTableAlias(name: name, isUserAlias: true)
  }
}
