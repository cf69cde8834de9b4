// SQL operators on columns and expressions. They apply when one side at least is
// an SQL expression, so `Column("score") > 100` builds SQL while `1 > 0` stays Swift.

// MARK: Equality

/// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil.
public func == (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
  SQLExpression.equality(lhs.sqlExpression, rhs?.sqlExpression, negated: false)
}

/// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil.
public func == (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression.equality(rhs.sqlExpression, lhs?.sqlExpression, negated: false)
}

/// `lhs = rhs`.
public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil.
public func != (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
  SQLExpression.equality(lhs.sqlExpression, rhs?.sqlExpression, negated: true)
}

/// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
public func != (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression.equality(rhs.sqlExpression, lhs?.sqlExpression, negated: true)
}

/// `lhs <> rhs`.
public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs IS rhs`: equality where NULL equals NULL.
public func === (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
  SQLExpression(.binary("IS", lhs.sqlExpression, rhs?.sqlExpression ?? DatabaseValue.null.sqlExpression))
}

/// `lhs IS rhs`.
public func === (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("IS", lhs?.sqlExpression ?? DatabaseValue.null.sqlExpression, rhs.sqlExpression))
}

/// `lhs IS rhs`, between two expressions: `Column("a") === Column("b")`.
public func === (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("IS", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs IS NOT rhs`, between two expressions.
public func !== (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("IS NOT", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
  SQLExpression(.binary("IS NOT", lhs.sqlExpression, rhs?.sqlExpression ?? DatabaseValue.null.sqlExpression))
}

/// `lhs IS NOT rhs`.
public func !== (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("IS NOT", lhs?.sqlExpression ?? DatabaseValue.null.sqlExpression, rhs.sqlExpression))
}

extension SQLExpression {
  static func equality(_ lhs: SQLExpression, _ rhs: SQLExpression?, negated: Bool) -> SQLExpression {
    guard let rhs, !rhs.isNullValue else {
      return SQLExpression(.postfix(lhs, negated ? "IS NOT NULL" : "IS NULL"))
    }
    return SQLExpression(.binary(negated ? "<>" : "=", lhs, rhs))
  }

  var isNullValue: Bool {
    if case .value(let value) = impl { return value.isNull }
    return false
  }
}

// MARK: Comparison

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary("<", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs < rhs`.
public func < (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("<", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("<", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs <= rhs`.
public func <= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary(">", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs > rhs`.
public func > (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary(">", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary(">", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs >= rhs`.
public func >= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

// MARK: Logic

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.associative("AND", [lhs.sqlExpression, rhs.sqlExpression], empty: "1"))
}
/// `lhs AND rhs`.
public func && (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.associative("AND", [lhs.sqlExpression, rhs.sqlExpression], empty: "1"))
}
/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.associative("AND", [lhs.sqlExpression, rhs.sqlExpression], empty: "1"))
}
/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.associative("OR", [lhs.sqlExpression, rhs.sqlExpression], empty: "0"))
}
/// `lhs OR rhs`.
public func || (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.associative("OR", [lhs.sqlExpression, rhs.sqlExpression], empty: "0"))
}
/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.associative("OR", [lhs.sqlExpression, rhs.sqlExpression], empty: "0"))
}
/// `NOT value`.
public prefix func ! (value: some SQLSpecificExpressible) -> SQLExpression {
  let expression = value.sqlExpression
  // Operators that have a negated form are negated in place, as GRDB writes
  // them: `a <> b`, `a IS NOT b`, `x NOT IN (…)`, `NOT EXISTS (…)`,
  // `x NOT BETWEEN a AND b`, `x NOT LIKE p`.
  switch expression.impl {
  case .exists(let subquery, let negated): return SQLExpression(.exists(subquery, negated: !negated))
  case .inSubquery(let element, let subquery, let negated):
    return SQLExpression(.inSubquery(element, subquery, negated: !negated))
  case .inList(let element, let list, let negated):
    return SQLExpression(.inList(element, list, negated: !negated))
  case .between(let element, let low, let high, let negated):
    return SQLExpression(.between(element, low, high, negated: !negated))
  case .binary(let op, let lhs, let rhs) where negatedOperators[op] != nil:
    return SQLExpression(.binary(negatedOperators[op]!, lhs, rhs))
  case .binary("ESCAPE", let like, let escape):
    if case .binary(let op, let lhs, let rhs) = like.impl, let negated = negatedOperators[op] {
      return SQLExpression(.binary("ESCAPE", SQLExpression(.binary(negated, lhs, rhs)), escape))
    }
    return SQLExpression(.prefix("NOT ", expression))
  case .negatable(let positive, let negation): return SQLExpression(.negatable(negation, negation: positive))
  case .postfix(let element, "IS NULL"): return SQLExpression(.postfix(element, "IS NOT NULL"))
  case .postfix(let element, "IS NOT NULL"): return SQLExpression(.postfix(element, "IS NULL"))
  default: return SQLExpression(.prefix("NOT ", expression))
  }
}

