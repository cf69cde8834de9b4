import Foundation

/// The shape of a request: its SQL text with every bound value left out, as
/// a key, and the values in the order the SQL binds them. Two requests of the
/// same shape have the same SQL (for the same schema), so the SQL of a shape
/// is generated once per connection (see RequestSQLCache.swift).
///
/// Only the requests of one table built from plain expressions and SQL
/// literals have a shape: those with joins, common table expressions,
/// association aggregates, subqueries, literals with named arguments or SQL
/// generated when they render, conditions built from the schema or
/// `NULLS FIRST/LAST` orderings (rendered twice on old SQLite) are
/// rendered each time. The values come out in the order of the text, which
/// is the order the renderer binds them: debug builds check each shape
/// against the renderer (`RequestSQLCache`).
struct RequestShape {
  private(set) var values: [DatabaseValue] = []

  /// The shape of `relation`'s SELECT, its key written in `key` (emptied
  /// first), or nil if it has none. Borrowed: an initializer takes its
  /// arguments owned, and a relation copied for it is ten retains and ten
  /// releases, at every request.
  init?(_ relation: borrowing SQLRelation, singleResult: Bool, key: inout ShapeKeyBuffer) {
    key.removeAll()
    guard relation.joins.isEmpty, relation.prefetches.isEmpty, relation.deferredEdits.isEmpty,
      relation.ctes.isEmpty, relation.sourceCTE == nil, relation.grouping.isEmpty,
      relation.havingFilters.isEmpty, relation.alias.userName == nil,
      !relation.alias.forcesQualification
    else { return nil }
    let alias = relation.alias
    key.append("T", relation.tableName)
    key.append(relation.isDistinct ? "D" : "d")
    key.append(relation.isEmptyByDefinition ? "E" : "e")
    key.append(relation.isReversed ? "R" : "r")
    key.append(singleResult ? "S" : "s")
    if let limit = relation.limit {
      key.append("^", limit.limit)
      if let offset = limit.offset { key.append("~", offset) }
    }
    for selection in relation.selection {
      switch selection.impl {
      case .allColumns(let owner):
        guard owner == nil || owner === alias else { return nil }
        key.append("*")
      case .expression(let expression):
        guard add(expression, alias, &key) else { return nil }
      case .aliased(let expression, let name):
        guard add(expression, alias, &key) else { return nil }
        key.append("A", name)
      case .literal(let literal):
        key.append("l")
        guard addLiteral(literal, alias, &key) else { return nil }
      case .allColumnsExcluding:
        return nil
      }
    }
    guard addFilters(of: relation, &key) else { return nil }
    key.append("B")
    for ordering in relation.ordering {
      switch ordering.impl {
      case .literal(let literal):
        key.append("3")
        guard addLiteral(literal, alias, &key) else { return nil }
      case .expression(let expression, let direction):
        switch direction {
        case .none: key.append("0")
        case .asc: key.append("1")
        case .desc: key.append("2")
        case .ascNullsLast, .descNullsFirst: return nil
        }
        guard add(expression, alias, &key) else { return nil }
      }
    }
  }

  /// The shape of `relation`'s DELETE, or of its UPDATE, its key written in
  /// `key` (emptied first), or nil if it has none. Only a relation whose
  /// statement names its rows by its conditions has one: a joined, grouped,
  /// limited or distinct relation deletes and updates the rows of a
  /// subquery, rendered each time.
  init?(_ relation: borrowing SQLRelation, writing write: ShapedWrite, key: inout ShapeKeyBuffer) {
    key.removeAll()
    guard relation.joins.isEmpty, relation.prefetches.isEmpty, relation.deferredEdits.isEmpty,
      relation.ctes.isEmpty, relation.sourceCTE == nil, relation.grouping.isEmpty,
      relation.havingFilters.isEmpty, relation.limit == nil, !relation.isDistinct,
      relation.alias.userName == nil, !relation.alias.forcesQualification
    else { return nil }
    switch write {
    case .delete:
      key.append("X", relation.tableName)
    case .update(let conflictResolution, let assignments):
      key.append("U", relation.tableName)
      key.append("O", conflictResolution.rawValue)
      // The assignments render first: their values are bound first.
      for assignment in assignments {
        key.append("=", assignment.columnName)
        if let value = assignment.value {
          guard add(value, relation.alias, &key) else { return nil }
        } else {
          key.append("n")
        }
      }
    }
    // A relation empty by definition renders `WHERE 0`, without its conditions.
    if relation.isEmptyByDefinition {
      key.append("E")
      return
    }
    guard addFilters(of: relation, &key) else { return nil }
  }

