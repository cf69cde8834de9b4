// Small reads of random ids (the same sequence on all sides, from a fixed
// seed) in one read transaction:
//
//   lookup    --lookups primary-key lookups, Item.fetchOne(db, key: id)      target ≤1.5×
//   requests  --requests query-interface requests of 10 rows,                target ≤2×
//             Item.filter(Column("id") > id).order(Column("id")).limit(10).fetchAll(db)
//
// The raw side prepares `SELECT id, name, score, flag FROM item WHERE id = ?`
// (or `… WHERE id > ? ORDER BY id LIMIT 10`) once per round and binds, steps,
// reads and resets it for each id.

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
          })
      ],
      raw: { connection in
        var checksum = Checksum()
        let statement = try connection.prepare(lookupSQL)
        for id in ids {
          sqlite3_bind_int64(statement.handle, 1, Int64(id))
          let code = sqlite3_step(statement.handle)
          guard code == SQLITE_ROW else { throw connection.error(code, lookupSQL) }
          statement.item().addTo(&checksum)
          sqlite3_reset(statement.handle)
        }
        return checksum.value
      },
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
          })
      ],
      raw: { connection in
        var checksum = Checksum()
        let statement = try connection.prepare(requestSQL)
        for id in ids {
          sqlite3_bind_int64(statement.handle, 1, Int64(id))
          var items: [Item] = []
          var code = sqlite3_step(statement.handle)
          while code == SQLITE_ROW {
            items.append(statement.item())
            code = sqlite3_step(statement.handle)
          }
          guard code == SQLITE_DONE else { throw connection.error(code, requestSQL) }
          sqlite3_reset(statement.handle)
          for item in items { item.addTo(&checksum) }
        }
        return checksum.value
      },
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
}
