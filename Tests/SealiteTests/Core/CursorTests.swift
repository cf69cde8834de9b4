import Foundation
import Testing

// @testable: one check calls Row._isReadableLiveRow(), the debug assertion of live rows.
@testable import Sealite

/// The resident set size of this process, in bytes (from /proc/self/statm).
private func residentBytes() throws -> Int {
  let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
  let fields = statm.split(separator: " ")
  let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil)
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A query of one million rows generated on the fly, each an integer and a text.
private let millionRowsSQL = """
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000)
  SELECT x, 'some text ' || x AS t FROM c
  """

/// An in-memory queue whose table `n(x)` holds 1...10.
private func numbersQueue() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE n (x INTEGER);
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10)
        INSERT INTO n SELECT x FROM c;
        """)
  }
  return dbQueue
}

private let numbersSQL = "SELECT x FROM n ORDER BY x"

@Suite("Cursors")
struct CursorTests {
  // MARK: Streaming

  @Test("A cursor streams 1,000,000 rows in constant memory, where fetchAll holds them all")
  func constantMemory() throws {
    let megabyte = 1 << 20
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { db in
      let start = try residentBytes()
      var peak = start
      var count = 0
      var sum = 0
      var textBytes = 0
      let cursor = try Row.fetchCursor(db, sql: millionRowsSQL)
      while let row = try cursor.next() {
        count += 1
        let x: Int = row[0]
        let text: String = row["t"]
        sum += x
        textBytes += text.utf8.count
        if count % 50_000 == 0 { peak = max(peak, try residentBytes()) }
      }
      #expect(count == 1_000_000)
      #expect(sum == 500_000_500_000)
      #expect(textBytes > 10_000_000)

      // The same rows fetched at once are all held in memory: the measure sees it.
      let before = try residentBytes()
      let all = try Row.fetchAll(db, sql: millionRowsSQL)
      let after = try residentBytes()
      #expect(all.count == 1_000_000)
      #expect(all.last == ["x": 1_000_000, "t": "some text 1000000"])
      #expect(
        after - before > 30 * megabyte,
        "fetchAll grew the resident memory by only \((after - before) / megabyte) MB")
      // The resident size is the whole process's, and other tests run meanwhile:
      // the cursor is judged against fetchAll, not against a fixed size.
      #expect(
        (peak - start) * 3 < after - before,
        "the cursor grew the resident memory by \((peak - start) / megabyte) MB, fetchAll by \((after - before) / megabyte) MB"
      )
    }
  }

  // MARK: Iterating once

  @Test("After the end, next() keeps returning nil", arguments: ["row", "int", "optional", "map"])
  func iteratesOnce(kind: String) throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      let next: () throws -> Any?
      switch kind {
      case "row":
        let cursor = try Row.fetchCursor(db, sql: numbersSQL)
        next = { try cursor.next() }
      case "int":
        let cursor = try Int.fetchCursor(db, sql: numbersSQL)
        next = { try cursor.next() }
      case "optional":
        let cursor = try Int?.fetchCursor(db, sql: numbersSQL)
        next = { try cursor.next() as Any? }
      default:
        let cursor = try Int.fetchCursor(db, sql: numbersSQL).map { $0 * 2 }
        next = { try cursor.next() }
      }
      var count = 0
      while try next() != nil { count += 1 }
      #expect(count == 10)
      for _ in 0..<3 { #expect(try next() == nil) }
    }
  }

  @Test(
    "A cursor whose step failed throws again at each next(), as GRDB's do, rather than end",
    arguments: ["row", "int", "record"])
  func failedCursorThrowsAgain(kind: String) throws {
    struct Failure: Error {}
    struct Number: FetchableRecord {
      var value: Int
      init(row: Row) throws { value = row[0] }
    }
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      db.add(
        function: DatabaseFunction("failAtFive", argumentCount: 1, pure: true) { values in
          guard let value = Int.fromDatabaseValue(values[0]), value != 5 else { throw Failure() }
          return value
        })
      let sql = "SELECT failAtFive(x) FROM n"  // in rowid order: 1, 2, 3…
      let next: () throws -> Any?
      switch kind {
      case "row":
        let cursor = try Row.fetchCursor(db, sql: sql)
        next = { try cursor.next() }
      case "int":
        let cursor = try Int.fetchCursor(db, sql: sql)
        next = { try cursor.next() }
      default:
        let cursor = try Number.fetchCursor(db, sql: sql)
        next = { try cursor.next() }
      }
      for _ in 1...4 { #expect(try next() != nil) }
      for _ in 0..<3 {
        let error = #expect(throws: DatabaseError.self) { _ = try next() }
        #expect(error?.sql == sql)
      }
    }
  }

  @Test("A cursor built again from the same SQL starts over")
  func freshCursorStartsOver() throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      let first = try Array(Int.fetchCursor(db, sql: numbersSQL))
      let second = try Array(Int.fetchCursor(db, sql: numbersSQL))
      #expect(first == Array(1...10))
      #expect(second == first)
    }
  }

  // MARK: Outside of the access closure

  @Test("A cursor that escapes its closure throws a misuse error on next()")
  func escapedCursor() throws {
    let dbQueue = try numbersQueue()
    let rows = try dbQueue.read { db in try Row.fetchCursor(db, sql: numbersSQL) }
    let ints = try dbQueue.read { db in try Int.fetchCursor(db, sql: numbersSQL) }
    let optionals = try dbQueue.read { db in try Int?.fetchCursor(db, sql: numbersSQL) }
    let dates = try dbQueue.read { db in try Date?.fetchCursor(db, sql: "SELECT NULL") }
    let started = try dbQueue.read { db in
      let cursor = try String.fetchCursor(db, sql: "SELECT CAST(x AS TEXT) FROM n ORDER BY x")
      #expect(try cursor.next() == "1")
      return cursor
    }
    for next in [
      { _ = try rows.next() }, { _ = try ints.next() }, { _ = try optionals.next() },
      { _ = try dates.next() }, { _ = try started.next() },
    ] as [() throws -> Void] {
      let error = #expect(throws: DatabaseError.self) { try next() }
      #expect(error?.resultCode == .SQLITE_MISUSE)
      #expect(error?.message?.contains("outside") == true)
    }
  }

  @Test("An escaped cursor stays refused inside a later access, which it does not disturb")
  func escapedCursorInLaterAccess() throws {
    let dbQueue = try numbersQueue()
    let escaped = try dbQueue.read { db in
      let cursor = try Int.fetchCursor(db, sql: numbersSQL)
      _ = try cursor.next()
      return cursor
    }
    let values = try dbQueue.read { db in
      let cursor = try Int.fetchCursor(db, sql: numbersSQL)
      #expect(try cursor.next() == 1)
      let error = #expect(throws: DatabaseError.self) { try escaped.next() }
      #expect(error?.resultCode == .SQLITE_MISUSE)
      return try [1] + Array(cursor)
    }
    #expect(values == Array(1...10))
  }

  @Test("A cursor's live row is readable during its access only; its copy is readable anywhere")
  func liveRowReadability() throws {
    let dbQueue = try numbersQueue()
    let (live, copy) = try dbQueue.read { db in
      let cursor = try Row.fetchCursor(db, sql: numbersSQL)
      let row = try #require(try cursor.next())
      #expect(row._isReadableLiveRow())
      return (row, row.copy())
    }
    // What debug builds assert at each read of a live row.
    #expect(!live._isReadableLiveRow())
    #expect(copy._isReadableLiveRow())
    #expect(copy[0] as Int == 1)
  }

  @Test("A cursor that escapes a pool read throws a misuse error on next()")
  func escapedPoolCursor() throws {
    let directory = TemporaryDirectory()
    let dbPool = try DatabasePool(path: directory.path())
    try dbPool.write { db in
      try db.execute(sql: "CREATE TABLE n (x INTEGER); INSERT INTO n VALUES (1), (2)")
    }
    let cursor = try dbPool.read { db in try Row.fetchCursor(db, sql: "SELECT x FROM n") }
    let error = #expect(throws: DatabaseError.self) { try cursor.next() }
    #expect(error?.resultCode == .SQLITE_MISUSE)
    #expect(try dbPool.read { db in try Int.fetchAll(db, sql: "SELECT x FROM n ORDER BY x") } == [1, 2])
  }

  // MARK: Row reuse

  @Test("A row cursor hands out the same Row object, which reads the current row; copy() snapshots it")
  func rowReuse() throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      let cursor = try Row.fetchCursor(db, sql: numbersSQL)
      let first = try #require(try cursor.next())
      let snapshot = first.copy()
      let second = try #require(try cursor.next())
      #expect(first === second)
      let current: Int = first["x"]
      #expect(current == 2)
      #expect(snapshot == ["x": 1])
      #expect(snapshot !== first)
      // fetchAll copies every row.
      let all = try Row.fetchAll(db, sql: numbersSQL)
      #expect(all.map { $0["x"] as? Int64 } == (1...10).map { Int64($0) })
      #expect(all[0] !== all[1])
    }
  }

  // MARK: Cursor algorithms

  @Test("map, filter and compactMap transform lazily")
  func mapFilterCompactMap() throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).map { $0 * 10 }) == (1...10).map { $0 * 10 })
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).filter { $0 % 2 == 0 }) == [2, 4, 6, 8, 10])
      #expect(
        try Array(Int.fetchCursor(db, sql: numbersSQL).compactMap { $0 % 3 == 0 ? "\($0)" : nil })
          == ["3", "6", "9"])
      let rows = try Row.fetchCursor(db, sql: numbersSQL).map { row -> Int in row["x"] }
      #expect(try Array(rows) == Array(1...10))

      // Lazy: the transform runs only for the elements pulled.
      var calls = 0
      let mapped = try Int.fetchCursor(db, sql: numbersSQL).map { value -> Int in
        calls += 1
        return value
      }
      _ = try mapped.next()
      _ = try mapped.next()
      #expect(calls == 2)
    }
  }

  @Test("reduce, forEach, first(where:), contains and allSatisfy consume the cursor")
  func reductions() throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      #expect(try Int.fetchCursor(db, sql: numbersSQL).reduce(0, +) == 55)
      #expect(
        try Int.fetchCursor(db, sql: numbersSQL).reduce(into: [Int]()) { $0.append($1) } == Array(1...10))
      var seen: [Int] = []
      // Cursor.forEach is the API under test (a cursor is not a Sequence).
      // swift-format-ignore: ReplaceForEachWithForLoop
      try Int.fetchCursor(db, sql: numbersSQL).forEach { seen.append($0) }
      #expect(seen == Array(1...10))
      #expect(try Int.fetchCursor(db, sql: numbersSQL).first(where: { $0 > 4 }) == 5)
      #expect(try Int.fetchCursor(db, sql: numbersSQL).first(where: { $0 > 40 }) == nil)
      #expect(try Int.fetchCursor(db, sql: numbersSQL).contains(7))
      #expect(try !Int.fetchCursor(db, sql: numbersSQL).contains(70))
      #expect(try Int.fetchCursor(db, sql: numbersSQL).contains(where: { $0 == 10 }))
      #expect(try Int.fetchCursor(db, sql: numbersSQL).allSatisfy { $0 > 0 })
      #expect(try !Int.fetchCursor(db, sql: numbersSQL).allSatisfy { $0 < 5 })

      // first(where:) stops where it found the element.
      let cursor = try Int.fetchCursor(db, sql: numbersSQL)
      #expect(try cursor.first(where: { $0 == 3 }) == 3)
      #expect(try cursor.next() == 4)

      // forEach rethrows the body's error and stops.
      struct Stop: Error {}
      var visited = 0
      #expect(throws: Stop.self) {
        // swift-format-ignore: ReplaceForEachWithForLoop
        try Int.fetchCursor(db, sql: numbersSQL).forEach { value in
          visited += 1
          if value == 3 { throw Stop() }
        }
      }
      #expect(visited == 3)
    }
  }

  @Test("prefix and dropFirst take and skip elements")
  func prefixAndDropFirst() throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).prefix(3)) == [1, 2, 3])
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).prefix(0)) == [])
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).prefix(50)) == Array(1...10))
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).dropFirst()) == Array(2...10))
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).dropFirst(8)) == [9, 10])
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).dropFirst(20)) == [])
      #expect(try Array(Int.fetchCursor(db, sql: numbersSQL).dropFirst(2).prefix(3)) == [3, 4, 5])
      let limited = try Int.fetchCursor(db, sql: numbersSQL).prefix(2)
      _ = try limited.next()
      _ = try limited.next()
      #expect(try limited.next() == nil)
      #expect(try limited.next() == nil)
    }
  }

  @Test("Array(cursor) and Set(cursor) collect the remaining elements")
  func arrayAndSet() throws {
    let dbQueue = try numbersQueue()
    try dbQueue.read { db in
      let cursor = try Int.fetchCursor(db, sql: numbersSQL)
      _ = try cursor.next()
      #expect(try Array(cursor) == Array(2...10))
      #expect(try Set(Int.fetchCursor(db, sql: "SELECT x % 3 FROM n")) == [0, 1, 2])
      let rows = try Set(Row.fetchCursor(db, sql: "SELECT x % 2 AS r FROM n").map { $0.copy() })
      #expect(rows == [["r": 0], ["r": 1]])
    }
  }

  @Test("An error while stepping is thrown by next() with the SQL")
  func stepError() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { db in
      let sql = "SELECT 1 UNION ALL SELECT abs(-9223372036854775807 - 1)"
      let cursor = try Int.fetchCursor(db, sql: sql)
      #expect(try cursor.next() == 1)
      let error = #expect(throws: DatabaseError.self) { try cursor.next() }
      #expect(error?.message?.contains("integer overflow") == true)
      #expect(error?.sql == sql)
    }
  }

  @Test("A NULL in a non-optional cursor is a decoding error")
  func nullInNonOptionalCursor() throws {
    try DatabaseQueue().read { db in
      let cursor = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT NULL")
      #expect(try cursor.next() == 1)
      #expect(throws: RowDecodingError.self) { try cursor.next() }
      let uuids = try UUID.fetchCursor(db, sql: "SELECT NULL")
      #expect(throws: RowDecodingError.self) { try uuids.next() }
    }
  }

  // MARK: Locks are released when the access ends

  @Test("A half-iterated cursor does not block another connection's later write")
  func halfIteratedCursorReleasesLock() throws {
    let directory = TemporaryDirectory()
    let reader = try DatabaseQueue(path: directory.path())
    try reader.write { db in
      try db.execute(sql: "CREATE TABLE n (x INTEGER); INSERT INTO n VALUES (1), (2), (3)")
    }
    let writer = try DatabaseQueue(path: directory.path())

    // Left half-iterated inside the closure.
    try reader.read { db in
      let cursor = try Int.fetchCursor(db, sql: "SELECT x FROM n")
      #expect(try cursor.next() == 1)
    }
    try writer.write { db in try db.execute(sql: "INSERT INTO n VALUES (4)") }

    // Kept alive after the closure.
    let escaped = try reader.read { db in
      let cursor = try Row.fetchCursor(db, sql: "SELECT x FROM n")
      _ = try cursor.next()
      return cursor
    }
    try writer.write { db in try db.execute(sql: "INSERT INTO n VALUES (5)") }
    #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM n") } == 5)
    #expect(throws: DatabaseError.self) { try escaped.next() }
  }

  @Test("A half-iterated cursor on the same connection does not block its later write")
  func halfIteratedCursorSameConnection() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE n (x INTEGER); INSERT INTO n VALUES (1), (2), (3)")
    }
    let escaped = try dbQueue.read { db in
      let cursor = try Int.fetchCursor(db, sql: "SELECT x FROM n")
      _ = try cursor.next()
      return cursor
    }
    // Dropping a table fails while a statement reading it is still running.
    try dbQueue.write { db in try db.execute(sql: "DROP TABLE n") }
    #expect(throws: DatabaseError.self) { try escaped.next() }
  }

  @Test("A half-iterated cursor in a pool read does not pin an old snapshot")
  func halfIteratedPoolCursor() throws {
    let directory = TemporaryDirectory()
    var configuration = Configuration()
    configuration.maximumReaderCount = 1
    let dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
    try dbPool.write { db in
      try db.execute(sql: "CREATE TABLE n (x INTEGER); INSERT INTO n VALUES (1), (2), (3)")
    }
    let escaped = try dbPool.read { db in
      let cursor = try Int.fetchCursor(db, sql: "SELECT x FROM n")
      _ = try cursor.next()
      return cursor
    }
    try dbPool.write { db in try db.execute(sql: "INSERT INTO n VALUES (4)") }
    // The only reader sees the new row: its old read transaction is over.
    #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM n") } == 4)
    // And no reader holds back a full checkpoint.
    let checkpoint = try dbPool.writeWithoutTransaction { db in
      try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)").first
    }
    let busy: Int? = checkpoint?[0]
    #expect(busy == 0)
    #expect(throws: DatabaseError.self) { try escaped.next() }
  }
}
