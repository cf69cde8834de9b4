// swift-format-ignore-file: ReplaceForEachWithForLoop
// (a Cursor is not a Sequence: its forEach is the way to iterate it)

// The algorithms of GRDB's Cursor that Sealite did not have yet. As in GRDB,
// the ones that return a cursor are lazy (they pull an element from the base
// cursor only when asked for one), and the ones that return a value or an
// array consume the cursor.

extension Cursor {
  /// True if the cursor has no more elements. Reading it consumes one element.
  ///
  ///     let players = try Player.fetchCursor(db)
  ///     if try players.isEmpty { print("no players") }
  public var isEmpty: Bool {
    get throws { try next() == nil }
  }

  /// A cursor of pairs (n, x), where n counts from zero and x is an element.
  ///
  ///     let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
  ///     while let (index, name) = try names.enumerated().next() { print(index, name) }
  public func enumerated() -> EnumeratedCursor<Self> {
    EnumeratedCursor(base: self)
  }

  /// A cursor that skips the elements while `predicate` holds, then gives all
  /// the others.
  ///
  ///     let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY score")
  ///     let high = scores.drop(while: { $0 < 1000 })
  public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
    DropWhileCursor(base: self, predicate: predicate)
  }

  /// A cursor over the elements up to the first that does not satisfy `predicate`.
  ///
  ///     let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY score")
  ///     let low = scores.prefix(while: { $0 < 1000 })
  public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
    PrefixWhileCursor(base: self, predicate: predicate)
  }

  /// All the remaining elements but the last `n`, in an array. `n` must not be negative.
  ///
  ///     let allButLastTwo = try Int.fetchCursor(db, sql: "SELECT id FROM player").dropLast(2)
  public func dropLast(_ n: Int) throws -> [Element] {
    precondition(n >= 0, "Can't drop a negative number of elements from a cursor")
    if n == 0 { return try Array(self) }
    // A ring of the last n elements read: an element leaves it for the
    // result once n newer ones came.
    var result: [Element] = []
    var ring: [Element] = []
    ring.reserveCapacity(n)
    var oldest = 0
    try forEach { element in
      if ring.count < n {
        ring.append(element)
      } else {
        result.append(ring[oldest])
        ring[oldest] = element
        oldest = (oldest + 1) % n
      }
    }
    return result
  }

  /// All the remaining elements but the last, in an array.
  ///
  ///     let allButLast = try Int.fetchCursor(db, sql: "SELECT id FROM player").dropLast()
  public func dropLast() throws -> [Element] {
    try dropLast(1)
  }

  /// The last `maxLength` elements (or fewer), in an array. `maxLength` must not be negative.
  ///
  ///     let lastThree = try Int.fetchCursor(db, sql: "SELECT id FROM player").suffix(3)
  public func suffix(_ maxLength: Int) throws -> [Element] {
    precondition(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
    if maxLength == 0 { return [] }
    // A ring of the last maxLength elements: memory stays bounded however
    // long the cursor is.
    var ring: [Element] = []
    ring.reserveCapacity(maxLength)
    var oldest = 0
    try forEach { element in
      if ring.count < maxLength {
        ring.append(element)
      } else {
        ring[oldest] = element
        oldest = (oldest + 1) % maxLength
      }
    }
    if oldest == 0 { return ring }
    return Array(ring[oldest...] + ring[..<oldest])
  }

  /// A cursor over the concatenated cursors that `transform` returns for each element.
  ///
  ///     let authors = try Author.fetchCursor(db)
  ///     let books = authors.flatMap { author in
  ///       try Book.fetchCursor(db, sql: "SELECT * FROM book WHERE authorId = ?", arguments: [author.id])
  ///     }
  public func flatMap<SegmentOfResult: Cursor>(
    _ transform: @escaping (Element) throws -> SegmentOfResult
  ) -> FlattenCursor<MapCursor<Self, SegmentOfResult>> {
    map(transform).joined()
  }

  /// A cursor over the concatenated sequences that `transform` returns for each element.
  ///
  ///     let words = try String.fetchCursor(db, sql: "SELECT title FROM book")
  ///       .flatMap { $0.split(separator: " ") }
  public func flatMap<SegmentOfResult: Sequence>(
    _ transform: @escaping (Element) throws -> SegmentOfResult
  ) -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>> {
    flatMap { try AnyCursor(transform($0)) }
  }

  /// The greatest element, as `areInIncreasingOrder` orders them; nil if there is none.
  ///
  ///     let longest = try String.fetchCursor(db, sql: "SELECT name FROM player")
  ///       .max(by: { $0.count < $1.count })
  public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
    guard var result = try next() else { return nil }
    try forEach { if try areInIncreasingOrder(result, $0) { result = $0 } }
    return result
  }

  /// The least element, as `areInIncreasingOrder` orders them; nil if there is none.
  ///
  ///     let shortest = try String.fetchCursor(db, sql: "SELECT name FROM player")
  ///       .min(by: { $0.count < $1.count })
  public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
    guard var result = try next() else { return nil }
    try forEach { if try areInIncreasingOrder($0, result) { result = $0 } }
    return result
  }
}

extension Cursor where Element: Comparable {
  /// The greatest element; nil if there is none.
  ///
  ///     let best = try Int.fetchCursor(db, sql: "SELECT score FROM player").max()
  public func max() throws -> Element? {
    try max(by: <)
  }

