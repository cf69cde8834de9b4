import Foundation

/// The shape of a request: its SQL text with every bound value left out, as
/// a key, and the values in the order the SQL binds them. Two requests of the
/// same shape have the same SQL (for the same schema), so the SQL of a shape
/// is generated once per connection (see RequestSQLCache.swift).
///
/// Only the requests of one table built from plain expressions have a
/// shape: those with joins, common table expressions, association
/// aggregates, subqueries, raw SQL with arguments, conditions built from the
/// schema or `NULLS FIRST/LAST` orderings (rendered twice on old SQLite) are
/// rendered each time. The values come out in the order of the text, which
/// is the order the renderer binds them: debug builds check each shape
/// against the renderer (`RequestSQLCache`).
struct RequestShape {
  private(set) var key = RequestShapeKey()
  private(set) var values: [DatabaseValue] = []

  /// The shape of `relation`'s SELECT, or nil if it has none. Borrowed: an
  /// initializer takes its arguments owned, and a relation copied for it is
  /// ten retains and ten releases, at every request.
  init?(_ relation: borrowing SQLRelation, singleResult: Bool) {
    guard relation.joins.isEmpty, relation.prefetches.isEmpty, relation.deferredEdits.isEmpty,
      relation.ctes.isEmpty, relation.sourceCTE == nil, relation.grouping.isEmpty,
      relation.havingFilters.isEmpty, relation.alias.userName == nil,
      !relation.alias.forcesQualification
    else { return nil }
    let alias = relation.alias
    append("T", relation.tableName)
    append(relation.isDistinct ? "D" : "d")
    append(relation.isEmptyByDefinition ? "E" : "e")
    append(relation.isReversed ? "R" : "r")
    append(singleResult ? "S" : "s")
    if let limit = relation.limit {
      append("^", limit.limit)
      if let offset = limit.offset { append("~", offset) }
    }
    for selection in relation.selection {
      switch selection.impl {
      case .allColumns(let owner):
        guard owner == nil || owner === alias else { return nil }
        append("*")
      case .expression(let expression):
        guard add(expression, alias) else { return nil }
      case .aliased(let expression, let name):
        guard add(expression, alias) else { return nil }
        append("A", name)
      case .allColumnsExcluding, .literal:
        return nil
      }
    }
    append("W")
    for filter in relation.filters {
      guard case .expression(let expression) = filter, add(expression, alias) else { return nil }
    }
    append("B")
    for ordering in relation.ordering {
      guard case .expression(let expression, let direction) = ordering.impl else { return nil }
      switch direction {
      case .none: append("0")
      case .asc: append("1")
      case .desc: append("2")
      case .ascNullsLast, .descNullsFirst: return nil
      }
      guard add(expression, alias) else { return nil }
    }
  }

  private mutating func append(_ tag: Unicode.Scalar) {
    key.bytes.append(UInt8(ascii: tag))
  }

  private mutating func append(_ tag: Unicode.Scalar, _ name: String) {
    key.bytes.append(UInt8(ascii: tag))
    var name = name
    name.withUTF8 { utf8 in
      // The length in one byte: names are short. A longer one is marked by
      // 255 and its full length, so that no two names share a key.
      if utf8.count < 255 {
        key.bytes.append(UInt8(truncatingIfNeeded: utf8.count))
      } else {
        key.bytes.append(255)
        withUnsafeBytes(of: UInt64(utf8.count).littleEndian) { key.bytes.append(contentsOf: $0) }
      }
      key.bytes.append(contentsOf: utf8)
    }
  }

  private mutating func append(_ tag: Unicode.Scalar, _ number: Int) {
    key.bytes.append(UInt8(ascii: tag))
    withUnsafeBytes(of: Int64(number).littleEndian) { key.bytes.append(contentsOf: $0) }
  }

  /// Adds an expression; false if it has no shape.
  private mutating func add(_ expression: SQLExpression, _ alias: SQLTableAlias) -> Bool {
    switch expression.impl {
    case .value(let value):
      append("?")
      values.append(value)
    case .constant(let value):
      append("c", SQLGenerationContext.literal(value))
    case .column(let name, let owner):
      guard owner == nil || owner === alias else { return false }
      append("C", name)
    case .literal(let literal):
      guard literal.elements.count == 1, case .sql(let text, let arguments) = literal.elements[0],
        arguments.isEmpty
      else { return false }
      append("L", text)
    case .prefix(let op, let operand):
      append("<", op)
      return add(operand, alias)
    case .postfix(let operand, let op):
      append(">", op)
      return add(operand, alias)
    case .binary(let op, let lhs, let rhs):
      append("b", op)
      return add(lhs, alias) && add(rhs, alias)
    case .associative(let op, let terms, let empty):
      append("(", op)
      append(")", empty)
      return addList(terms, alias)
    case .function(let name, let arguments, let distinct):
      append(distinct ? "G" : "F", name)
      return addList(arguments, alias)
    case .countAll:
      append("#")
    case .inList(let operand, let list, let negated):
      append(negated ? "I" : "i")
      return add(operand, alias) && addList(list, alias)
    case .between(let operand, let low, let high, let negated):
      append(negated ? "N" : "n")
      return add(operand, alias) && add(low, alias) && add(high, alias)
    case .collate(let operand, let collation):
      append("k", collation)
      return add(operand, alias)
    case .cast(let operand, let type):
      append("t", type)
      return add(operand, alias)
    case .negatable(let operand, _):
      // Rendered as its first form; the negation is only for `!`.
      return add(operand, alias)
    case .jsonValue(let operand):
      return add(operand, alias)
    case .aggregate, .inSubquery, .exists, .subquery, .dependent:
      return false
    }
    return true
  }

  private mutating func addList(_ expressions: [SQLExpression], _ alias: SQLTableAlias) -> Bool {
    append("[", expressions.count)
    for expression in expressions {
      guard add(expression, alias) else { return false }
    }
    append("]")
    return true
  }
}

/// The key of a request shape: a tag byte per part (each tag with one
/// meaning, followed by a payload for some), payloads prefixed by their
/// length or of fixed size: the bytes read back as one request only, so no
/// two shapes share a key. Hashed as one block of bytes.
struct RequestShapeKey: Hashable {
  var bytes: [UInt8] = []

  init() {
    bytes.reserveCapacity(128)
  }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  /// Compared as one block of bytes: a loop of requests of one shape
  /// compares each key with the last one (see `LastHitDictionary`), which
  /// Array's element by element comparison made several times slower.
  static func == (lhs: RequestShapeKey, rhs: RequestShapeKey) -> Bool {
    lhs.bytes.withUnsafeBytes { left in
      rhs.bytes.withUnsafeBytes { right in
        left.count == right.count
          && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
      }
    }
  }
}
