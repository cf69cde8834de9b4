// Workloads 1 and 2: inserting rows in one transaction, into a fresh
// encrypted database each round (created and given its table untimed).
//
//   insert-statement  one prepared INSERT, reused for every row
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
    let comparison = try compare(
      "insert-statement", rounds: context.rounds,
      raw: rawSide(context, items), tight: rawSide(context, items, tight: true),
      sealite: sealiteSide(context, name: "insert-statement") { db in
        let statement = try db.makeStatement(sql: insertItemSQL)
        for item in items {
          try statement.execute(arguments: [item.id, item.name, item.score, item.flag])
        }
      })
    return [
      .comparison(
        "insert-statement", "insert \(context.rows) rows, one reused statement", comparison, target: 1.1)
    ]
  }

  static func codable(_ context: BenchContext) throws -> [ResultRow] {
    let items = Item.make(count: context.rows)
    let comparison = try compare(
      "insert-codable", rounds: context.rounds,
      raw: rawSide(context, items), tight: rawSide(context, items, tight: true),
      sealite: sealiteSide(context, name: "insert-codable") { db in
        for item in items {
          try item.insert(db)
        }
      })
    return [
      .comparison(
        "insert-codable", "insert \(context.rows) Codable records (record.insert)", comparison, target: 1.5,
        baseline: "reused statement")
    ]
  }

  private static func rawSide(_ context: BenchContext, _ items: [Item], tight: Bool = false) -> Side {
    Side(name: tight ? "tight" : "raw") {
      let path = context.path("insert-raw")
      defer { context.remove(path) }
      let milliseconds: Double
      do {
        let connection = try context.rawConnection(path, tight: tight)
        try connection.execute(createItemTableSQL)
        milliseconds = try timed {
          try connection.execute("BEGIN IMMEDIATE TRANSACTION")
          let statement = try connection.prepare(insertItemSQL)
          for item in items {
            try statement.insert(item)
          }
          try connection.execute("COMMIT TRANSACTION")
        }
      }
      return (milliseconds, try contentChecksum(context, path))
    }
  }

  private static func sealiteSide(
    _ context: BenchContext, name: String, _ insert: @escaping (Database) throws -> Void
  ) -> Side {
    Side(name: "Sealite") {
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
