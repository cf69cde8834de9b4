// The encryption cost of reads, by page-cache size: the same 100,000 rows in a
// plaintext and in an encrypted file, read with the C API on one connection
// each, warm (the warm-up round fills the cache). Both reads decrypt only the
// pages that are not in the cache, so a cache that holds the working set
// brings encrypted reads close to plaintext ones.
//
//   cache-size   for each cache size: a full scan of every column, and
//                --lookups primary-key lookups of random ids
//
// In the table, the "Raw C API" column is the plaintext file and the
// "Sealite" column the encrypted one; the ratio is the cost of encryption.

import CSQLCipher
import Foundation
import Sealite

enum CacheSizeWorkload {
  /// Cache sizes in KiB (SQLite's default is 2,000 KiB).
  static let sizes = [2_000, 8_000, 32_000]

  static func run(_ context: BenchContext) throws -> [ResultRow] {
    let plainPath = context.path("plain")
    let encryptedPath = context.path("encrypted")
    defer {
      context.remove(plainPath)
      context.remove(encryptedPath)
    }
    for (path, key) in [(plainPath, BenchKey.plaintext), (encryptedPath, context.rawKey)] {
      let connection = try RawConnection(path: path, key: key)
      try connection.execute(createItemTableSQL)
      try connection.execute("BEGIN IMMEDIATE TRANSACTION")
      let statement = try connection.prepare(insertItemSQL)
      for index in 1...context.rows { try statement.insert(Item.make(index)) }
      try connection.execute("COMMIT TRANSACTION")
    }
    var generator = LookupWorkload.SeededGenerator(state: 11)
    let ids = (0..<context.lookups).map { _ in Int.random(in: 1...context.rows, using: &generator) }
    var rows: [ResultRow] = []
    for size in sizes {
      let plain = try RawConnection(path: plainPath, key: .plaintext, readOnly: true, cacheSize: -size)
      let encrypted = try RawConnection(
        path: encryptedPath, key: context.rawKey, readOnly: true, cacheSize: -size)
      let scan = try compare(
        "scan, cache \(size) KiB", rounds: context.rounds, raw: side("plaintext", plain, scan: true, ids),
        sealite: side("encrypted", encrypted, scan: true, ids))
      rows.append(
        .comparison(
          "cache-size", "full scan, cache_size \(size) KiB (plaintext vs encrypted)", scan,
          baseline: "plaintext file", note: "both sides are the C API; the ratio is the cost of encryption"))
      let lookups = try compare(
        "lookups, cache \(size) KiB", rounds: context.rounds,
        raw: side("plaintext", plain, scan: false, ids),
        sealite: side("encrypted", encrypted, scan: false, ids))
      rows.append(
        .comparison(
          "cache-size", "\(ids.count) lookups, cache_size \(size) KiB (plaintext vs encrypted)", lookups,
          baseline: "plaintext file", note: "both sides are the C API; the ratio is the cost of encryption"))
    }
    return rows
  }

  /// One side: a scan of every row, or the lookups, in one read transaction.
  private static func side(_ name: String, _ connection: RawConnection, scan: Bool, _ ids: [Int]) -> Side {
    Side(name: name) {
      var checksum = Checksum()
      let milliseconds = try timed {
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        if scan {
          let statement = try connection.prepare(selectItemsSQL)
          while sqlite3_step(statement.handle) == SQLITE_ROW { statement.item().addTo(&checksum) }
        } else {
          let statement = try connection.prepare(selectItemsSQL + " WHERE id = ?")
          for id in ids {
            sqlite3_bind_int64(statement.handle, 1, Int64(id))
            guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw BenchError("no row \(id)") }
            statement.item().addTo(&checksum)
            sqlite3_reset(statement.handle)
          }
        }
      }
      return (milliseconds, checksum.value)
    }
  }
}
