// Small reads of random ids (the same sequence on all sides, from a fixed
// seed) in one read transaction:
//
//   lookup    --lookups primary-key lookups, Item.fetchOne(db, key: id)      target ≤1.5×
//   requests  --requests query-interface requests of 10 rows,                target ≤2×
//             Item.filter(Column("id") > id).order(Column("id")).limit(10).fetchAll(db)
//
// The raw side prepares `SELECT id, name, score, flag FROM item WHERE id = ?`
// (or `… WHERE id > ? ORDER BY id LIMIT 10`) once per round and binds, steps,
// reads and resets it for each id. Each workload has its Codable floor beside
// it: the tight loop building each Item through `Item(from:)`.

import CSQLCipher
import Foundation
import Sealite

enum LookupWorkload {
  /// SplitMix64: a small seeded generator, so that both sides look up the same ids.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func run(_ context: BenchContext, path: String) throws -> [ResultRow] {
    var generator = SeededGenerator(state: 8)
    let ids = (0..<context.lookups).map { _ in Int.random(in: 1...context.rows, using: &generator) }
    let lookupSQL = selectItemsSQL + " WHERE id = ?"
    let rows = try FetchWorkloads.run(
      "lookup", "\(context.lookups) primary-key lookups, Item.fetchOne(db, key:)", context, path,
      target: 1.5,
      alternatives: [
        .init(
          measure: "\(context.lookups) primary-key lookups, init(row:) records",
          sealite: { db in
            var checksum = Checksum()
            for id in ids {
              guard let record = try RowInitializedItem.fetchOne(db, key: id) else {
                throw BenchError("no item \(id)")
              }
              record.item.addTo(&checksum)
            }
            return checksum.value
          }),
        codableFloor("\(context.lookups) lookups") { connection, decoder in
          try lookUp(ids, connection, lookupSQL) { try decoder.item($0) }
        },
      ],
      raw: { connection in try lookUp(ids, connection, lookupSQL) { $0.item() } },
      sealite: { db in
        var checksum = Checksum()
        for id in ids {
          guard let item = try Item.fetchOne(db, key: id) else { throw BenchError("no item \(id)") }
          item.addTo(&checksum)
        }
        return checksum.value
      })
    return rows
  }

  static func requests(_ context: BenchContext, path: String) throws -> [ResultRow] {
    var generator = SeededGenerator(state: 9)
    let ids = (0..<context.requests).map { _ in Int.random(in: 0...context.rows, using: &generator) }
    let requestSQL = selectItemsSQL + " WHERE id > ? ORDER BY id LIMIT 10"
    return try FetchWorkloads.run(
      "requests",
      "\(context.requests) query-interface requests, filter + order + limit(10), Item.fetchAll", context,
      path, target: 2,
      alternatives: [
        .init(
          measure: "\(context.requests) query-interface requests, init(row:) records",
          sealite: { db in
            var checksum = Checksum()
            let id = Column("id")
            for value in ids {
              for record in try RowInitializedItem.filter(id > value).order(id).limit(10).fetchAll(db) {
                record.item.addTo(&checksum)
              }
            }
            return checksum.value
          }),
        codableFloor("\(context.requests) requests") { connection, decoder in
          try fetchPages(ids, connection, requestSQL) { try decoder.item($0) }
        },
      ],
      raw: { connection in try fetchPages(ids, connection, requestSQL) { $0.item() } },
      sealite: { db in
        var checksum = Checksum()
        let id = Column("id")
        for value in ids {
          for item in try Item.filter(id > value).order(id).limit(10).fetchAll(db) {
            item.addTo(&checksum)
          }
        }
        return checksum.value
      })
  }

  /// The Codable floor of a workload: `run` is its tight loop, building each
  /// Item with the decoder it is given.
  static func codableFloor(_ what: String, _ run: @escaping (RawConnection, ItemValuesDecoder) throws -> Int)
    -> Alternative
  {
    .init(
      measure: "Codable floor: tight loop + Item(from:), \(what)",
      note: "no Sealite: the C loop builds each Item with Item(from:) and a decoder that only hands out the "
        + "values it read (CodableFloor.swift), the least any Codable lookup or request costs",
      tight: { connection in try run(connection, ItemValuesDecoder()) })
  }

  /// Runs `sql` once for each id, adding the Item `read` makes of its one row
  /// to the checksum.
  @inline(__always)
  static func lookUp(
    _ ids: [Int], _ connection: RawConnection, _ sql: String, _ read: (RawStatement) throws -> Item
  ) throws -> Int {
    var checksum = Checksum()
    let statement = try connection.prepare(sql)
    for id in ids {
      sqlite3_bind_int64(statement.handle, 1, Int64(id))
      let code = sqlite3_step(statement.handle)
      guard code == SQLITE_ROW else { throw connection.error(code, sql) }
      try read(statement).addTo(&checksum)
      sqlite3_reset(statement.handle)
    }
    return checksum.value
  }

  /// Runs `sql` once for each id, collecting the Items `read` makes of its
  /// rows into an array, then adding them to the checksum.
  @inline(__always)
  static func fetchPages(
    _ ids: [Int], _ connection: RawConnection, _ sql: String, _ read: (RawStatement) throws -> Item
  ) throws -> Int {
    var checksum = Checksum()
    let statement = try connection.prepare(sql)
    for id in ids {
      sqlite3_bind_int64(statement.handle, 1, Int64(id))
      var items: [Item] = []
      var code = sqlite3_step(statement.handle)
      while code == SQLITE_ROW {
        items.append(try read(statement))
        code = sqlite3_step(statement.handle)
      }
      guard code == SQLITE_DONE else { throw connection.error(code, sql) }
      sqlite3_reset(statement.handle)
      for item in items { item.addTo(&checksum) }
    }
    return checksum.value
  }
}
