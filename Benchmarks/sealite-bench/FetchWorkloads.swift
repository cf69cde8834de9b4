// Workloads 3 to 5: reading every row of a table of --rows items, every
// column into Swift values, inside one read transaction (Sealite's
// `read`, BEGIN DEFERRED … COMMIT on the raw side). Both sides read the same
// file, through connections opened once, untimed.
//
//   cursor-index       Row.fetchCursor, row[0]…row[3]         target ≤1.1×
//   cursor-name        Row.fetchCursor, row["id"]…row["flag"]  target ≤1.2×
//   fetch-all-rows     Row.fetchAll, then every column read    target ≤1.6×
//   fetch-all-records  Item.fetchAll(db) (Codable)             target ≤2×
//   cursor-records     Item.fetchCursor(db) (Codable)          target ≤2×
//
// Each target row has its floor beside it, the tight loop doing the least
// the API asks for: one object handed out per step (cursor-index) or per row
// (fetch-all-rows, ObjectFloor.swift), each Item built through Item(from:)
// (fetch-all-records, cursor-records, CodableFloor.swift).
//
// The raw side steps a statement and reads sqlite3_column_int64, _text
// (String(cString:)) and _double into an Item; the fetch-all workloads first
// collect the Items into an array, as Sealite does. The tight C loop does the
// same, reading the text by its byte count. Targets hold against the tight loop.

import CSQLCipher
import Foundation
import Sealite

enum FetchWorkloads {
  static func cursorByIndex(_ context: BenchContext, path: String) throws -> [ResultRow] {
    try run(
      "cursor-index", "Row cursor, \(context.rows) rows, columns by index", context, path, target: 1.1,
      alternatives: [
        Alternative(
          measure: "object floor: tight loop + one row object handed out per step, \(context.rows) rows",
          note: "no Sealite: the C loop reads each row through the object a cursor's next() returns, the "
            + "same at every step (ObjectFloor.swift): the least any cursor of row objects costs",
          tight: ObjectFloor.cursor)
      ],
      raw: rawCursor
    ) { db in
      var checksum = Checksum()
      let cursor = try Row.fetchCursor(db, sql: selectItemsSQL)
      while let row = try cursor.next() {
        let id: Int = row[0]
        let name: String = row[1]
        let score: Double = row[2]
        let flag: Int = row[3]
        Item(id: id, name: name, score: score, flag: flag).addTo(&checksum)
      }
      return checksum.value
    }
  }

  static func cursorByName(_ context: BenchContext, path: String) throws -> [ResultRow] {
    try run(
      "cursor-name", "Row cursor, \(context.rows) rows, columns by name", context, path, target: 1.2,
      raw: rawCursor
    ) { db in
      var checksum = Checksum()
      let cursor = try Row.fetchCursor(db, sql: selectItemsSQL)
      while let row = try cursor.next() {
        let id: Int = row["id"]
        let name: String = row["name"]
        let score: Double = row["score"]
        let flag: Int = row["flag"]
        Item(id: id, name: name, score: score, flag: flag).addTo(&checksum)
      }
      return checksum.value
    }
  }

  static func fetchAllRows(_ context: BenchContext, path: String) throws -> [ResultRow] {
    try run(
      "fetch-all-rows", "Row.fetchAll, \(context.rows) rows, columns by index", context, path, target: 1.6,
      alternatives: [
        Alternative(
          measure: "object floor: tight loop + one object per row, \(context.rows) rows",
          note: "no Sealite: the C loop collects each Item in an object of its own (ObjectFloor.swift), "
            + "as an array of rows must, the least any [Row] costs",
          tight: ObjectFloor.fetchAll)
      ],
      raw: rawFetchAll
    ) { db in
      var checksum = Checksum()
      let rows = try Row.fetchAll(db, sql: selectItemsSQL)
      for row in rows {
        let id: Int = row[0]
        let name: String = row[1]
        let score: Double = row[2]
        let flag: Int = row[3]
        Item(id: id, name: name, score: score, flag: flag).addTo(&checksum)
      }
      return checksum.value
    }
  }

  static func fetchAllRecords(_ context: BenchContext, path: String) throws -> [ResultRow] {
    try run(
      "fetch-all-records", "Item.fetchAll, \(context.rows) Codable records", context, path, target: 2,
      alternatives: [
        Alternative(
          measure: "Item.fetchAll, \(context.rows) init(row:) records",
          sealite: { db in
            var checksum = Checksum()
            for record in try RowInitializedItem.fetchAll(db) {
              record.item.addTo(&checksum)
            }
            return checksum.value
          }),
        Alternative(
          measure: "Codable floor: tight loop + Item(from:), \(context.rows) records",
          note: "no Sealite: the C loop builds each Item with Item(from:) and a decoder that only hands out "
            + "the values it read (CodableFloor.swift), the least any Codable fetch costs",
          tight: CodableFloor.fetchAll),
      ],
      raw: rawFetchAll
    ) { db in
      var checksum = Checksum()
      for item in try Item.fetchAll(db) {
        item.addTo(&checksum)
      }
      return checksum.value
    }
  }

