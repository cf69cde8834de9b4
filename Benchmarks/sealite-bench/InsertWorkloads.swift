// Workloads 1 and 2: inserting rows in one transaction, into a fresh
// encrypted database each round (created and given its table untimed).
//
//   insert-statement  one prepared INSERT, reused for every row (with an
//                     array of arguments, and with each value bound by its
//                     own bind(to:at:)); its floor, the C loop with the
//                     array of arguments (ArgumentArrayFloor.swift)
//   insert-codable    record.insert(db) of Codable records
//
// The raw side of both: sqlite3_prepare_v2 once, then bind, step, reset for
// each row, between BEGIN IMMEDIATE and COMMIT (Sealite's write transaction).
// The tight C loop binds the text with its byte count.

import CSQLCipher
import Foundation
import Sealite

enum InsertWorkloads {
  static func statement(_ context: BenchContext) throws -> [ResultRow] {
    let items = Item.make(count: context.rows)
    let times = try compare(
      "insert-statement", rounds: context.rounds,
      sides: [
        rawSide(context, items), rawSide(context, items, tight: true),
        sealiteSide(context, name: "insert-statement") { db in
          let statement = try db.makeStatement(sql: insertItemSQL)
          for item in items {
            try statement.execute(arguments: [item.id, item.name, item.score, item.flag])
          }
        },
        sealiteSide(context, name: "insert-statement-bind", side: "Sealite (bind(to:at:))") { db in
          let statement = try db.makeStatement(sql: insertItemSQL)
          let handle = statement.sqliteStatement
          // Arguments given once, as GRDB requires before a run without them.
          try statement.setArguments([0, "", 0.0, 0])
          for item in items {
            // GRDB's StatementBinding: each value binds itself, without an
            // array of arguments; execute() runs what is bound.
            guard
              item.id.bind(to: handle, at: 1) == SQLITE_OK, item.name.bind(to: handle, at: 2) == SQLITE_OK,
              item.score.bind(to: handle, at: 3) == SQLITE_OK, item.flag.bind(to: handle, at: 4) == SQLITE_OK
            else { throw BenchError("cannot bind item \(item.id)") }
            try statement.execute()
          }
        },
        rawSide(context, items, tight: true, side: "tight (argument array)") { items, statement in
          try ArgumentArrayFloor.insert(items, into: statement)
        },
      ])
    return [
      .comparison(
        "insert-statement", "insert \(context.rows) rows, one reused statement",
        Comparison(raw: times[0], tight: times[1], sealite: times[2]), target: 1.1),
      .comparison(
        "insert-statement",
        "insert \(context.rows) rows, one reused statement, values bound with bind(to:at:)",
        Comparison(raw: times[0], tight: times[1], sealite: times[3]), target: nil,
        baseline: "reused statement",
        note: "each value binds itself on statement.sqliteStatement (GRDB's StatementBinding), then "
          + "statement.execute(): no array literal of arguments"),
      .comparison(
        "insert-statement",
        "argument-array floor: tight loop + an array literal of arguments, \(context.rows) rows",
        Comparison(raw: times[0], tight: times[1], sealite: times[4]), target: nil,
        baseline: "reused statement",
        note: "no Sealite: the C loop puts each row's values in an array literal of optional "
          + "DatabaseValueConvertible, as execute(arguments:) takes them, and binds each with its own "
          + "bind(to:at:) (ArgumentArrayFloor.swift), the least GRDB's execute(arguments:) costs"),
    ]
  }

  static func codable(_ context: BenchContext) throws -> [ResultRow] {
    let items = Item.make(count: context.rows)
    let containerItems = items.map(ContainerEncodedItem.init)
    let times = try compare(
      "insert-codable", rounds: context.rounds,
      sides: [
        rawSide(context, items), rawSide(context, items, tight: true),
        sealiteSide(context, name: "insert-codable") { db in
          for item in items {
            try item.insert(db)
          }
        },
        sealiteSide(context, name: "insert-container", side: "Sealite (container)") { db in
          for item in containerItems {
            try item.insert(db)
          }
        },
        rawSide(context, items, tight: true, side: "tight (Codable floor)") { items, statement in
          try CodableFloor.write(items, with: statement)
        },
      ])
    func row(_ measure: String, _ index: Int, target: Double? = nil, note: String? = nil) -> ResultRow {
      .comparison(
        "insert-codable", measure, Comparison(raw: times[0], tight: times[1], sealite: times[index]),
        target: target, baseline: "reused statement", note: note)
    }
    return [
      row("insert \(context.rows) Codable records (record.insert)", 2, target: 1.5),
      row("insert \(context.rows) records, encode(to container:) (record.insert)", 3),
      row(
        "Codable floor: tight loop + item.encode(to:), \(context.rows) records", 4,
        note: "no Sealite: the C loop binds each Item through item.encode(to:) and an encoder that only "
          + "binds the values in order (CodableFloor.swift), the least any Codable insert costs"),
    ]
  }

  private static func rawSide(
    _ context: BenchContext, _ items: [Item], tight: Bool = false, side: String? = nil,
    insert: @escaping ([Item], RawStatement) throws -> Void = { items, statement in
      for item in items {
        try statement.insert(item)
      }
    }
  ) -> Side {
    Side(name: side ?? (tight ? "tight" : "raw")) {
      let path = context.path("insert-raw")
      defer { context.remove(path) }
      let milliseconds: Double
      do {
        let connection = try context.rawConnection(path, tight: tight)
        try connection.execute(createItemTableSQL)
        milliseconds = try timed {
          try connection.execute("BEGIN IMMEDIATE TRANSACTION")
          let statement = try connection.prepare(insertItemSQL)
          try insert(items, statement)
          try connection.execute("COMMIT TRANSACTION")
        }
      }
      return (milliseconds, try contentChecksum(context, path))
    }
  }

  private static func sealiteSide(
    _ context: BenchContext, name: String, side: String = "Sealite",
    _ insert: @escaping (Database) throws -> Void
  ) -> Side {
    Side(name: side) {
      let path = context.path("\(name)-sealite")
      defer { context.remove(path) }
      let dbQueue = try DatabaseQueue(path: path, configuration: context.configuration())
      try dbQueue.write { db in try db.execute(sql: createItemTableSQL) }
      let milliseconds = try timed {
        try dbQueue.write(insert)
      }
      try dbQueue.close()
      return (milliseconds, try contentChecksum(context, path))
    }
  }

  /// What the table holds, read back with the C API after the timed part.
  static func contentChecksum(_ context: BenchContext, _ path: String) throws -> Int {
    let connection = try context.rawConnection(path, readOnly: true)
    let statement = try connection.prepare(
      "SELECT count(*), sum(id), sum(flag), sum(length(name)), total(score) FROM item")
    guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw BenchError("cannot read back \(path)") }
    var checksum = Checksum()
    for column in 0..<4 {
      checksum.add(Int(sqlite3_column_int64(statement.handle, CInt(column))))
    }
    checksum.add(sqlite3_column_double(statement.handle, 4))
    return checksum.value
  }
}
