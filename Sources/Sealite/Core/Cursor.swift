// swift-format-ignore-file: ReplaceForEachWithForLoop
// (a Cursor is not a Sequence: its forEach is the way to iterate it, and the subject here)

/// A type that supplies the values of a sequence one at a time, and may throw
/// while doing so: database cursors read one row per call to ``next()``.
///
///     let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
///     while let name = try names.next() { print(name) }
///
/// Cursors are iterated once: after ``next()`` returned nil, it keeps returning nil.
public protocol Cursor<Element>: AnyObject {
  /// The type of the elements.
  associatedtype Element
  /// Advances to the next element and returns it, or nil at the end.
  func next() throws -> Element?

  /// Calls `body` on each remaining element, in order.
  ///
  /// A requirement, so that a cursor can iterate faster than one call to
  /// ``next()`` per element: database cursors check their database access
  /// once, then step. `Array(cursor)`, `Set(cursor)`, `Dictionary(grouping:by:)`
  /// and the other builders consume a cursor through it, as in GRDB.
  func forEach(_ body: (Element) throws -> Void) throws
}

extension Cursor {
  /// Calls `body` on each element, with ``next()``.
  @inlinable
  public func forEach(_ body: (Element) throws -> Void) throws {
    while let element = try next() { try body(element) }
  }

  /// A cursor over the results of `transform` on each element.
  public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
    MapCursor(base: self, transform: transform)
  }

  /// A cursor over the elements that satisfy `isIncluded`.
  public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
    FilterCursor(base: self, isIncluded: isIncluded)
  }

  /// A cursor over the non-nil results of `transform` on each element.
  public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> CompactMapCursor<Self, T> {
    CompactMapCursor(base: self, transform: transform)
  }

  /// Combines the elements, from left to right.
  public func reduce<Result>(_ initialResult: Result, _ nextPartialResult: (Result, Element) throws -> Result)
    throws -> Result
  {
    var result = initialResult
    while let element = try next() { result = try nextPartialResult(result, element) }
    return result
  }

  /// Combines the elements into a mutable result, from left to right.
  public func reduce<Result>(
    into initialResult: Result, _ updateAccumulatingResult: (inout Result, Element) throws -> Void
  )
    throws -> Result
  {
    var result = initialResult
    while let element = try next() { try updateAccumulatingResult(&result, element) }
    return result
  }

  /// The first element that satisfies `predicate`.
  public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
    while let element = try next() {
      if try predicate(element) { return element }
    }
    return nil
  }

  /// True if an element satisfies `predicate`.
  public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
    try first(where: predicate) != nil
  }

  /// True if every element satisfies `predicate`.
  public func allSatisfy(_ predicate: (Element) throws -> Bool) throws -> Bool {
    while let element = try next() { if try !predicate(element) { return false } }
    return true
  }

  /// A cursor over at most the first `maxLength` elements.
  public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
    PrefixCursor(base: self, remaining: maxLength)
  }

  /// A cursor that skips the first `k` elements.
  public func dropFirst(_ k: Int) -> DropFirstCursor<Self> {
    DropFirstCursor(base: self, toDrop: k)
  }

  /// A cursor that skips the first element: empty if the cursor has one
  /// element or none.
  ///
  ///     let allButFirst = try Int.fetchCursor(db, sql: "SELECT id FROM player ORDER BY id").dropFirst()
  public func dropFirst() -> DropFirstCursor<Self> {
    dropFirst(1)
  }
}

extension Cursor where Element: Equatable {
  /// True if the cursor contains `element`.
  public func contains(_ element: Element) throws -> Bool {
    try contains(where: { $0 == element })
  }
}

/// A cursor over transformed elements. See ``Cursor/map(_:)``.
public final class MapCursor<Base: Cursor, Element>: Cursor {
  let base: Base
  let transform: (Base.Element) throws -> Element
  init(base: Base, transform: @escaping (Base.Element) throws -> Element) {
    self.base = base
    self.transform = transform
  }
  public func next() throws -> Element? {
    try base.next().map(transform)
  }
  /// Transforms the elements of the base cursor's `forEach`, so that
  /// `Array(cursor.map { … })` keeps a database cursor's faster loop.
  public func forEach(_ body: (Element) throws -> Void) throws {
    try base.forEach { try body(transform($0)) }
  }
}

// Mutable classes, with closures that need not be Sendable: as in GRDB, the
// wrapping cursors are explicitly not Sendable.
@available(*, unavailable)
extension MapCursor: Sendable {}

/// A cursor over filtered elements. See ``Cursor/filter(_:)``.
public final class FilterCursor<Base: Cursor>: Cursor {
  let base: Base
  let isIncluded: (Base.Element) throws -> Bool
  init(base: Base, isIncluded: @escaping (Base.Element) throws -> Bool) {
    self.base = base
    self.isIncluded = isIncluded
  }
  public func next() throws -> Base.Element? {
    while let element = try base.next() {
      if try isIncluded(element) { return element }
    }
    return nil
  }
  /// Filters the elements of the base cursor's `forEach` (see ``MapCursor/forEach(_:)``).
  public func forEach(_ body: (Base.Element) throws -> Void) throws {
    try base.forEach { if try isIncluded($0) { try body($0) } }
  }
}