  static func cursorRecords(_ context: BenchContext, path: String) throws -> [ResultRow] {
    try run(
      "cursor-records", "Item.fetchCursor, \(context.rows) Codable records", context, path, target: 2,
      alternatives: [
        Alternative(
          measure: "Item.fetchCursor, \(context.rows) init(row:) records",
          sealite: { db in
            var checksum = Checksum()
            let cursor = try RowInitializedItem.fetchCursor(db)
            while let record = try cursor.next() {
              record.item.addTo(&checksum)
            }
            return checksum.value
          }),
        Alternative(
          measure: "Codable floor: tight loop + Item(from:), \(context.rows) records, no array",
          note:
            "no Sealite: the C loop steps the rows and builds each Item with Item(from:) and a decoder that "
            + "only hands out the values it read (CodableFloor.swift), the least any Codable cursor costs",
          tight: CodableFloor.cursor),
      ],
      raw: rawCursor
    ) { db in
      var checksum = Checksum()
      let cursor = try Item.fetchCursor(db)
      while let item = try cursor.next() {
        item.addTo(&checksum)
      }
      return checksum.value
    }
  }

  /// Steps through every row, reading each into an Item.
  static func rawCursor(_ connection: RawConnection) throws -> Int {
    try stepAll(connection) { $0.item() }
  }

  /// Steps through every row, adding the Item `read` makes of it to the
  /// checksum.
  @inline(__always)
  static func stepAll(_ connection: RawConnection, _ read: (RawStatement) throws -> Item) throws -> Int {
    var checksum = Checksum()
    let statement = try connection.prepare(selectItemsSQL)
    var code = sqlite3_step(statement.handle)
    while code == SQLITE_ROW {
      try read(statement).addTo(&checksum)
      code = sqlite3_step(statement.handle)
    }
    guard code == SQLITE_DONE else { throw connection.error(code, selectItemsSQL) }
    return checksum.value
  }

  /// Collects every row into an array of Items, then reads the array.
  static func rawFetchAll(_ connection: RawConnection) throws -> Int {
    try collectAll(connection) { $0.item() }
  }

  /// Collects every row into an array of the Items `read` makes of them,
  /// then reads the array.
  @inline(__always)
  static func collectAll(_ connection: RawConnection, _ read: (RawStatement) throws -> Item) throws -> Int {
    var items: [Item] = []
    let statement = try connection.prepare(selectItemsSQL)
    var code = sqlite3_step(statement.handle)
    while code == SQLITE_ROW {
      items.append(try read(statement))
      code = sqlite3_step(statement.handle)
    }
    guard code == SQLITE_DONE else { throw connection.error(code, selectItemsSQL) }
    var checksum = Checksum()
    for item in items {
      item.addTo(&checksum)
    }
    return checksum.value
  }

  /// Times `raw` in a raw read transaction and `sealite` in `DatabaseQueue.read`.
  static func run(
    _ workload: String, _ measure: String, _ context: BenchContext, _ path: String, target: Double?,
    alternatives: [Alternative] = [],
    raw: @escaping (RawConnection) throws -> Int, sealite: @escaping (Database) throws -> Int
  ) throws -> [ResultRow] {
    let connection = try context.rawConnection(path)
    let tightConnection = try context.rawConnection(path, tight: true)
    let dbQueue = try DatabaseQueue(path: path, configuration: context.configuration())
    defer { try? dbQueue.close() }
    func side(_ name: String, _ connection: RawConnection, _ body: @escaping (RawConnection) throws -> Int)
      -> Side
    {
      Side(name: name) {
        var checksum = 0
        let milliseconds = try timed {
          try connection.execute("BEGIN DEFERRED TRANSACTION")
          checksum = try body(connection)
          try connection.execute("COMMIT TRANSACTION")
        }
        return (milliseconds, checksum)
      }
    }
    func side(_ name: String, _ body: @escaping (Database) throws -> Int) -> Side {
      Side(name: name) {
        var checksum = 0
        let milliseconds = try timed {
          checksum = try dbQueue.read(body)
        }
        return (milliseconds, checksum)
      }
    }
    // Alternatives are named after the side they run on, for
    // SEALITE_BENCH_SIDE.
    let alternativeSides = alternatives.map { alternative in
      if let body = alternative.tight { return side("tight (\(alternative.measure))", tightConnection, body) }
      return side("Sealite (\(alternative.measure))", alternative.sealite!)
    }
    let sides = [side("raw", connection, raw), side("tight", tightConnection, raw), side("Sealite", sealite)]
    let times = try compare(workload, rounds: context.rounds, sides: sides + alternativeSides)
    let comparison = Comparison(raw: times[0], tight: times[1], sealite: times[2])
    progress(workload, comparison, rounds: context.rounds)
    var rows: [ResultRow] = [.comparison(workload, measure, comparison, target: target)]
    for (offset, alternative) in alternatives.enumerated() {
      let alternativeComparison = Comparison(raw: times[0], tight: times[1], sealite: times[3 + offset])
      rows.append(.comparison(workload, alternative.measure, alternativeComparison, note: alternative.note))
    }
    return rows
  }
}
