import Foundation
import Sealite
import Testing

// A statement keeps the decoding of its record cursors (the decoder, its
// keyed container, and the column each coding key reads) for its next cursor
// of the same record type. These tests pin what that must never change: each
// run reads its own rows, each record type its own columns, an adapter its own
// layout, and a statement whose cursors ended is freed.

/// Reads `b` then `a`: the order its keys are asked in is recorded.
private struct BeforeAfter: Decodable, FetchableRecord, Equatable {
  var b: Int
  var a: Int
}

/// Reads only `c`, a column the other record does not read.
private struct OnlyC: Decodable, FetchableRecord, Equatable {
  var c: String
}

@Suite("Record cursors of one statement share their decoding, not their results")
struct RecordCursorDecodingReuseTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c TEXT)")
      for id in 1...6 {
        try db.execute(
          sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [id, id * 10, id * 100, "c\(id)"])
      }
    }
    return dbQueue
  }

  private let sql = "SELECT a, b, c FROM t WHERE id > ? ORDER BY id LIMIT 2"

  @Test("Each run of a cached statement decodes the rows of that run")
  func eachRunReadsItsRows() throws {
    let dbQueue = try makeQueue()
    try dbQueue.read { db in
      for start in [0, 3, 1, 4] {
        let records = try BeforeAfter.fetchAll(db, sql: sql, arguments: [start])
        #expect(records == [(start + 1), (start + 2)].map { BeforeAfter(b: $0 * 100, a: $0 * 10) })
      }
      // A cursor left before its end, then the next run from its first row.
      let cursor = try BeforeAfter.fetchCursor(db, sql: sql, arguments: [2])
      #expect(try cursor.next() == BeforeAfter(b: 300, a: 30))
      #expect(try BeforeAfter.fetchOne(db, sql: sql, arguments: [5]) == BeforeAfter(b: 600, a: 60))
    }
  }

  @Test("Record types that take turns on one statement each read their own columns")
  func recordTypesTakeTurns() throws {
    let dbQueue = try makeQueue()
    try dbQueue.read { db in
      let statement = try db.cachedStatement(sql: sql)
      for start in [0, 2, 4] {
        let pairs = try BeforeAfter.fetchAll(statement, arguments: [start])
        let texts = try OnlyC.fetchAll(statement, arguments: [start])
        #expect(pairs == [(start + 1), (start + 2)].map { BeforeAfter(b: $0 * 100, a: $0 * 10) })
        #expect(texts == [(start + 1), (start + 2)].map { OnlyC(c: "c\($0)") })
      }
    }
  }

  @Test("An adapter's cursor of the statement reads its own columns, before and after plain ones")
  func adapterKeepsItsLayout() throws {
    let dbQueue = try makeQueue()
    try dbQueue.read { db in
      let statement = try db.cachedStatement(sql: sql)
      let swapped = ColumnMapping(["a": "b", "b": "a"])
      let plain = BeforeAfter(b: 100, a: 10)
      let adapted = BeforeAfter(b: 10, a: 100)
      #expect(try BeforeAfter.fetchAll(statement, arguments: [0]).first == plain)
      #expect(try BeforeAfter.fetchAll(statement, arguments: [0], adapter: swapped).first == adapted)
      #expect(try BeforeAfter.fetchAll(statement, arguments: [0]).first == plain)
      #expect(try BeforeAfter.fetchAll(statement, arguments: [0], adapter: swapped).first == adapted)
    }
  }

  @Test("A statement whose record cursors ended, or were dropped early, is freed")
  func statementIsFreed() throws {
    let dbQueue = try makeQueue()
    weak var weakStatement: Statement?
    try dbQueue.read { db in
      let statement = try db.makeStatement(sql: sql)
      weakStatement = statement
      #expect(try BeforeAfter.fetchAll(statement, arguments: [0]).count == 2)
      let cursor = try BeforeAfter.fetchCursor(statement, arguments: [0])
      #expect(try cursor.next() != nil)
    }
    // The kept decoder read the cursors' rows, which keep their statement
    // alive: it must have let go of them.
    #expect(weakStatement == nil)
  }
}
