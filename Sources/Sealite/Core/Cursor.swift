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
}

extension Cursor {
  /// Calls `body` on each element.
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
  public func dropFirst(_ k: Int = 1) -> DropFirstCursor<Self> {
    DropFirstCursor(base: self, toDrop: k)
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
}

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
}

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
}

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

// Inlinable, so that the loop is specialized where the element type is known:
// in generic code, each append of a record would go through value witnesses.
extension Array {
  /// Creates an array with the remaining elements of a cursor.
  @inlinable
  public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
    self.init()
    while let element = try cursor.next() { append(element) }
  }
}

extension Set {
  /// Creates a set with the remaining elements of a cursor.
  @inlinable
  public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
    self.init()
    while let element = try cursor.next() { insert(element) }
  }
}
