/// A type-erased cursor: it forwards ``next()`` and ``forEach(_:)`` to a
/// cursor, a sequence, an iterator or a closure.
///
///     func scores(_ db: Database) throws -> AnyCursor<Int> {
///       try AnyCursor(Int.fetchCursor(db, sql: "SELECT score FROM player"))
///     }
///     let letters = AnyCursor(["a", "b"])
public final class AnyCursor<Element>: Cursor {
  private let nextElement: () throws -> Element?
  // Kept apart from `nextElement`, so that the base cursor's own loop (a
  // database cursor's) runs when the erased cursor is consumed with forEach.
  private let forEachElement: ((Element) throws -> Void) throws -> Void

  /// Creates a cursor that wraps `base`.
  ///
  ///     let cursor = try AnyCursor(String.fetchCursor(db, sql: "SELECT name FROM player"))
  public init<C: Cursor>(_ base: C) where C.Element == Element {
    nextElement = base.next
    forEachElement = base.forEach
  }

  /// Creates a cursor over the elements an iterator gives.
  ///
  ///     let cursor = AnyCursor(iterator: [1, 2, 3].makeIterator())
  public convenience init(iterator: some IteratorProtocol<Element>) {
    var iterator = iterator
    self.init { iterator.next() }
  }

  /// Creates a cursor over the elements of a sequence.
  ///
  ///     let cursor = AnyCursor([1, 2, 3])
  public convenience init(_ sequence: some Sequence<Element>) {
    self.init(iterator: sequence.makeIterator())
  }

  /// Creates a cursor whose ``next()`` calls `next`; it must keep returning
  /// nil once it returned nil.
  ///
  ///     var n = 0
  ///     let cursor = AnyCursor { () -> Int? in
  ///       guard n < 3 else { return nil }
  ///       n += 1
  ///       return n
  ///     }
  public init(_ next: @escaping () throws -> Element?) {
    nextElement = next
    forEachElement = { body in
      while let element = try next() { try body(element) }
    }
  }

  /// The next element of the wrapped cursor, sequence, iterator or closure.
  public func next() throws -> Element? {
    try nextElement()
  }

  /// Calls `body` on each remaining element, with the wrapped cursor's own `forEach`.
  public func forEach(_ body: (Element) throws -> Void) throws {
    try forEachElement(body)
  }
}

// As in GRDB: an erased cursor may wrap a cursor that is not Sendable (all
// database cursors), so it is not Sendable.
@available(*, unavailable)
extension AnyCursor: Sendable {}
