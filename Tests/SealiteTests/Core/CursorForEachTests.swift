// swift-format-ignore-file: ReplaceForEachWithForLoop
// (a Cursor is not a Sequence: its forEach is the way to iterate it, and the subject here)

import Foundation
import Sealite
import Testing

/// A cursor over fixed elements whose `forEach` records that it ran: GRDB's
/// cursors override `forEach`, and the builders must reach the override.
private final class CountingCursor<Element>: Cursor {
  private var elements: [Element]
  private(set) var forEachCalls = 0
  private(set) var nextCalls = 0

  init(_ elements: [Element]) {
    self.elements = elements
  }

  func next() throws -> Element? {
    nextCalls += 1
    return elements.isEmpty ? nil : elements.removeFirst()
  }

  func forEach(_ body: (Element) throws -> Void) throws {
    forEachCalls += 1
    while !elements.isEmpty { try body(elements.removeFirst()) }
  }
}

/// Calls the requirement through a generic context, where only a protocol
/// requirement (not an extension method) reaches the override.
private func consume<C: Cursor>(_ cursor: C) throws -> Int {
  var count = 0
  try cursor.forEach { _ in count += 1 }
  return count
}

@Suite("Cursor.forEach is a requirement that the builders use")
struct CursorForEachTests {
  @Test("Generic code calling forEach runs the cursor's own forEach")
  func genericForEach() throws {
    let cursor = CountingCursor([1, 2, 3])
    #expect(try consume(cursor) == 3)
    #expect(cursor.forEachCalls == 1)
    #expect(cursor.nextCalls == 0)
  }

  @Test("Array, ContiguousArray and append(contentsOf:) consume a cursor through its forEach")
  func arrays() throws {
    let cursor = CountingCursor([1, 2, 3])
    #expect(try Array(cursor) == [1, 2, 3])
    #expect(cursor.forEachCalls == 1)
    #expect(cursor.nextCalls == 0)

    let sized = CountingCursor([4, 5])
    #expect(try ContiguousArray(sized, minimumCapacity: 10) == [4, 5])
    #expect(sized.forEachCalls == 1)

    var values = [0]
    let more = CountingCursor([6])
    try values.append(contentsOf: more)
    #expect(values == [0, 6])
    #expect(more.forEachCalls == 1)
  }

  @Test("Set and Dictionary builders consume a cursor through its forEach")
  func setsAndDictionaries() throws {
    let setCursor = CountingCursor([1, 2, 2, 3])
    #expect(try Set(setCursor) == [1, 2, 3])
    #expect(setCursor.forEachCalls == 1)

    let sizedSet = CountingCursor(["a"])
    #expect(try Set(sizedSet, minimumCapacity: 4) == ["a"])
    #expect(sizedSet.forEachCalls == 1)

    let grouped = CountingCursor(["apple", "avocado", "banana"])
    let groups = try Dictionary(grouping: grouped, by: { $0.first! })
    #expect(groups == ["a": ["apple", "avocado"], "b": ["banana"]])
    #expect(grouped.forEachCalls == 1)

    let sizedGroups = CountingCursor([1, 2, 3])
    #expect(
      try Dictionary(minimumCapacity: 2, grouping: sizedGroups, by: { $0 % 2 }) == [1: [1, 3], 0: [2]])
    #expect(sizedGroups.forEachCalls == 1)

    let pairs = CountingCursor([("one", 1), ("two", 2)])
    #expect(try Dictionary(uniqueKeysWithValues: pairs) == ["one": 1, "two": 2])
    #expect(pairs.forEachCalls == 1)

    let sizedPairs = CountingCursor([("three", 3)])
    #expect(try Dictionary(minimumCapacity: 1, uniqueKeysWithValues: sizedPairs) == ["three": 3])
    #expect(sizedPairs.forEachCalls == 1)
  }

  @Test("A key that comes twice in Dictionary(uniqueKeysWithValues:) of a cursor is a thrown misuse error")
  func duplicateKeysThrow() throws {
    let error = try #require(throws: DatabaseError.self) {
      try Dictionary(uniqueKeysWithValues: CountingCursor([("one", 1), ("one", 2)]))
    }
    #expect(error.resultCode == .SQLITE_MISUSE)
    #expect(throws: DatabaseError.self) {
      try Dictionary(minimumCapacity: 4, uniqueKeysWithValues: CountingCursor([(1, "a"), (1, "b")]))
    }
  }

  @Test("Set union and intersection take the remaining elements of a cursor")
  func setAlgebra() throws {
    let base: Set = [1, 2, 3]
    #expect(try base.union(CountingCursor([3, 4])) == [1, 2, 3, 4])
    #expect(try base.intersection(CountingCursor([2, 3, 5])) == [2, 3])
    var formed = base
    try formed.formIntersection(CountingCursor([1]))
    #expect(formed == [1])
  }

  @Test("Database cursors build arrays, sets and dictionaries of their rows and values")
  func databaseCursors() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, kind TEXT)")
      try db.execute(sql: "INSERT INTO t (kind) VALUES ('a'), ('b'), ('a')")
      let ids = try Array(Int.fetchCursor(db, sql: "SELECT id FROM t ORDER BY id"))
      #expect(ids == [1, 2, 3])
      let kinds = try Set(String.fetchCursor(db, sql: "SELECT kind FROM t"))
      #expect(kinds == ["a", "b"])
      let byKind = try Dictionary(
        grouping: Row.fetchCursor(db, sql: "SELECT * FROM t ORDER BY id").map { $0.copy() },
        by: { $0["kind"] as String })
      #expect(byKind["a"]?.map { $0["id"] as Int } == [1, 3])
      let names = try Dictionary(
        uniqueKeysWithValues: Row.fetchCursor(db, sql: "SELECT id, kind FROM t").map {
          ($0["id"] as Int, $0["kind"] as String)
        })
      #expect(names == [1: "a", 2: "b", 3: "a"])
    }
  }
}
