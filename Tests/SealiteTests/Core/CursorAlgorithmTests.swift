// swift-format-ignore-file: ReplaceForEachWithForLoop
// (a Cursor is not a Sequence: its forEach is the API under test here)

import Sealite
import Testing

/// A cursor over an array that counts the elements pulled from it, and throws
/// instead of giving the element at `failingIndex`.
private final class CountingCursor: Cursor {
  let elements: [Int]
  let failingIndex: Int?
  private(set) var pulled = 0
  private(set) var forEachCalls = 0

  init(_ elements: [Int], failingAt failingIndex: Int? = nil) {
    self.elements = elements
    self.failingIndex = failingIndex
  }

  func next() throws -> Int? {
    guard pulled < elements.count else { return nil }
    if pulled == failingIndex { throw BaseError() }
    defer { pulled += 1 }
    return elements[pulled]
  }

  /// Counts its calls, so that a test sees a wrapping cursor forward its forEach.
  func forEach(_ body: (Int) throws -> Void) throws {
    forEachCalls += 1
    while let element = try next() { try body(element) }
  }
}

private struct BaseError: Error {}
private struct ClosureError: Error {}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
}

/// An in-memory queue with three players.
private func playersQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
        """)
  }
  return dbQueue
}

@Suite("Cursor algorithms")
struct CursorAlgorithmTests {
  // MARK: AnyCursor

  @Test("AnyCursor wraps a cursor, a sequence, an iterator and a closure")
  func anyCursor() throws {
    let base = CountingCursor([1, 2, 3])
    let erased = AnyCursor(base)
    #expect(try erased.next() == 1)
    #expect(base.pulled == 1)
    #expect(try Array(erased) == [2, 3])
    // Array(_:) consumes with forEach: the erased cursor forwards it.
    #expect(base.forEachCalls == 1)
    #expect(try erased.next() == nil)

    #expect(try Array(AnyCursor([1, 2])) == [1, 2])
    #expect(try Array(AnyCursor(iterator: [3, 4].makeIterator())) == [3, 4])
    var n = 0
    let counter = AnyCursor { () -> Int? in
      guard n < 3 else { return nil }
      n += 1
      return n
    }
    #expect(try Array(counter) == [1, 2, 3])
    #expect(try counter.next() == nil)

    #expect(throws: BaseError.self) { try AnyCursor(CountingCursor([1], failingAt: 0)).next() }
    #expect(throws: BaseError.self) { try Array(AnyCursor(CountingCursor([1, 2], failingAt: 1))) }
    #expect(throws: ClosureError.self) { try AnyCursor { () throws -> Int? in throw ClosureError() }.next() }
  }

  // MARK: Lazy cursors

  @Test("enumerated() counts from zero, lazily, with next() and forEach")
  func enumerated() throws {
    let base = CountingCursor([10, 20, 30])
    let cursor = base.enumerated()
    #expect(base.pulled == 0)
    let first = try #require(try cursor.next())
    #expect(first.0 == 0 && first.1 == 10)
    #expect(base.pulled == 1)
    var rest: [(Int, Int)] = []
    try cursor.forEach { rest.append($0) }
    #expect(rest.map(\.0) == [1, 2])
    #expect(rest.map(\.1) == [20, 30])
    #expect(base.forEachCalls == 1)
    #expect(throws: BaseError.self) { try Array(CountingCursor([1, 2], failingAt: 1).enumerated()) }
  }

  @Test("drop(while:) skips while the predicate holds, then gives every element")
  func dropWhile() throws {
    let base = CountingCursor([1, 2, 3, 1, 5])
    let cursor = base.drop(while: { $0 < 3 })
    #expect(base.pulled == 0)
    #expect(try cursor.next() == 3)
    #expect(base.pulled == 3)
    // The predicate is not asked again once it failed.
    #expect(try Array(cursor) == [1, 5])
    #expect(try Array(CountingCursor([1, 2]).drop(while: { _ in true })) == [])
    #expect(throws: BaseError.self) {
      try CountingCursor([1, 2], failingAt: 1).drop(while: { $0 < 5 }).next()
    }
    #expect(throws: ClosureError.self) {
      try CountingCursor([1]).drop(while: { _ in throw ClosureError() }).next()
    }
  }

  @Test("prefix(while:) stops at the first element that fails, and leaves the base there")
  func prefixWhile() throws {
    let base = CountingCursor([1, 2, 3, 1])
    let cursor = base.prefix(while: { $0 < 3 })
    #expect(base.pulled == 0)
    #expect(try cursor.next() == 1)
    #expect(base.pulled == 1)
    #expect(try Array(cursor) == [2])
    #expect(base.pulled == 3)
    #expect(try cursor.next() == nil)
    #expect(base.pulled == 3)
    #expect(try base.next() == 1)
    #expect(throws: BaseError.self) {
      try Array(CountingCursor([1, 2], failingAt: 1).prefix(while: { _ in true }))
    }
    #expect(throws: ClosureError.self) {
      try CountingCursor([1]).prefix(while: { _ in throw ClosureError() }).next()
    }
  }

  @Test("joined() flattens cursors and sequences lazily; flatMap maps then flattens")
  func joinedAndFlatMap() throws {
    let inner1 = CountingCursor([1, 2])
    let inner2 = CountingCursor([3])
    let outer = AnyCursor([inner1, CountingCursor([]), inner2])
    let flat = outer.joined()
    #expect(try flat.next() == 1)
    #expect(inner1.pulled == 1)
    #expect(inner2.pulled == 0)
    #expect(try Array(flat) == [2, 3])
    #expect(try flat.next() == nil)

    #expect(try Array(AnyCursor([[1, 2], [], [3]]).joined()) == [1, 2, 3])

    var made = 0
    let mapped = CountingCursor([1, 2, 3]).flatMap { n -> CountingCursor in
      made += 1
      return CountingCursor(Array(repeating: n, count: n))
    }
    #expect(try mapped.next() == 1)
    #expect(made == 1)
    #expect(try Array(mapped) == [2, 2, 3, 3, 3])
    #expect(try Array(CountingCursor([1, 2]).flatMap { [$0, $0 * 10] }) == [1, 10, 2, 20])
    // Sequence.flatMap to cursors gives a cursor.
    let fromSequence: FlattenCursor<MapCursor<AnyCursor<Int>, CountingCursor>> = [1, 2].flatMap {
      CountingCursor([$0, -$0])
    }
    #expect(try Array(fromSequence) == [1, -1, 2, -2])

    #expect(throws: BaseError.self) { try Array(CountingCursor([1, 2], failingAt: 1).flatMap { [$0] }) }
    #expect(throws: BaseError.self) { try Array(AnyCursor([CountingCursor([1, 2], failingAt: 1)]).joined()) }
    #expect(throws: ClosureError.self) {
      try CountingCursor([1]).flatMap { _ throws -> [Int] in throw ClosureError() }.next()
    }
  }

  @Test("map, filter and compactMap forward the base cursor's forEach")
  func forwardedForEach() throws {
    let mapped = CountingCursor([1, 2, 3])
    #expect(try Array(mapped.map { $0 * 2 }) == [2, 4, 6])
    #expect(mapped.forEachCalls == 1)
    let filtered = CountingCursor([1, 2, 3])
    #expect(try Array(filtered.filter { $0 != 2 }) == [1, 3])
    #expect(filtered.forEachCalls == 1)
    let compacted = CountingCursor([1, 2, 3])
    #expect(try Array(compacted.compactMap { $0 == 2 ? nil : $0 }) == [1, 3])
    #expect(compacted.forEachCalls == 1)
    #expect(throws: ClosureError.self) {
      try Array(CountingCursor([1]).map { _ throws -> Int in throw ClosureError() })
    }
    #expect(throws: BaseError.self) { try Array(CountingCursor([1, 2], failingAt: 1).filter { _ in true }) }
  }

  // MARK: Consuming algorithms

  @Test("max, min, max(by:), min(by:) read the whole cursor")
  func maxMin() throws {
    #expect(try CountingCursor([3, 1, 4, 1, 5, 2]).max() == 5)
    #expect(try CountingCursor([3, 1, 4, 1, 5, 2]).min() == 1)
    #expect(try CountingCursor([]).max() == nil)
    #expect(try CountingCursor([]).min() == nil)
    #expect(try AnyCursor(["bb", "a", "ccc"]).max(by: { $0.count < $1.count }) == "ccc")
    #expect(try AnyCursor(["bb", "a", "ccc"]).min(by: { $0.count < $1.count }) == "a")
    #expect(throws: BaseError.self) { try CountingCursor([1, 2], failingAt: 1).max() }
    #expect(throws: ClosureError.self) {
      try CountingCursor([1, 2]).min(by: { _, _ in throw ClosureError() })
    }
  }

  @Test("contains(_:) and contains(where:) stop at the first match")
  func contains() throws {
    let base = CountingCursor([1, 2, 3, 4])
    #expect(try base.contains(2))
    #expect(base.pulled == 2)
    #expect(try base.contains(where: { $0 == 4 }))
    #expect(base.pulled == 4)
    #expect(try !CountingCursor([1]).contains(9))
    #expect(throws: BaseError.self) { try CountingCursor([1, 2], failingAt: 1).contains(2) }
    #expect(throws: ClosureError.self) {
      try CountingCursor([1]).contains(where: { _ in throw ClosureError() })
    }
  }

  @Test("isEmpty reads one element")
  func isEmpty() throws {
    let base = CountingCursor([1, 2])
    #expect(try !base.isEmpty)
    #expect(base.pulled == 1)
    #expect(try CountingCursor([]).isEmpty)
    #expect(throws: BaseError.self) { try CountingCursor([1], failingAt: 0).isEmpty }
  }

  @Test("dropLast and suffix keep a bounded ring of the last elements", arguments: 0...6)
  func dropLastSuffix(n: Int) throws {
    let elements = [1, 2, 3, 4, 5]
    #expect(try CountingCursor(elements).dropLast(n) == Array(elements.dropLast(n)))
    #expect(try CountingCursor(elements).suffix(n) == Array(elements.suffix(n)))
  }

  @Test("dropLast() drops one element; dropLast and suffix propagate errors")
  func dropLastErrors() throws {
    #expect(try CountingCursor([1, 2, 3]).dropLast() == [1, 2])
    #expect(try CountingCursor([]).dropLast() == [])
    #expect(throws: BaseError.self) { try CountingCursor([1, 2, 3], failingAt: 2).dropLast(1) }
    #expect(throws: BaseError.self) { try CountingCursor([1, 2, 3], failingAt: 2).suffix(1) }
  }

  @Test("reduce(into:) accumulates in place")
  func reduceInto() throws {
    #expect(try CountingCursor([1, 2, 3]).reduce(into: 0) { $0 += $1 } == 6)
    #expect(throws: ClosureError.self) {
      try CountingCursor([1]).reduce(into: 0) { _, _ in throw ClosureError() }
    }
  }

  @Test("joined(separator:) concatenates strings")
  func joinedStrings() throws {
    #expect(try AnyCursor(["a", "b", "c"]).joined(separator: ", ") == "a, b, c")
    #expect(try AnyCursor(["a", "b"]).joined(separator: "") == "ab")
    #expect(try AnyCursor(["a" as Substring, "b"]).joined(separator: "-") == "a-b")
    #expect(try AnyCursor([String]()).joined(separator: ", ") == "")
    let dbQueue = try playersQueue()
    try dbQueue.read { db in
      let names = try String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
      #expect(try names.joined(separator: ", ") == "Arthur, Barbara, Craig")
    }
  }

  // MARK: Collections

  @Test("Arrays, sets and dictionaries are built from cursors")
  func collections() throws {
    #expect(try ContiguousArray(CountingCursor([1, 2])) == [1, 2])
    #expect(try [Int](CountingCursor([1, 2]), minimumCapacity: 10) == [1, 2])
    #expect(try Set(CountingCursor([1, 1, 2])) == [1, 2])
    #expect(try Set(CountingCursor([1, 2]), minimumCapacity: 10) == [1, 2])
    #expect(try Set([1, 5]).union(CountingCursor([1, 2])) == [1, 2, 5])
    #expect(try Set([1, 5]).intersection(CountingCursor([1, 2])) == [1])
    #expect(
      try Dictionary(grouping: CountingCursor([1, 2, 3, 4]), by: { $0 % 2 }) == [0: [2, 4], 1: [1, 3]])
    #expect(
      try Dictionary(minimumCapacity: 4, grouping: CountingCursor([1, 2, 3]), by: { $0 % 2 }) == [
        0: [2], 1: [1, 3],
      ])
    #expect(
      try Dictionary(uniqueKeysWithValues: CountingCursor([1, 2]).map { ($0, "\($0)") }) == [1: "1", 2: "2"])
    #expect(
      try Dictionary(minimumCapacity: 2, uniqueKeysWithValues: CountingCursor([1]).map { ($0, $0) }) == [1: 1]
    )
    #expect(throws: DatabaseError.self) {
      try Dictionary(uniqueKeysWithValues: CountingCursor([1, 1]).map { ($0, $0) })
    }
    #expect(throws: BaseError.self) { try Set(CountingCursor([1, 2], failingAt: 1)) }
    #expect(throws: ClosureError.self) {
      try Dictionary(grouping: CountingCursor([1]), by: { _ -> Int in throw ClosureError() })
    }
  }

  // MARK: Database cursors

  @Test("Database cursors tell their SQL, arguments, columns and region")
  func databaseCursorMembers() throws {
    let dbQueue = try playersQueue()
    try dbQueue.read { db in
      let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM player WHERE id > ?", arguments: [1])
      #expect(rows.sql == "SELECT id, name FROM player WHERE id > ?")
      #expect(rows.arguments == [1])
      #expect(rows.columnNames == ["id", "name"])
      #expect(rows.columnCount == 2)
      #expect(rows.databaseRegion.description == "player(id,name)")
      #expect(try Array(rows.map { $0["name"] as String }) == ["Barbara", "Craig"])

      let names = try String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
      #expect(names.columnNames == ["name"])
      #expect(names.columnCount == 1)
      #expect(names.arguments == [])
      #expect(try names.next() == "Arthur")
      // Reading the facts does not move the cursor.
      #expect(names.sql == "SELECT name FROM player ORDER BY id")
      #expect(try names.next() == "Barbara")

      let scores = try DatabaseValue.fetchCursor(db, sql: "SELECT id FROM player")
      #expect(scores.columnNames == ["id"])

      let players = try Player.fetchCursor(
        db, sql: "SELECT * FROM player WHERE name = ?", arguments: ["Craig"])
      #expect(players.columnNames == ["id", "name"])
      #expect(players.arguments == ["Craig"])
      #expect(try players.next() == Player(id: 3, name: "Craig"))
    }
  }

  @Test("Statement cursors conform to DatabaseCursor")
  func databaseCursorConformances() throws {
    func sql(_ cursor: some DatabaseCursor) -> String { cursor.sql }
    let dbQueue = try playersQueue()
    try dbQueue.read { db in
      #expect(try sql(Row.fetchCursor(db, sql: "SELECT 1")) == "SELECT 1")
      #expect(try sql(String.fetchCursor(db, sql: "SELECT 'a'")) == "SELECT 'a'")
      #expect(try sql(DatabaseValue.fetchCursor(db, sql: "SELECT 2")) == "SELECT 2")
      #expect(try sql(Player.fetchCursor(db, sql: "SELECT * FROM player")) == "SELECT * FROM player")
      let erased: any DatabaseCursor<Int> = try Int.fetchCursor(db, sql: "SELECT 3")
      #expect(erased.columnCount == 1)
      #expect(try erased.next() == 3)
    }
  }

  @Test("Algorithms on database cursors stay lazy and propagate SQLite errors")
  func databaseCursorAlgorithms() throws {
    let dbQueue = try playersQueue()
    try dbQueue.read { db in
      let ids = try Int64.fetchCursor(db, sql: "SELECT id FROM player ORDER BY id")
      #expect(try Array(ids.enumerated().map { $0.0 }) == [0, 1, 2])
      let players = try Player.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
      #expect(try players.drop(while: { $0.id < 2 }).next()?.name == "Barbara")
      #expect(try Int64.fetchCursor(db, sql: "SELECT id FROM player").max() == 3)
      #expect(try Int64.fetchCursor(db, sql: "SELECT id FROM player").suffix(2) == [2, 3])
      // A row cursor per player, joined.
      let joined = try Int64.fetchCursor(db, sql: "SELECT id FROM player ORDER BY id").flatMap { id in
        try String.fetchCursor(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [id])
      }
      #expect(try joined.joined(separator: " ") == "Arthur Barbara Craig")
      // A runtime error of SQLite comes out of the algorithm.
      let failing = try Int.fetchCursor(db, sql: "SELECT abs(-9223372036854775808) FROM player")
      #expect(throws: DatabaseError.self) { try failing.enumerated().next() }
    }
  }
}
