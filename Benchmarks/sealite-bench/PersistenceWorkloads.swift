// Writing records over rows that exist: --rows items already in the table
// (written untimed with the C API, once per side), written again each round,
// in one write transaction (BEGIN IMMEDIATE … COMMIT on the raw side).
//
//   upsert            record.upsert(db)                       target ≤1.5×
//   upsert-and-fetch  record.upsertAndFetch(db)               target ≤1.5×
//   update            record.update(db)                       target ≤1.5×
//   save              record.save(db)                         target ≤1.5×
//
// The raw side prepares the one statement a careful C programmer writes for
// the work once per round, and binds, steps and resets it for each item:
// `INSERT … ON CONFLICT DO UPDATE SET … RETURNING rowid` for the upserts
// (reading the returned row into an Item for upsert-and-fetch), and
// `UPDATE item SET name = ?, score = ?, flag = ? WHERE id = ?` for update and
// save; the tight C loop binds the text by its byte count. On SQLite before
// 3.35 (the legacy build: no UPSERT, no RETURNING)
// Sealite emulates the upsert; that row then has no raw side and no target.
//
// Two rows measure the fastest GRDB-compatible alternatives, each on a
// database of its own: upsertAndFetch returning an init(row:) record (no
// Codable decoding), and the update through one reused statement whose
// values bind themselves (no Codable encoding, no persistence container).
// The update, the save and upsertAndFetch have their Codable floor beside
// them: the tight loop binding each Item through `encode(to:)` (and building
// the returned one through `Item(from:)`).

import CSQLCipher
import Foundation
import Sealite

enum PersistenceWorkloads {
  static let upsertSQL =
    insertItemSQL
    + " ON CONFLICT DO UPDATE SET name = excluded.name, score = excluded.score, flag = excluded.flag"
  static let updateSQL = "UPDATE item SET name = ?, score = ?, flag = ? WHERE id = ?"
  static let upsertAndFetchSQL = upsertSQL + " RETURNING id, name, score, flag"

  /// The items written each round: the stored ones, with other values.
  static func items(_ context: BenchContext) -> [Item] {
    Item.make(count: context.rows).map { item in
      var item = item
      item.name += "-again"
      item.score += 1
      return item
    }
  }