  /// The least element; nil if there is none.
  ///
  ///     let worst = try Int.fetchCursor(db, sql: "SELECT score FROM player").min()
  public func min() throws -> Element? {
    try min(by: <)
  }
}

extension Cursor where Element: Cursor {
  /// A cursor over the elements of each cursor element, one after the other.
  ///
  ///     let cursors = AnyCursor([AnyCursor([1, 2]), AnyCursor([3])])
  ///     let numbers = try Array(cursors.joined())  // [1, 2, 3]
  public func joined() -> FlattenCursor<Self> {
    FlattenCursor(base: self)
  }
}

extension Cursor where Element: Sequence {
  /// A cursor over the elements of each sequence element, one after the other.
  ///
  ///     let arrays = AnyCursor([[1, 2], [3]])
  ///     let numbers = try Array(arrays.joined())  // [1, 2, 3]
  public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
    flatMap { $0 }
  }
}

extension Cursor where Element: StringProtocol {
  /// The elements, concatenated with `separator` between them.
  ///
  ///     let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
  ///     let list = try names.joined(separator: ", ")  // "Arthur, Barbara"
  public func joined(separator: String = "") throws -> String {
    var result = ""
    guard let first = try next() else { return result }
    result.append(contentsOf: first)
    try forEach { element in
      result.append(separator)
      result.append(contentsOf: element)
    }
    return result
  }
}

extension Sequence {
  /// A cursor over the concatenated cursors that `transform` returns for each
  /// element of the sequence, made one at a time as the cursor moves.
  ///
  ///     let books = [1, 2].flatMap { authorId in
  ///       try Book.fetchCursor(db, sql: "SELECT * FROM book WHERE authorId = ?", arguments: [authorId])
  ///     }
  public func flatMap<SegmentOfResult: Cursor>(
    _ transform: @escaping (Element) throws -> SegmentOfResult
  ) -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>> {
    AnyCursor(self).flatMap(transform)
  }
}

/// A cursor of pairs (n, x), where n counts from zero. See ``Cursor/enumerated()``.
///
///     let pairs = AnyCursor(["a", "b"]).enumerated()
///     try pairs.next()  // (0, "a")
public final class EnumeratedCursor<Base: Cursor>: Cursor {
  private let base: Base
  private var index = 0
  init(base: Base) {
    self.base = base
  }
  public func next() throws -> (Int, Base.Element)? {
    guard let element = try base.next() else { return nil }
    defer { index += 1 }
    return (index, element)
  }
  /// Counts the elements of the base cursor's `forEach`, which may be faster
  /// than its `next()` (database cursors).
  public func forEach(_ body: ((Int, Base.Element)) throws -> Void) throws {
    try base.forEach { element in
      defer { index += 1 }
      try body((index, element))
    }
  }
}

@available(*, unavailable)
extension EnumeratedCursor: Sendable {}

/// A cursor that skips elements while a predicate holds. See ``Cursor/drop(while:)``.
///
///     let cursor = AnyCursor([1, 2, 3, 1]).drop(while: { $0 < 2 })
///     try Array(cursor)  // [2, 3, 1]
public final class DropWhileCursor<Base: Cursor>: Cursor {
  private let base: Base
  private let predicate: (Base.Element) throws -> Bool
  private var predicateHasFailed = false
  init(base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
    self.base = base
    self.predicate = predicate
  }
  public func next() throws -> Base.Element? {
    if predicateHasFailed { return try base.next() }
    while let element = try base.next() {
      if try !predicate(element) {
        predicateHasFailed = true
        return element
      }
    }
    return nil
  }
}

@available(*, unavailable)
extension DropWhileCursor: Sendable {}

/// A cursor over the first elements that satisfy a predicate. See ``Cursor/prefix(while:)``.
///
///     let cursor = AnyCursor([1, 2, 3, 1]).prefix(while: { $0 < 3 })
///     try Array(cursor)  // [1, 2]
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
  private let base: Base
  private let predicate: (Base.Element) throws -> Bool
  private var predicateHasFailed = false
  init(base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
    self.base = base
    self.predicate = predicate
  }
  public func next() throws -> Base.Element? {
    // Once an element failed, the base is not read again: it is left where
    // the prefix ended.
    guard !predicateHasFailed, let element = try base.next() else { return nil }
    if try predicate(element) { return element }
    predicateHasFailed = true
    return nil
  }
}

@available(*, unavailable)
extension PrefixWhileCursor: Sendable {}

/// A cursor over the elements of cursors, one cursor after the other, made
/// by the `joined()` and `flatMap(_:)` of cursors.
///
///     let cursor = AnyCursor([AnyCursor([1, 2]), AnyCursor([3])]).joined()
///     try Array(cursor)  // [1, 2, 3]
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
  private let base: Base
  private var inner: Base.Element?
  init(base: Base) {
    self.base = base
  }
  public func next() throws -> Base.Element.Element? {
    while true {
      if let element = try inner?.next() { return element }
      // The inner cursor is done: it is released before the next one is made.
      inner = nil
      guard let next = try base.next() else { return nil }
      inner = next
    }
  }
}

@available(*, unavailable)
extension FlattenCursor: Sendable {}
