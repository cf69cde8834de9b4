import Foundation
import Testing

// @testable: the fuzzer compares the internal encoding of values with SQLite's.
@testable import Sealite

// Fuzzing the binding of values: every API shape that turns a value into SQL.

// MARK: - Binding through every API shape

/// Writes `value` into `fuzz` through every API that takes values, and checks each
/// row, the query interface and the keyed lookups; `markers` must never reach SQL.
func exercise<V: FuzzValue>(_ value: V?, markers: [String], db: Database, log: SQLCapture, run: FuzzRun)
  throws
{
  try db.execute(sql: "DELETE FROM fuzz; DELETE FROM fuzzkey")
  log.reset()
  let expected = value?.expectedStorage ?? .null
  let insertSQL = "INSERT INTO fuzz (id, v) VALUES (?, ?)"
  let shapes: [(name: String, write: (Int64) throws -> Void)] = [
    ("array literal", { id in try db.execute(sql: insertSQL, arguments: [id, value]) }),
    (
      "StatementArguments(sequence)",
      { id in
        try db.execute(
          sql: insertSQL, arguments: StatementArguments([id, value] as [(any DatabaseValueConvertible)?]))
      }
    ),
    (
      "dictionary literal, :name",
      { id in
        try db.execute(sql: "INSERT INTO fuzz (id, v) VALUES (:id, :v)", arguments: ["id": id, "v": value])
      }
    ),
    (
      "StatementArguments(dictionary), $name and @name",
      { id in
        let named: [String: (any DatabaseValueConvertible)?] = ["id": id, "v": value]
        try db.execute(sql: "INSERT INTO fuzz (id, v) VALUES ($id, @v)", arguments: StatementArguments(named))
      }
    ),
    (
      "numbered ?NNN",
      { id in try db.execute(sql: "INSERT INTO fuzz (v, id) VALUES (?2, ?1)", arguments: [id, value]) }
    ),
    ("cached statement", { id in try db.cachedStatement(sql: insertSQL).execute(arguments: [id, value]) }),
    (
      "setArguments then execute",
      { id in
        let statement = try db.makeStatement(sql: insertSQL)
        try statement.setArguments([id, value])
        try statement.execute()
      }
    ),
    ("arguments + arguments", { id in try db.execute(sql: insertSQL, arguments: [id] + [value]) }),
    ("double optional", { id in try db.execute(sql: insertSQL, arguments: [id, Optional(value)]) }),
    (
      "two statements sharing positional arguments",
      { id in
        try db.execute(
          sql: "INSERT INTO fuzz (id) VALUES (?); UPDATE fuzz SET v = ? WHERE id = ?",
          arguments: [id, value, id])
      }
    ),
    (
      "SQL interpolation",
      { id in try db.execute(literal: "INSERT INTO fuzz (id, v) VALUES (\(id), \(value))") }
    ),
    (
      "SQL append(sql:arguments:)",
      { id in
        var sql: SQL = "INSERT INTO fuzz (id, v) VALUES ("
        sql.append(sql: "?, ?", arguments: [id, value])
        sql += ")"
        try db.execute(literal: sql)
      }
    ),
    (
      "updateAll(Column.set(to:))",
      { id in
        try db.execute(sql: "INSERT INTO fuzz (id) VALUES (?)", arguments: [id])
        _ = try Table("fuzz").filter(Column("id") == id).updateAll(db, Column("v").set(to: value))
      }
    ),
    ("record insert", { id in try FuzzRecord(id: id, v: value).insert(db) }),
    (
      "record update",
      { id in
        try FuzzRecord<V>(id: id, v: nil).insert(db)
        try FuzzRecord(id: id, v: value).update(db)
      }
    ),
    ("record save", { id in try FuzzRecord(id: id, v: value).save(db) }),
    (
      "record upsert",
      { id in
        try FuzzRecord<V>(id: id, v: nil).insert(db)
        try FuzzRecord(id: id, v: value).upsert(db)
      }
    ),
    (
      "record insertAndFetch",
      { id in
        let fetched = try FuzzRecord(id: id, v: value).insertAndFetch(db)
        run.check(
          value.map { $0.isExactly(fetched.v) } ?? (fetched.v == nil),
          "insertAndFetch returned \(fetched.v as Any)")
      }
    ),
  ]
  for (index, shape) in shapes.enumerated() {
    let id = Int64(index + 1)
    do {
      try shape.write(id)
    } catch {
      run.fail("\(shape.name): \(error)")
      continue
    }
    try verifyRow(id: id, value: value, expected: expected, shape: shape.name, db: db, run: run)
  }

  // The query interface and SQL literals find the row by its value.
  let id: Int64 = 1
  let equal = try Table("fuzz").filter(Column("id") == id).filter(Column("v") == value).fetchCount(db)
  // `= NULL` matches nothing: a NaN (bound as NULL) is found by `===` (IS) only.
  run.check(equal == (value != nil && expected.isNull ? 0 : 1), "Column == value found \(equal) row(s)")
  let same = try Table("fuzz").filter(Column("id") == id && Column("v") === value).fetchCount(db)
  run.check(same == 1, "Column === value found \(same) row(s)")
  let literal = try SQLRequest<Int64>(literal: "SELECT id FROM fuzz WHERE v IS \(value) AND id = \(id)")
    .fetchAll(db)
  run.check(literal == [id], "SQLRequest literal found \(literal)")
  if let value, !expected.isNull {
    let among = try SQLRequest<Int64>(literal: "SELECT id FROM fuzz WHERE v IN \([value]) AND id = \(id)")
      .fetchAll(db)
    run.check(among == [id], "IN \\([value]) found \(among)")

    // Keyed lookups on a table whose primary key is the value.
    try db.execute(sql: "INSERT INTO fuzzkey (k, n) VALUES (?, ?)", arguments: [value, 7])
    let keyed = Table("fuzzkey")
    run.check(
      try keyed.filter(key: value).fetchOne(db)?["n"] as Int64? == 7, "filter(key:) did not find the row")
    run.check(try keyed.fetchOne(db, key: value) != nil, "fetchOne(key:) did not find the row")
    run.check(try keyed.exists(db, key: value), "exists(key:) is false")
    run.check(try keyed.deleteOne(db, key: value), "deleteOne(key:) deleted nothing")
    run.check(try keyed.fetchCount(db) == 0, "deleteOne(key:) left the row")
  }

  let leaks = log.leaks(of: markers)
  run.check(leaks.isEmpty, "the value reached SQL text: \(leaks.prefix(3).map { String($0.prefix(200)) })")
}