  /// Adds the conditions of `relation`; false if one has no shape. Inlined
  /// in the SELECT's shape, which every request writes.
  @inline(__always)
  private mutating func addFilters(of relation: borrowing SQLRelation, _ key: inout ShapeKeyBuffer) -> Bool {
    key.append("W")
    for filter in relation.filters {
      switch filter {
      case .expression(let expression):
        guard add(expression, relation.alias, &key) else { return false }
      case .primaryKey(let tableName, let keyValues):
        // The key column is the schema's: the cache of shapes is forgotten
        // when the schema changes. One value renders `=`, more `IN (…)`.
        key.append("P", tableName)
        key.append("K", keyValues.count)
        values.append(contentsOf: keyValues)
      case .deferred:
        return false
      }
    }
    return true
  }

  /// Whether `values` and `others` are the same values, in the same order:
  /// a NaN is the same as a NaN, which `==` says it is not (a request that
  /// filters on NaN has its values, in order, all the same).
  static func sameValues(_ values: [DatabaseValue], _ others: [DatabaseValue]) -> Bool {
    guard values.count == others.count else { return false }
    for index in values.indices where values[index] != others[index] {
      guard case .double(let value) = values[index].storage, case .double(let other) = others[index].storage,
        value.bitPattern == other.bitPattern
      else { return false }
    }
    return true
  }

  /// Adds an expression; false if it has no shape.
  private mutating func add(_ expression: SQLExpression, _ alias: SQLTableAlias, _ key: inout ShapeKeyBuffer)
    -> Bool
  {
    switch expression.impl {
    case .value(let value):
      key.append("?")
      values.append(value)
    case .constant(let value):
      key.append("c", SQLGenerationContext.literal(value))
    case .column(let name, let owner):
      guard owner == nil || owner === alias else { return false }
      key.append("C", name)
    case .literal(let literal):
      return addLiteral(literal, alias, &key)
    case .prefix(let op, let operand):
      key.append("<", op)
      return add(operand, alias, &key)
    case .postfix(let operand, let op):
      key.append(">", op)
      return add(operand, alias, &key)
    case .binary(let op, let lhs, let rhs):
      key.append("b", op)
      return add(lhs, alias, &key) && add(rhs, alias, &key)
    case .associative(let op, let terms, let empty):
      key.append("(", op)
      key.append(")", empty)
      return addList(terms, alias, &key)
    case .function(let name, let arguments, let distinct):
      key.append(distinct ? "G" : "F", name)
      return addList(arguments, alias, &key)
    case .countAll:
      key.append("#")
    case .inList(let operand, let list, let negated):
      key.append(negated ? "I" : "i")
      return add(operand, alias, &key) && addList(list, alias, &key)
    case .between(let operand, let low, let high, let negated):
      key.append(negated ? "N" : "n")
      return add(operand, alias, &key) && add(low, alias, &key) && add(high, alias, &key)
    case .collate(let operand, let collation):
      key.append("k", collation)
      return add(operand, alias, &key)
    case .cast(let operand, let type):
      key.append("t", type)
      return add(operand, alias, &key)
    case .negatable(let operand, _):
      // Rendered as its first form; the negation is only for `!`.
      return add(operand, alias, &key)
    case .jsonValue(let operand):
      return add(operand, alias, &key)
    case .aggregate, .inSubquery, .exists, .subquery, .dependent:
      return false
    }
    return true
  }

  /// Adds an SQL literal: its text, its positional arguments as values, the
  /// expressions and names it interpolates. False if it has no shape: named
  /// arguments (bound by name, not in the order of the text) and SQL
  /// generated when the request renders (a subquery) are rendered each time.
  private mutating func addLiteral(_ literal: SQL, _ alias: SQLTableAlias, _ key: inout ShapeKeyBuffer)
    -> Bool
  {
    key.append("{", literal.elements.count)
    for element in literal.elements {
      switch element {
      case .sql(let text, let arguments):
        guard arguments.namedValues.isEmpty else { return false }
        key.append("L", text)
        // The count too: the same text with other arguments fails to bind
        // as it did, from the statement of its own shape.
        key.append("a", arguments.values.count)
        values.append(contentsOf: arguments.values)
      case .expression(let expression):
        guard add(expression, alias, &key) else { return false }
      case .identifier(let name):
        key.append("Q", name)
      case .tableName(let name):
        // Rendered as an identifier, named when the request renders.
        key.append("Q", name())
      case .literal(let nested):
        guard addLiteral(nested, alias, &key) else { return false }
      case .generated:
        return false
      }
    }
    key.append("}")
    return true
  }

