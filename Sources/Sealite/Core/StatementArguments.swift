/// The values bound to a statement's parameters: positional (`?`) values in
/// order, and named (`:name`, `$name`, `@name`) values by name.
///
///     try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
///     try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///                    arguments: ["name": "Arthur", "score": 1000])
///
/// A named parameter missing from the named values takes the next positional
/// value; named values no parameter uses are ignored. A missing value, or a
/// positional value left unused, is an error thrown before the statement runs.
public struct StatementArguments: Hashable, Sendable {
  /// Positional values.
  public var values: [DatabaseValue]
  /// Named values, keyed by parameter name without its prefix.
  public var namedValues: [String: DatabaseValue]
  /// Why a value could not be converted (an out-of-range unsigned integer):
  /// thrown when the arguments are bound.
  var conversionFailure: String?

  /// Creates empty arguments.
  public init() {
    values = []
    namedValues = [:]
  }

  /// Creates positional arguments.
  public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
    self.init()
    values.reserveCapacity(sequence.underestimatedCount)
    for value in sequence { values.append(convert(value)) }
  }

  /// Creates positional arguments.
  public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
    self.init(sequence.map { $0 as (any DatabaseValueConvertible)? })
  }

  /// Creates named arguments.
  public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
    self.init()
    for (name, value) in dictionary { namedValues[name] = convert(value) }
  }

  /// Creates named arguments.
  public init<S: Sequence>(_ sequence: S) where S.Element == (String, (any DatabaseValueConvertible)?) {
    self.init()
    for (name, value) in sequence { namedValues[name] = convert(value) }
  }

  /// True if there are no values at all.
  public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

  private mutating func convert(_ value: (any DatabaseValueConvertible)?) -> DatabaseValue {
    var value = value
    return StatementArguments.convert(&value, failure: &conversionFailure)
  }

  /// Converts the values of `buffer` in order, handing each to `body` with its
  /// offset; an integer out of SQLite's range records the first such failure
  /// in `failure` (thrown when the arguments are bound).
  ///
  /// The values are read where they are. Read through the buffer's immutable
  /// subscript, each optional existential would first be copied, through
  /// Optional's generic value witnesses, at a cost larger than the bind
  /// itself; an `inout` access opens it in place. Nothing is written.
  @inline(__always)
  static func convertInPlace(
    _ buffer: UnsafeBufferPointer<(any DatabaseValueConvertible)?>, failure: inout String?,
    _ body: (Int, DatabaseValue) throws -> Void
  ) rethrows {
    guard let base = buffer.baseAddress else { return }
    let values = UnsafeMutablePointer(mutating: base)
    for offset in 0..<buffer.count {
      try body(offset, convert(&values[offset], failure: &failure))
    }
  }

  /// The database value of `value` (read in place, never modified); an integer
  /// out of SQLite's range records the first such failure in `failure`.
  @inline(__always)
  static func convert(_ value: inout (any DatabaseValueConvertible)?, failure: inout String?)
    -> DatabaseValue
  {
    guard let dbValue = value?.databaseValue else { return .null }
    // Only an integer beyond Int64's range (a UInt or UInt64, maybe wrapped in
    // optionals) converts to a REAL that its checked conversion rejects.
    guard case .double = dbValue.storage, value?.convertibleType != Double.self else { return dbValue }
    return checkedConversion(of: value, dbValue, failure: &failure)
  }

  /// The database value of `value`, as ``convert(_:failure:)`` converts an
  /// optional existential, but as the value's own type: the caller that
  /// knows it (a record's `encode(to:)`, where the persistence container's
  /// subscript is inlined) converts it without any existential.
  @inlinable
  @inline(__always)
  static func convert<Value: DatabaseValueConvertible>(_ value: Value, failure: inout String?)
    -> DatabaseValue
  {
    let dbValue = value.databaseValue
    guard case .double = dbValue.storage, Value.self != Double.self else { return dbValue }
    return checkedConversion(of: value, dbValue, failure: &failure)
  }

  @usableFromInline
  @inline(never)
  static func checkedConversion(
    of value: (any DatabaseValueConvertible)?, _ dbValue: DatabaseValue, failure: inout String?
  ) -> DatabaseValue {
    guard let checked = value as? any CheckedDatabaseValueConvertible else { return dbValue }
    do {
      return try checked.checkedDatabaseValue()
    } catch let error as DatabaseError {
      failure = failure ?? error.message ?? "\(error)"
    } catch {
      failure = failure ?? "\(error)"
    }
    return dbValue
  }

  /// Appends the positional values and merges the named values of `other`,
  /// whose named values replace those of the same name. Returns the replaced
  /// values, by name.
  @discardableResult
  public mutating func append(contentsOf other: StatementArguments) -> [String: DatabaseValue] {
    var replacedValues: [String: DatabaseValue] = [:]
    values += other.values
    for (name, value) in other.namedValues {
      if let replaced = namedValues.updateValue(value, forKey: name) { replacedValues[name] = replaced }
    }
    conversionFailure = conversionFailure ?? other.conversionFailure
    return replacedValues
  }

  /// Concatenates two argument lists; a name present in both is an error when
  /// the arguments are bound (GRDB stops the program).
  public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
    var result = lhs
    result += rhs
    return result
  }

  /// Appends arguments; a name present in both is an error when the arguments
  /// are bound (GRDB stops the program).
  public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
    let replacedValues = lhs.append(contentsOf: rhs)
    if !replacedValues.isEmpty {
      lhs.conversionFailure =
        lhs.conversionFailure
        ?? "already defined statement argument: \(replacedValues.keys.sorted().joined(separator: ", "))"
    }
  }

  /// Concatenates two argument lists; named values of `rhs` win over those of `lhs`.
  public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
    var result = lhs
    result.values += rhs.values
    result.namedValues.merge(rhs.namedValues) { _, new in new }
    result.conversionFailure = lhs.conversionFailure ?? rhs.conversionFailure
    return result
  }
}

extension StatementArguments: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
    // `[a, b, c]` is the common way to pass arguments: convert the array's
    // elements where they are, without copying them first.
    var failure: String?
    var values: [DatabaseValue] = []
    values.reserveCapacity(elements.count)
    elements.withUnsafeBufferPointer { elements in
      StatementArguments.convertInPlace(elements, failure: &failure) { _, value in values.append(value) }
    }
    self.init()
    self.values = values
    conversionFailure = failure
  }

}

extension DatabaseValueConvertible {
  /// The dynamic type of a value, read from an existential without copying it.
  fileprivate var convertibleType: Any.Type { Self.self }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
    self.init(elements)
  }
}

extension StatementArguments: CustomStringConvertible {
  public var description: String {
    // Named values first, then positional ones, as GRDB prints them (names
    // sorted, where GRDB follows the dictionary's order).
    let positional = values.map { $0.description }
    let named = namedValues.sorted { $0.key < $1.key }.map { "\(String(reflecting: $0.key)): \($0.value)" }
    return "[" + (named + positional).joined(separator: ", ") + "]"
  }
}