func verifyRow<V: FuzzValue>(
  id: Int64, value: V?, expected: DatabaseValue, shape: String, db: Database, run: FuzzRun
) throws {
  guard let row = try Row.fetchOne(db, sql: "SELECT v, typeof(v) FROM fuzz WHERE id = ?", arguments: [id])
  else {
    run.fail("\(shape): no row")
    return
  }
  let stored: DatabaseValue = row[0]
  let type: String = row[1]
  run.check(
    isIdentical(stored, expected) && type == storageClass(expected),
    "\(shape): stored \(describe(stored)) (\(type)), expected \(describe(expected))")
  let decoded = try row.decodeIfPresent(V.self, forColumn: "v")
  run.check(value.map { $0.isExactly(decoded) } ?? (decoded == nil), "\(shape): read back \(decoded as Any)")
  let record = try FuzzRecord<V>.fetchOne(db, key: id)
  run.check(
    value.map { $0.isExactly(record?.v) } ?? (record != nil && record?.v == nil),
    "\(shape): record read back \(record?.v as Any)")
}

/// True if `needle`'s UTF-8 bytes occur in `haystack`'s (Character comparison could
/// miss a marker whose last digit a combining mark joined).
func containsBytes(_ haystack: String, _ needle: String) -> Bool {
  let bytes = Array(haystack.utf8)
  let pattern = Array(needle.utf8)
  guard !pattern.isEmpty, bytes.count >= pattern.count else { return pattern.isEmpty }
  for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
    if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
  }
  return false
}