/// The binary operators whose negation is another operator.
private let negatedOperators = [
  "=": "<>", "<>": "=", "IS": "IS NOT", "IS NOT": "IS", "LIKE": "NOT LIKE", "NOT LIKE": "LIKE",
]

extension Sequence where Element: SQLExpressible {
  /// All expressions joined with AND (true when empty).
  public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
    SQLExpression(.associative(`operator`.sql, map { $0.sqlExpression }, empty: `operator`.neutral))
  }
}

extension Sequence where Element == any SQLExpressible {
  /// All expressions joined with AND or OR.
  public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
    SQLExpression(.associative(`operator`.sql, map { $0.sqlExpression }, empty: `operator`.neutral))
  }
}

extension SQLExpression {
  /// An operator that joins any number of expressions with
  /// `joined(operator:)`: `[a, b, c].joined(operator: .and)`.
  public struct AssociativeBinaryOperator: Hashable, Sendable {
    /// The operator's SQL.
    let sql: String
    /// The SQL of the value of an empty list.
    let neutral: String

    /// `+`: the sum of the expressions (0 when there is none).
    public static let add = AssociativeBinaryOperator(sql: "+", neutral: "0")
    /// `*`: the product of the expressions (1 when there is none).
    public static let multiply = AssociativeBinaryOperator(sql: "*", neutral: "1")
    /// `AND`: true when every expression is (true when there is none).
    public static let and = AssociativeBinaryOperator(sql: "AND", neutral: "1")
    /// `OR`: true when one expression is (false when there is none).
    public static let or = AssociativeBinaryOperator(sql: "OR", neutral: "0")
    /// `||`: the expressions' text, concatenated (empty when there is none).
    public static let concat = AssociativeBinaryOperator(sql: "||", neutral: "''")
    /// `&`: the bitwise AND of the expressions (-1, every bit set, when there
    /// is none).
    public static let bitwiseAnd = AssociativeBinaryOperator(sql: "&", neutral: "-1")
    /// `|`: the bitwise OR of the expressions (0 when there is none).
    public static let bitwiseOr = AssociativeBinaryOperator(sql: "|", neutral: "0")
  }
}

// MARK: Arithmetic

/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary("+", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs + rhs`.
public func + (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("+", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("+", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary("-", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs - rhs`.
public func - (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("-", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("-", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary("*", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs * rhs`.
public func * (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("*", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("*", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.binary("/", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs / rhs`.
public func / (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("/", lhs.sqlExpression, rhs.sqlExpression))
}
/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.binary("/", lhs.sqlExpression, rhs.sqlExpression))
}
/// `-value`.
public prefix func - (value: some SQLSpecificExpressible) -> SQLExpression {
  SQLExpression(.prefix("-", value.sqlExpression))
}

/// `COALESCE(lhs, rhs)`: `Column("nickname") ?? Column("name")`.
public func ?? (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression(.function("COALESCE", [lhs.sqlExpression, rhs.sqlExpression], distinct: false))
}

// MARK: Membership, patterns, collation

extension Sequence where Element: SQLExpressible {
  /// `expression IN (…)`: `[1, 2, 3].contains(Column("id"))`. False when empty.
  public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.inList(element.sqlExpression, map { $0.sqlExpression }, negated: false))
  }
}

extension Sequence where Element == any SQLExpressible {
  /// `expression IN (…)` over values and expressions of mixed types:
  /// `(["arthur", Column("nickname")] as [any SQLExpressible]).contains(Column("name"))`.
  public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.inList(element.sqlExpression, map { $0.sqlExpression }, negated: false))
  }
}

extension ClosedRange where Bound: SQLExpressible {
  /// `expression BETWEEN lower AND upper`.
  public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(
      .between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression, negated: false))
  }
}

extension Range where Bound: SQLExpressible {
  /// `expression >= lower AND expression < upper`.
  public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
    (element >= lowerBound) && (element < upperBound)
  }
}

extension SQLSpecificExpressible {
  /// `self LIKE pattern`.
  public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
    let like = SQLExpression(.binary("LIKE", sqlExpression, pattern.sqlExpression))
    guard let escape else { return like }
    return SQLExpression(.binary("ESCAPE", like, escape.sqlExpression))
  }

  /// `self BETWEEN lower AND upper`.
  public func between(_ lower: some SQLExpressible, and upper: some SQLExpressible) -> SQLExpression {
    SQLExpression(.between(sqlExpression, lower.sqlExpression, upper.sqlExpression, negated: false))
  }

  /// `self COLLATE collation`.
  public func collating(_ collation: Database.CollationName) -> SQLExpression {
    SQLExpression(.collate(sqlExpression, collation.rawValue))
  }

  /// `self IS NULL` as an expression.
  public var isNull: SQLExpression { SQLExpression(.postfix(sqlExpression, "IS NULL")) }
}