@available(*, unavailable)
extension FilterCursor: Sendable {}

/// A cursor over non-nil transformed elements. See ``Cursor/compactMap(_:)``.
public final class CompactMapCursor<Base: Cursor, Element>: Cursor {
  let base: Base
  let transform: (Base.Element) throws -> Element?
  init(base: Base, transform: @escaping (Base.Element) throws -> Element?) {
    self.base = base
    self.transform = transform
  }
  public func next() throws -> Element? {
    while let element = try base.next() {
      if let transformed = try transform(element) { return transformed }
    }
    return nil
  }
  /// Transforms the elements of the base cursor's `forEach` (see ``MapCursor/forEach(_:)``).
  public func forEach(_ body: (Element) throws -> Void) throws {
    try base.forEach { if let transformed = try transform($0) { try body(transformed) } }
  }
}

@available(*, unavailable)
extension CompactMapCursor: Sendable {}

/// A cursor over the first elements of another. See ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
  let base: Base
  var remaining: Int
  init(base: Base, remaining: Int) {
    self.base = base
    self.remaining = remaining
  }
  public func next() throws -> Base.Element? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    return try base.next()
  }
}

@available(*, unavailable)
extension PrefixCursor: Sendable {}

/// A cursor that skips the first elements of another. See ``Cursor/dropFirst(_:)``.
public final class DropFirstCursor<Base: Cursor>: Cursor {
  let base: Base
  var toDrop: Int
  init(base: Base, toDrop: Int) {
    self.base = base
    self.toDrop = toDrop
  }
  public func next() throws -> Base.Element? {
    while toDrop > 0 {
      toDrop -= 1
      guard try base.next() != nil else { return nil }
    }
    return try base.next()
  }
}

@available(*, unavailable)
extension DropFirstCursor: Sendable {}

// The builders are inlinable, so that the loop is specialized where the
// element type is known: in generic code, each append of a record would go
// through value witnesses. They consume the cursor with `forEach`, as GRDB's do.

extension RangeReplaceableCollection {
  /// Creates a collection with the remaining elements of a cursor.
  @inlinable
  public init(_ cursor: some Cursor<Element>) throws {
    self.init()
    try append(contentsOf: cursor)
  }

  /// Creates a collection with the remaining elements of a cursor, with room
  /// for at least `minimumCapacity` elements.
  @inlinable
  public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
    self.init()
    reserveCapacity(minimumCapacity)
    try append(contentsOf: cursor)
  }

  /// Appends the remaining elements of a cursor.
  @inlinable
  public mutating func append(contentsOf newElements: some Cursor<Element>) throws {
    try newElements.forEach { append($0) }
  }
}

extension Dictionary {
  /// Creates a dictionary of the remaining elements of a cursor, grouped by
  /// the keys `keyForValue` returns.
  @inlinable
  public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
  where Value == [C.Element] {
    self.init()
    try cursor.forEach { try self[keyForValue($0), default: []].append($0) }
  }

  /// Creates a dictionary of the remaining elements of a cursor, grouped by
  /// the keys `keyForValue` returns, with room for `minimumCapacity` keys.
  @inlinable
  public init<C: Cursor>(minimumCapacity: Int, grouping cursor: C, by keyForValue: (C.Element) throws -> Key)
    throws
  where Value == [C.Element] {
    self.init(minimumCapacity: minimumCapacity)
    try cursor.forEach { try self[keyForValue($0), default: []].append($0) }
  }

  /// Creates a dictionary from the remaining (key, value) pairs of a cursor.
  /// Throws a misuse error if a key comes twice (where
  /// `Dictionary(uniqueKeysWithValues:)` of a sequence stops the program): a
  /// duplicate usually comes from the database, not from the program.
  public init(uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
    try self.init(minimumCapacity: 0, uniqueKeysWithValues: keysAndValues)
  }

  /// Creates a dictionary from the remaining (key, value) pairs of a cursor,
  /// with room for `minimumCapacity` keys. Throws a misuse error if a key
  /// comes twice.
  public init(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
    self.init(minimumCapacity: minimumCapacity)
    try keysAndValues.forEach { key, value in
      if self.updateValue(value, forKey: key) != nil {
        throw DatabaseError.misuse("duplicate values for key: '\(key)'")
      }
    }
  }
}

extension Set {
  /// Creates a set with the remaining elements of a cursor.
  @inlinable
  public init(_ cursor: some Cursor<Element>) throws {
    self.init()
    try cursor.forEach { insert($0) }
  }

  /// Creates a set with the remaining elements of a cursor, with room for at
  /// least `minimumCapacity` elements.
  @inlinable
  public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
    self.init(minimumCapacity: minimumCapacity)
    try cursor.forEach { insert($0) }
  }

  /// The set with the remaining elements of a cursor added.
  @inlinable
  public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
    var result = self
    try result.formUnion(cursor)
    return result
  }

  /// Adds the remaining elements of a cursor.
  @inlinable
  public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
    while let element = try cursor.next() { insert(element) }
  }

  /// The elements of the set that the cursor also gives.
  @inlinable
  public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
    var result = self
    try result.formIntersection(cursor)
    return result
  }

  /// Keeps only the elements that the cursor also gives.
  @inlinable
  public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
    formIntersection(try Set(cursor))
  }
}