/// A random string with `marker` somewhere in it; now and then a very long one.
func randomMarkedString(_ random: inout SplitMix64, marker: String) -> String {
  var text = randomString(&random)
  if random.chance(1, in: 40) {
    let piece = random.chance(1, in: 2) ? random.pick(stringPieces) : String(randomScalar(&random))
    text += String(
      repeating: piece.isEmpty ? "x" : piece, count: Int.random(in: 1000...50_000, using: &random))
  }
  let offset = Int.random(in: 0...text.unicodeScalars.count, using: &random)
  var scalars = Array(text.unicodeScalars)
  scalars.insert(contentsOf: marker.unicodeScalars, at: offset)
  var result = ""
  result.unicodeScalars.append(contentsOf: scalars)
  return result
}

func randomMarkedData(_ random: inout SplitMix64, marker: String) -> Data {
  var data = randomData(&random)
  if random.chance(1, in: 40) {
    data += Data(
      (0..<Int.random(in: 1000...100_000, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      })
  }
  if !data.isEmpty || random.chance(1, in: 2) {
    data.insert(contentsOf: Data(marker.utf8), at: Int.random(in: 0...data.count, using: &random))
  }
  return data
}

func exerciseRandomValue(_ random: inout SplitMix64, db: Database, log: SQLCapture, run: FuzzRun) throws {
  let marker = "FUZZ-" + random.hex(16)
  let markers = markerForms(marker)
  let isNil = random.chance(1, in: 10)  // an optional wrapper that holds nil
  func bind<V: FuzzValue>(_ value: V) throws {
    try exercise(isNil ? nil : value, markers: markers, db: db, log: log, run: run)
  }
  switch Int.random(in: 0..<7, using: &random) {
  case 0: try bind(randomInt64(&random))
  case 1: try bind(randomDouble(&random))
  case 2: try bind(Bool.random(using: &random))
  case 3: try bind(randomMarkedString(&random, marker: marker))
  case 4: try bind(randomMarkedData(&random, marker: marker))
  case 5:
    let date = randomDate(&random)
    try bind(date)
    if Date.isInTextRange(date), case .string(let text) = date.databaseValue.storage {
      let pattern = /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}$/
      run.check(
        text.wholeMatch(of: pattern) != nil, "date \(date.timeIntervalSince1970) is stored as \(text)")
    }
    // Records' other date strategies write any date too (whole numbers that do not
    // fit an Int64 become reals).
    let strategies: [DatabaseDateEncodingStrategy] = [
      .timeIntervalSince1970, .timeIntervalSinceReferenceDate, .millisecondsSince1970, .secondsSince1970,
      .iso8601,
    ]
    let encoded = strategies.map { $0.encode(date) }
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    if let exact = Int64(exactly: milliseconds) {
      run.check(
        isIdentical(encoded[2], exact.databaseValue), "millisecondsSince1970 wrote \(describe(encoded[2]))")
    } else {
      run.check(
        isIdentical(encoded[2], milliseconds.databaseValue),
        "millisecondsSince1970 wrote \(describe(encoded[2]))")
    }
  default: try bind(randomUUID(&random))
  }
}

// MARK: - SQL literals

/// A random value of any storage class, for the literal builder.
func randomDatabaseValue(_ random: inout SplitMix64) -> DatabaseValue {
  switch Int.random(in: 0..<5, using: &random) {
  case 0: return .null
  case 1: return DatabaseValue(storage: .int64(randomInt64(&random)))
  case 2: return DatabaseValue(storage: .double(randomDouble(&random)))
  case 3: return DatabaseValue(storage: .string(randomString(&random)))
  default: return DatabaseValue(storage: .blob(randomData(&random)))
  }
}
