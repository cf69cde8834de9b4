/// Something a query can be ordered by: columns, expressions and their
/// `.asc`, `.desc`, `.ascNullsLast`, `.descNullsFirst` forms.
public protocol SQLOrderingTerm {
  /// The ordering.
  var sqlOrdering: SQLOrdering { get }
}

/// An ordering term of a query.
public struct SQLOrdering: SQLOrderingTerm, Sendable {
  enum Direction: Sendable {
    case none, asc, desc, ascNullsLast, descNullsFirst
  }

  enum Impl: Sendable {
    case expression(SQLExpression, Direction)
    case literal(SQL)
  }

  let impl: Impl

  public var sqlOrdering: SQLOrdering { self }

  /// The opposite ordering (raw SQL orderings can not be reversed).
  var reversed: SQLOrdering {
    get throws {
      switch impl {
      case .expression(let expression, let direction):
        let opposite: Direction
        switch direction {
        case .none, .asc: opposite = .desc
        case .desc: opposite = .asc
        case .ascNullsLast: opposite = .descNullsFirst
        case .descNullsFirst: opposite = .ascNullsLast
        }
        return SQLOrdering(impl: .expression(expression, opposite))
      case .literal:
        throw DatabaseError.misuse("an ordering given as raw SQL can not be reversed")
      }
    }
  }

  func qualified(with alias: SQLTableAlias) -> SQLOrdering {
    switch impl {
    case .expression(let expression, let direction):
      return SQLOrdering(impl: .expression(expression.qualified(with: alias), direction))
    case .literal: return self
    }
  }

  func sql(_ context: SQLGenerationContext) throws -> String {
    switch impl {
    case .literal(let literal):
      return try literal.sql(context)
    case .expression(let expression, let direction):
      let sql = try expression.sql(context)
      // Without NULLS FIRST/LAST, a leading `x IS NULL` term sorts the NULLs
      // the same way.
      let hasNullsOrdering = SQLiteFeatures.linked.supports(.nullsOrdering)
      switch direction {
      case .none: return sql
      case .asc: return sql + " ASC"
      case .desc: return sql + " DESC"
      case .ascNullsLast:
        return hasNullsOrdering
          ? sql + " ASC NULLS LAST" : "\(try expression.sql(context, wrapped: true)) IS NULL, \(sql) ASC"
      case .descNullsFirst:
        return hasNullsOrdering
          ? sql + " DESC NULLS FIRST"
          : "\(try expression.sql(context, wrapped: true)) IS NULL DESC, \(sql) DESC"
      }
    }
  }
}

extension SQL {
  /// The literal as raw ordering SQL, which can not be reversed.
  public var sqlOrdering: SQLOrdering { SQLOrdering(impl: .literal(self)) }

  /// The literal as a raw selection.
  public var sqlSelection: SQLSelection { SQLSelection(impl: .literal(self)) }
}

extension Optional: SQLOrderingTerm where Wrapped: SQLOrderingTerm {
  /// The ordering of the wrapped term; `ORDER BY NULL` for nil.
  public var sqlOrdering: SQLOrdering {
    self?.sqlOrdering ?? SQLOrdering(impl: .expression(DatabaseValue.null.sqlExpression, .none))
  }
}

extension SQLSpecificExpressible {
  /// Ascending order.
  public var asc: SQLOrdering { SQLOrdering(impl: .expression(sqlExpression, .asc)) }
  /// Descending order.
  public var desc: SQLOrdering { SQLOrdering(impl: .expression(sqlExpression, .desc)) }
  /// Ascending order, NULLs last.
  public var ascNullsLast: SQLOrdering { SQLOrdering(impl: .expression(sqlExpression, .ascNullsLast)) }
  /// Descending order, NULLs first.
  public var descNullsFirst: SQLOrdering { SQLOrdering(impl: .expression(sqlExpression, .descNullsFirst)) }
}
