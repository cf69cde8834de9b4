extension SQLExpression {
  /// The SQL functions whose result is JSON (text or JSONB): JSON builders embed their
  /// result as it is.
  private static let functionsReturningJSON: Set<String> = [
    "JSON", "JSON_ARRAY", "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT", "JSON_INSERT", "JSON_OBJECT",
    "JSON_PATCH", "JSON_REMOVE", "JSON_REPLACE", "JSON_SET", "JSON_QUOTE", "JSONB", "JSONB_ARRAY",
    "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT", "JSONB_INSERT", "JSONB_OBJECT", "JSONB_PATCH",
    "JSONB_REMOVE", "JSONB_REPLACE", "JSONB_SET",
  ]

  /// The expression, marked as JSON for JSON builders (marked once).
  var asJSONValue: SQLExpression {
    if case .jsonValue = impl { return self }
    return SQLExpression(.jsonValue(self))
  }

  /// True when the expression is known to produce JSON (NULL, `JSON(…)`, `x -> path`, …);
  /// false tells nothing.
  var producesJSON: Bool {
    switch impl {
    case .value(let value): return value.isNull
    case .binary(let op, _, _): return op == "->"
    case .collate(let expression, _), .jsonValue(let expression): return expression.producesJSON
    case .function(let name, let arguments, _):
      let name = name.uppercased()
      // JSON_EXTRACT with several paths returns a JSON array.
      return Self.functionsReturningJSON.contains(name) || (name == "JSON_EXTRACT" && arguments.count > 2)
    case .aggregate(let name, _, _, _): return Self.functionsReturningJSON.contains(name.uppercased())
    default: return false
    }
  }

  /// The expression as an argument of a JSON builder: an expression marked as JSON that
  /// does not already produce JSON is wrapped in `JSONB(…)` (SQLite 3.45+) or `JSON(…)`,
  /// so that its text is embedded as JSON; any other is left to SQLite.
  var jsonBuilderArgument: SQLExpression {
    guard case .jsonValue(let base) = impl, !base.producesJSON else { return self }
    let function = SQLiteFeatures.linked.supports(.jsonb) ? "JSONB" : "JSON"
    return SQLExpression(.function(function, [base], distinct: false))
  }
}

extension SQLExpressible {
  /// The expression as a JSON path argument. A constant path (`'country'`, `'$.a[0]'`, `2`)
  /// is written into the SQL as a literal instead of a bound `?`: SQLite uses an index on
  /// `address ->> 'country'` only for a query that spells the same constant, never for a
  /// parameter.
  var jsonPathArgument: SQLExpression {
    let expression = sqlExpression
    guard case .value(let value) = expression.impl else { return expression }
    switch value.storage {
    case .string, .int64:
      return SQLExpression(.constant(value))
    default:
      return expression
    }
  }
}