  static func upsert(_ context: BenchContext) throws -> [ResultRow] {
    let items = items(context)
    return try run(
      "upsert", "upsert \(context.rows) Codable records over existing rows (record.upsert)", context,
      raw: { connection in
        let statement = try connection.prepare(upsertSQL + " RETURNING rowid")
        for item in items {
          statement.bind(item)
          guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw connection.error(0, upsertSQL) }
          _ = sqlite3_column_int64(statement.handle, 0)
          sqlite3_reset(statement.handle)
        }
        return 0
      },
      sealite: { db in
        for item in items { try item.upsert(db) }
        return 0
      })
  }

  static func upsertAndFetch(_ context: BenchContext) throws -> [ResultRow] {
    let items = items(context)
    return try run(
      "upsert-and-fetch", "upsertAndFetch \(context.rows) Codable records over existing rows", context,
      alternatives: [
        Alternative(
          measure: "upsertAndFetch \(context.rows) Codable records, returning init(row:) records",
          note: "item.upsertAndFetch(db, as: RowInitializedItem.self): the returned row is read by "
            + "init(row:), without Codable decoding",
          sealite: { db in
            var checksum = Checksum()
            for item in items {
              try item.upsertAndFetch(db, as: RowInitializedItem.self).item.addTo(&checksum)
            }
            return checksum.value
          }),
        Alternative(
          measure: "Codable floor: tight loop + item.encode(to:) + Item(from:), \(context.rows) upserts",
          note: "no Sealite: the C loop binds each Item through item.encode(to:) and builds the returned one "
            + "with Item(from:) (CodableFloor.swift), the least any Codable upsertAndFetch costs",
          tight: { connection in
            try CodableFloor.upsertAndFetch(items, with: connection.prepare(upsertAndFetchSQL))
          }),
      ],
      raw: { connection in
        let statement = try connection.prepare(upsertAndFetchSQL)
        var checksum = Checksum()
        for item in items {
          statement.bind(item)
          guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw connection.error(0, upsertSQL) }
          statement.item().addTo(&checksum)
          sqlite3_reset(statement.handle)
        }
        return checksum.value
      },
      sealite: { db in
        var checksum = Checksum()
        for item in items { try item.upsertAndFetch(db).addTo(&checksum) }
        return checksum.value
      })
  }

  static func update(_ context: BenchContext) throws -> [ResultRow] {
    let items = items(context)
    return try run(
      "update", "update \(context.rows) Codable records (record.update)", context,
      alternatives: [
        Alternative(
          measure: "update \(context.rows) rows, one reused statement, values bound with bind(to:at:)",
          note: "the UPDATE of the raw side, made once with db.makeStatement; each value binds itself on "
            + "statement.sqliteStatement (GRDB's StatementBinding), then statement.execute()",
          sealite: { db in
            let statement = try db.makeStatement(sql: updateSQL)
            let handle = statement.sqliteStatement
            // Arguments given once, as GRDB requires before a run without them.
            try statement.setArguments(["", 0.0, 0, 0])
            for item in items {
              guard
                item.name.bind(to: handle, at: 1) == SQLITE_OK,
                item.score.bind(to: handle, at: 2) == SQLITE_OK,
                item.flag.bind(to: handle, at: 3) == SQLITE_OK, item.id.bind(to: handle, at: 4) == SQLITE_OK
              else { throw BenchError("cannot bind item \(item.id)") }
              try statement.execute()
              guard db.changesCount == 1 else { throw BenchError("no row \(item.id)") }
            }
            return 0
          }),
        updateFloor(items, context),
      ],
      raw: { connection in try rawUpdate(connection, items) },
      sealite: { db in
        for item in items { try item.update(db) }
        return 0
      })
  }

  static func save(_ context: BenchContext) throws -> [ResultRow] {
    let items = items(context)
    return try run(
      "save", "save \(context.rows) Codable records over existing rows (record.save)", context,
      alternatives: [updateFloor(items, context)],
      raw: { connection in try rawUpdate(connection, items) },
      sealite: { db in
        for item in items { try item.save(db) }
        return 0
      })
  }

  private static func rawUpdate(_ connection: RawConnection, _ items: [Item]) throws -> Int {
    let statement = try connection.prepare(updateSQL)
    for item in items {
      statement.bindText(item.name, at: 1)
      sqlite3_bind_double(statement.handle, 2, item.score)
      sqlite3_bind_int64(statement.handle, 3, Int64(item.flag))
      sqlite3_bind_int64(statement.handle, 4, Int64(item.id))
      let code = sqlite3_step(statement.handle)
      sqlite3_reset(statement.handle)
      guard code == SQLITE_DONE, sqlite3_changes(connection.handle) == 1 else {
        throw connection.error(code, updateSQL)
      }
    }
    return 0
  }

  /// The Codable floor of an update (and of a save, which updates a row
  /// that exists): the tight loop binding each Item through `encode(to:)`, in
  /// the order it encodes its values (`?1` is the id).
  private static func updateFloor(_ items: [Item], _ context: BenchContext) -> Alternative {
    Alternative(
      measure: "Codable floor: tight loop + item.encode(to:), \(context.rows) updates",
      note: "no Sealite: the C loop binds each Item through item.encode(to:) and an encoder that only binds "
        + "the values in order (CodableFloor.swift), the least any Codable update costs",
      tight: { connection in
        try CodableFloor.write(items, with: connection.prepare(CodableFloor.updateSQL), updating: connection)
        return 0
      })
  }

  private static func run(
    _ workload: String, _ measure: String, _ context: BenchContext, alternatives: [Alternative] = [],
    raw: @escaping (RawConnection) throws -> Int, sealite: @escaping (Database) throws -> Int
  ) throws -> [ResultRow] {
    let rawPath = try context.populatedDatabase("\(workload)-raw", count: context.rows)
    let sealitePath = try context.populatedDatabase("\(workload)-sealite", count: context.rows)
    defer {
      context.remove(rawPath)
      context.remove(sealitePath)
    }
    let dbQueue = try DatabaseQueue(path: sealitePath, configuration: context.configuration())
    defer { try? dbQueue.close() }
    guard SQLiteFeatures.linked.supports(.returning) else {
      // The emulated upsert: measured, with nothing to compare it with.
      var times: [Double] = []
      for round in 0...context.rounds {
        let milliseconds = try timed { _ = try dbQueue.write(sealite) }
        if round > 0 { times.append(milliseconds) }
      }
      return [.value(workload, measure + ", emulated (SQLite before 3.35)", unit: "ms", times)]
    }
    let tightPath = try context.populatedDatabase("\(workload)-tight", count: context.rows)
    defer { context.remove(tightPath) }
    func side(
      _ name: String, _ path: String, tight: Bool, _ body: @escaping (RawConnection) throws -> Int = raw
    ) throws -> Side {
      let connection = try context.rawConnection(path, tight: tight)
      return Side(name: name) {
        var checksum = 0
        let milliseconds = try timed {
          try connection.execute("BEGIN IMMEDIATE TRANSACTION")
          checksum = try body(connection)
          try connection.execute("COMMIT TRANSACTION")
        }
        return (milliseconds, checksum &+ (try InsertWorkloads.contentChecksum(context, path)))
      }
    }
    func sealiteSide(_ name: String, _ dbQueue: DatabaseQueue, _ body: @escaping (Database) throws -> Int)
      -> Side
    {
      Side(name: name) {
        var checksum = 0
        let milliseconds = try timed {
          checksum = try dbQueue.write(body)
        }
        return (milliseconds, checksum &+ (try InsertWorkloads.contentChecksum(context, dbQueue.path)))
      }
    }
    // Each alternative writes a database of its own, and its side is named
    // after where it runs, for SEALITE_BENCH_SIDE.
    let alternativePaths = try alternatives.indices.map { offset in
      try context.populatedDatabase("\(workload)-alternative-\(offset)", count: context.rows)
    }
    var alternativeQueues: [DatabaseQueue] = []
    defer {
      for queue in alternativeQueues { try? queue.close() }
      for path in alternativePaths { context.remove(path) }
    }
    var alternativeSides: [Side] = []
    for (alternative, path) in zip(alternatives, alternativePaths) {
      if let tight = alternative.tight {
        alternativeSides.append(try side("tight (\(alternative.measure))", path, tight: true, tight))
      } else if let body = alternative.sealite {
        let queue = try DatabaseQueue(path: path, configuration: context.configuration())
        alternativeQueues.append(queue)
        alternativeSides.append(sealiteSide("Sealite (\(alternative.measure))", queue, body))
      }
    }
    let sides =
      try [
        side("raw", rawPath, tight: false), side("tight", tightPath, tight: true),
        sealiteSide("Sealite", dbQueue, sealite),
      ] + alternativeSides
    let times = try compare(workload, rounds: context.rounds, sides: sides)
    let comparison = Comparison(raw: times[0], tight: times[1], sealite: times[2])
    progress(workload, comparison, rounds: context.rounds)
    var rows: [ResultRow] = [
      .comparison(workload, measure, comparison, target: 1.5, baseline: "one prepared statement")
    ]
    for (offset, alternative) in alternatives.enumerated() {
      rows.append(
        .comparison(
          workload, alternative.measure,
          Comparison(raw: times[0], tight: times[1], sealite: times[3 + offset]),
          baseline: "one prepared statement", note: alternative.note))
    }
    return rows
  }
}
