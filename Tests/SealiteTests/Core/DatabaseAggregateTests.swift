import Foundation
import Sealite
import Testing

/// Sums integers; NULL for a group of no integer.
private struct IntegerSum: DatabaseAggregate {
  var sum: Int?
  mutating func step(_ values: [DatabaseValue]) {
    if let int = Int.fromDatabaseValue(values[0]) { sum = (sum ?? 0) + int }
  }
  func finalize() -> (any DatabaseValueConvertible)? { sum }
}

/// The number of steps and of values of each: proves a fresh instance per group.
private struct StepCount: DatabaseAggregate {
  var steps = 0
  var values = 0
  mutating func step(_ values: [DatabaseValue]) {
    steps += 1
    self.values += values.count
  }
  func finalize() -> (any DatabaseValueConvertible)? { "\(steps)/\(values)" }
}

/// Throws the error its first argument names, in step or in finalize.
private struct Failing: DatabaseAggregate {
  var failure: String?
  mutating func step(_ values: [DatabaseValue]) throws {
    let name = String.fromDatabaseValue(values[0])
    if name == "finalize" {
      failure = String.fromDatabaseValue(values[1])
    } else {
      try Failing.throwError(values[1])
    }
  }
  func finalize() throws -> (any DatabaseValueConvertible)? {
    if let failure { try Failing.throwError(failure.databaseValue) }
    return "done"
  }
  static func throwError(_ kind: DatabaseValue) throws {
    switch String.fromDatabaseValue(kind) {
    case "message": throw DatabaseError(message: "custom message")
    case "code": throw DatabaseError(resultCode: ResultCode(rawValue: 123))
    case "both": throw DatabaseError(resultCode: ResultCode(rawValue: 123), message: "custom message")
    default: throw AggregateRefusal()
    }
  }
}

private struct AggregateRefusal: Error, CustomStringConvertible {
  var description: String { "refused by the aggregate" }
}

/// The aggregates alive, to check that SQLite's groups release them.
private let liveTrackedAggregates = Locked(0)

private final class AggregateTracker: Sendable {
  init() { liveTrackedAggregates.withLock { $0 += 1 } }
  deinit { liveTrackedAggregates.withLock { $0 -= 1 } }
}

/// Counts its rows; throws in step or finalize on request.
private struct Tracked: DatabaseAggregate {
  let tracker = AggregateTracker()
  var count = 0
  var failsAtFinalize = false
  mutating func step(_ values: [DatabaseValue]) throws {
    switch String.fromDatabaseValue(values[0]) {
    case "step": throw AggregateRefusal()
    case "finalize": failsAtFinalize = true
    default: count += 1
    }
  }
  func finalize() throws -> (any DatabaseValueConvertible)? {
    if failsAtFinalize { throw AggregateRefusal() }
    return count
  }
}

private struct AggregatePlayer: TableRecord {
  static let databaseTableName = "player"
}

@Suite("Custom SQL aggregates")
struct DatabaseAggregateTests {
  private func makeQueue(_ functions: DatabaseFunction...) throws -> DatabaseQueue {
    let queue = try DatabaseQueue()
    try queue.write { db throws in
      for function in functions { db.add(function: function) }
      try db.execute(
        sql: """
          CREATE TABLE player(id INTEGER PRIMARY KEY, team TEXT, score INTEGER);
          INSERT INTO player(team, score) VALUES ('red', 1), ('red', 2), ('blue', 10), ('blue', NULL), ('green', NULL);
          """)
    }
    return queue
  }

  @Test("An aggregate sums the whole table, each group of a GROUP BY, and no row at all")
  func aggregation() throws {
    let sum = DatabaseFunction("integerSum", argumentCount: 1, pure: true, aggregate: IntegerSum.self)
    #expect(sum.name == "integerSum")
    try makeQueue(sum).read { db throws in
      #expect(try Int.fetchOne(db, sql: "SELECT integerSum(score) FROM player") == 13)
      let rows = try Row.fetchAll(
        db, sql: "SELECT team, integerSum(score) AS total FROM player GROUP BY team ORDER BY team")
      #expect(rows.map { $0["team"] as String } == ["blue", "green", "red"])
      #expect(rows.map { $0["total"] as Int? } == [10, nil, 3])
      // No row: finalize of a fresh aggregate.
      #expect(try Int?.fetchOne(db, sql: "SELECT integerSum(score) FROM player WHERE 0") == .some(nil))
    }
  }

