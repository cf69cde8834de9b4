// How statement arguments fit a statement's parameters, by GRDB's rules:
//
// - a named parameter (`:name`, `$name`, `@name`, and `?NNN`, named "NNN")
//   takes its value from the named values, or else the next positional value;
// - a `?` parameter takes the next positional value;
// - every positional value must be used; named values that no parameter uses
//   are ignored (one dictionary can feed several statements).

extension Statement {
  /// Binds `arguments`, stopping the program if they do not fit: the setter of
  /// ``arguments``. Invalid arguments are a programmer error there, as in
  /// GRDB; the message names the statement (and the arguments only with
  /// ``Configuration/publicStatementArguments``).
  func setArgumentsOrTrap(_ arguments: StatementArguments) {
    do {
      try setArguments(arguments)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}

/// Hands out argument values to one or several statements in order: positional
/// values are consumed left to right, named values by name.
struct ArgumentConsumer {
  let arguments: StatementArguments
  private var positionalIndex = 0

  init(_ arguments: StatementArguments) {
    self.arguments = arguments
  }

  /// The values of the statement's parameters, in order; throws if one of
  /// them has no value.
  mutating func values(for statement: Statement) throws -> [DatabaseValue] {
    if let failure = arguments.conversionFailure {
      throw DatabaseError.misuse("invalid statement arguments: \(failure)", sql: statement.sql)
    }
    var result: [DatabaseValue] = []
    result.reserveCapacity(statement.parameterNames.count)
    for name in statement.parameterNames {
      if let name, let value = arguments.namedValues[name] {
        result.append(value)
      } else if positionalIndex < arguments.values.count {
        result.append(arguments.values[positionalIndex])
        positionalIndex += 1
      } else if let name {
        throw DatabaseError.misuse("missing statement argument: \(name)", sql: statement.sql)
      } else {
        throw DatabaseError.misuse(
          "wrong number of statement arguments: \(arguments.values.count)", sql: statement.sql)
      }
    }
    return result
  }

  /// The values of the statement's parameters, NULL for those without one.
  mutating func uncheckedValues(for statement: Statement) -> [DatabaseValue] {
    statement.parameterNames.map { name in
      if let name, let value = arguments.namedValues[name] { return value }
      if positionalIndex < arguments.values.count {
        defer { positionalIndex += 1 }
        return arguments.values[positionalIndex]
      }
      return .null
    }
  }

  /// Throws if positional values are left: they would be silently ignored.
  func checkFullyConsumed(statement: Statement?) throws {
    if positionalIndex < arguments.values.count {
      throw DatabaseError.misuse(
        "wrong number of statement arguments: \(arguments.values.count)", sql: statement?.sql)
    }
  }
}