  private mutating func addList(
    _ expressions: [SQLExpression], _ alias: SQLTableAlias, _ key: inout ShapeKeyBuffer
  )
    -> Bool
  {
    key.append("[", expressions.count)
    for expression in expressions {
      guard add(expression, alias, &key) else { return false }
    }
    key.append("]")
    return true
  }
}

/// A statement that writes the rows a relation selects, with a shape of its
/// own (see ``RequestShape/init(_:writing:key:)``).
enum ShapedWrite {
  /// `DELETE FROM …`
  case delete
  /// `UPDATE [OR …] … SET …`
  case update(Database.ConflictResolution, [ColumnAssignment])
}

/// The key of a request shape: a tag byte per part (each tag with one
/// meaning, followed by a payload for some), payloads prefixed by their
/// length or of fixed size: the bytes read back as one request only, so no
/// two shapes share a key. Hashed as one block of bytes.
///
/// Stored in the cache of shapes; a request writes the key of its shape in a
/// ``ShapeKeyBuffer``, and a key is made of it only when the request's shape
/// is not the one that ran last.
struct RequestShapeKey: Hashable {
  let bytes: [UInt8]

  init(_ buffer: borrowing ShapeKeyBuffer) {
    bytes = Array(buffer.bytes)
  }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  /// Whether `buffer` holds these bytes: compared as one block of bytes.
  func isWritten(in buffer: borrowing ShapeKeyBuffer) -> Bool {
    bytes.withUnsafeBytes { RequestShapeKey.equal($0, buffer.bytes) }
  }

  static func == (lhs: RequestShapeKey, rhs: RequestShapeKey) -> Bool {
    lhs.bytes.withUnsafeBytes { left in rhs.bytes.withUnsafeBytes { right in equal(left, right) } }
  }

  /// Array's element by element comparison is several times slower.
  private static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
    left.count == right.count
      && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
  }
}

/// Where a request writes the key of its shape: one buffer per connection
/// (``RequestSQLCache``), written again by each request. Appending to an
/// array checks its uniqueness and capacity at each byte, and a key array per
/// request is an allocation: the shape of a small request cost more than its
/// values' binding. Not copyable: the buffer owns its memory.
struct ShapeKeyBuffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var count = 0

  init(capacity: Int = 256) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deallocate()
  }

  /// The bytes written since the last `removeAll()`, valid until the next write.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

  mutating func removeAll() {
    count = 0
  }

  @inline(__always)
  mutating func append(_ tag: Unicode.Scalar) {
    reserve(1)
    base[count] = UInt8(ascii: tag)
    count += 1
  }

  /// A tag and a name: its UTF-8 length in one byte when under 255, else 255
  /// and the full length, so that no two names share a key; then its bytes.
  mutating func append(_ tag: Unicode.Scalar, _ name: String) {
    append(tag)
    var name = name
    name.withUTF8 { utf8 in
      if utf8.count < 255 {
        append(byte: UInt8(truncatingIfNeeded: utf8.count))
      } else {
        append(byte: 255)
        append(bytesOf: UInt64(utf8.count).littleEndian)
      }
      reserve(utf8.count)
      if let source = utf8.baseAddress { (base + count).initialize(from: source, count: utf8.count) }
      count += utf8.count
    }
  }

  /// A tag and a number, as eight bytes.
  mutating func append(_ tag: Unicode.Scalar, _ number: Int) {
    append(tag)
    append(bytesOf: Int64(number).littleEndian)
  }

  @inline(__always)
  private mutating func append(byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  private mutating func append<Value: FixedWidthInteger>(bytesOf value: Value) {
    reserve(MemoryLayout<Value>.size)
    UnsafeMutableRawPointer(base + count).storeBytes(of: value, as: Value.self)
    count += MemoryLayout<Value>.size
  }

  /// Room for `extra` more bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  @inline(never)
  private mutating func grow(to minimum: Int) {
    var newCapacity = capacity * 2
    while newCapacity < minimum { newCapacity *= 2 }
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    larger.initialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity = newCapacity
  }
}