  @Test("Each group gets a fresh aggregate; a variadic aggregate gets every argument")
  func freshInstances() throws {
    let count = DatabaseFunction("stepCount", aggregate: StepCount.self)
    try makeQueue(count).read { db throws in
      #expect(
        try String.fetchAll(db, sql: "SELECT stepCount(team, score) FROM player GROUP BY team ORDER BY team")
          == ["2/4", "1/2", "2/4"])
      #expect(try String.fetchOne(db, sql: "SELECT stepCount() FROM player") == "5/0")
      #expect(try String.fetchOne(db, sql: "SELECT stepCount(1, 2, 3) FROM player") == "5/15")
      // Two aggregates of one kind in one query do not share state.
      #expect(
        try String.fetchOne(db, sql: "SELECT stepCount(id) || ' ' || stepCount(id, id) FROM player")
          == "5/5 5/10")
    }
  }

  @Test("A call with the wrong number of arguments is SQLite's error")
  func wrongArgumentCount() throws {
    let sum = DatabaseFunction("integerSum", argumentCount: 1, aggregate: IntegerSum.self)
    try makeQueue(sum).read { db throws in
      let error = #expect(throws: DatabaseError.self) {
        try Int.fetchOne(db, sql: "SELECT integerSum(score, id) FROM player")
      }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message == "wrong number of arguments to function integerSum()")
    }
  }

  @Test(
    "Errors thrown by step and by finalize reach the caller, as those of functions",
    arguments: ["step", "finalize"])
  func errors(_ stage: String) throws {
    let failing = DatabaseFunction("failing", argumentCount: 2, aggregate: Failing.self)
    try makeQueue(failing).read { db throws in
      func failure(_ kind: String) -> DatabaseError? {
        #expect(throws: DatabaseError.self) {
          try String.fetchOne(db, sql: "SELECT failing(?, ?) FROM player", arguments: [stage, kind])
        }
      }
      #expect(failure("message")?.resultCode == .SQLITE_ERROR)
      #expect(failure("message")?.message == "custom message")
      #expect(failure("code")?.resultCode.rawValue == 123)
      #expect(failure("code")?.message == "unknown error")
      #expect(failure("both")?.resultCode.rawValue == 123)
      #expect(failure("both")?.message == "custom message")
      #expect(failure("other")?.resultCode == .SQLITE_ERROR)
      #expect(failure("other")?.message == "refused by the aggregate")
      #expect(failure("other")?.sql == "SELECT failing(?, ?) FROM player")
      #expect(try String.fetchOne(db, sql: "SELECT failing('finalize', NULL) FROM player") == "done")
    }
  }

  @Test("Aggregates are released after a result, an error in step, and an error in finalize")
  func release() throws {
    let tracked = DatabaseFunction("tracked", argumentCount: 1, aggregate: Tracked.self)
    let queue = try makeQueue(tracked)
    try queue.read { db throws in
      #expect(try Int.fetchAll(db, sql: "SELECT tracked(team) FROM player GROUP BY team") == [2, 1, 2])
      #expect(liveTrackedAggregates.value == 0)
      #expect(throws: DatabaseError.self) {
        try Int.fetchOne(db, sql: "SELECT tracked(CASE id WHEN 3 THEN 'step' ELSE team END) FROM player")
      }
      #expect(liveTrackedAggregates.value == 0)
      #expect(throws: DatabaseError.self) {
        try Int.fetchAll(
          db, sql: "SELECT tracked(CASE id WHEN 3 THEN 'finalize' ELSE team END) FROM player GROUP BY team")
      }
      #expect(liveTrackedAggregates.value == 0)
      // A cursor abandoned in the middle of its groups.
      let cursor = try Int.fetchCursor(db, sql: "SELECT tracked(team) FROM player GROUP BY team")
      _ = try cursor.next()
    }
    #expect(liveTrackedAggregates.value == 0)
  }

  @Test("An aggregate is called in the query interface")
  func queryInterface() throws {
    let sum = DatabaseFunction("integerSum", argumentCount: 1, aggregate: IntegerSum.self)
    try makeQueue(sum).read { db throws in
      #expect(try AggregatePlayer.select(sum(Column("score")), as: Int.self).fetchOne(db) == 13)
      let totals =
        try AggregatePlayer
        .select(sum(Column("score")), as: Int?.self)
        .group(Column("team"))
        .order(Column("team"))
        .fetchAll(db)
      #expect(totals == [10, nil, 3])
    }
  }

  @Test("A removed aggregate is no longer known")
  func removal() throws {
    let sum = DatabaseFunction("integerSum", argumentCount: 1, aggregate: IntegerSum.self)
    try makeQueue(sum).write { db throws in
      db.remove(function: sum)
      let error = #expect(throws: DatabaseError.self) {
        try Int.fetchOne(db, sql: "SELECT integerSum(score) FROM player")
      }
      #expect(error?.message == "no such function: integerSum")
    }
  }
}
