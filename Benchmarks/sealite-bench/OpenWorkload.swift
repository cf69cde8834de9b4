// Workload 7: opening a DatabasePool whose 8 readers all open, on an
// encrypted database keyed by passphrase (SQLCipher derives the key with
// PBKDF2 for each connection it keys with a passphrase) and by raw key.
//
// Timed: DatabasePool.init, then 8 concurrent reads (one thread each) that
// each count the rows and wait inside `read` until all 8 are there, so that
// the pool opens all its 8 readers. Closing the pool is not timed.
//
// Baselines with the C API, connections opened one after another, each with
// sqlite3_open_v2, sqlite3_key_v2, the setup of RawSQLite.swift (which reads
// sqlite_master: where SQLCipher derives the key) and the same count:
//
//   8 passphrase connections; 1 passphrase connection (one key derivation:
//   target pool with passphrase ≤1.1× that, whether the passphrase is given in
//   Configuration.key or by db.usePassphrase in prepareDatabase, GRDB's way);
//   8 raw-key connections.

import Dispatch
import Foundation
import Sealite
import Synchronization

enum OpenWorkload {
  static let readers = 8
  static let countSQL = "SELECT count(*) FROM item"

  /// Lets `count` threads wait for each other.
  final class Rendezvous: Sendable {
    private let count: Int
    private let arrived = Mutex(0)
    private let released = DispatchSemaphore(value: 0)

    init(count: Int) {
      self.count = count
    }

    /// Returns once all have arrived, or false after `timeout` seconds.
    func arriveAndWait(timeout: Double) -> Bool {
      let number = arrived.withLock { arrived -> Int in
        arrived += 1
        return arrived
      }
      if number == count {
        for _ in 1..<count { released.signal() }
        return true
      }
      return released.wait(timeout: .now() + timeout) == .success
    }
  }

  final class Outcomes: Sendable {
    let results = Mutex<[Result<Int, any Error>]>([])
  }

  static func run(_ context: BenchContext) throws -> [ResultRow] {
    let passphrasePath = try makeDatabase(context, key: context.passphrase)
    let rawKeyPath = try makeDatabase(context, key: context.rawKey)
    defer {
      context.remove(passphrasePath)
      context.remove(rawKeyPath)
    }
    let sides = [
      Side(name: "pool, passphrase") { try pool(context, passphrasePath, key: context.passphrase) },
      Side(name: "pool, prepareDatabase") {
        try pool(context, passphrasePath, key: context.passphrase, inPrepareDatabase: true)
      },
      Side(name: "8 raw passphrase") {
        try rawConnections(context, passphrasePath, key: context.passphrase, count: readers)
      },
      Side(name: "1 raw passphrase") {
        try rawConnections(context, passphrasePath, key: context.passphrase, count: 1)
      },
      Side(name: "pool, raw key") { try pool(context, rawKeyPath, key: context.rawKey) },
      Side(name: "8 raw raw-key") {
        try rawConnections(context, rawKeyPath, key: context.rawKey, count: readers)
      },
    ]
    let times = try compare("open-pool", rounds: context.rounds, sides: sides)
    for (side, values) in zip(sides, times) {
      progress(String(format: "  open-pool, %@: %.1f ms", side.name, medianOf(values)))
    }
    return [
      .comparison(
        "open-pool", "pool + \(readers) readers, passphrase", Comparison(raw: times[2], sealite: times[0]),
        baseline: "\(readers) passphrase connections, one after another"),
      .comparison(
        "open-pool", "pool + \(readers) readers, passphrase / one key derivation",
        Comparison(raw: times[3], sealite: times[0]), target: 1.1, baseline: "1 passphrase connection"),
      .comparison(
        "open-pool", "pool + \(readers) readers, passphrase in prepareDatabase / one key derivation",
        Comparison(raw: times[3], sealite: times[1]), target: 1.1, baseline: "1 passphrase connection"),
      .comparison(
        "open-pool", "pool + \(readers) readers, raw key", Comparison(raw: times[5], sealite: times[4]),
        baseline: "\(readers) raw-key connections, one after another"),
    ]
  }

  /// A WAL database with a few rows, made with Sealite (untimed).
  static func makeDatabase(_ context: BenchContext, key: BenchKey) throws -> String {
    let path = context.path("open")
    let dbPool = try DatabasePool(path: path, configuration: context.configuration(key: key))
    try dbPool.write { db in
      try db.execute(sql: createItemTableSQL)
      for index in 1...100 {
        try Item.make(index).insert(db)
      }
    }
    try dbPool.close()
    return path
  }

  /// Opens a pool and makes its readers open; returns the time and the row count.
  static func pool(_ context: BenchContext, _ path: String, key: BenchKey, inPrepareDatabase: Bool = false)
    throws -> (Double, Int)
  {
    var config = try context.configuration(key: key)
    if inPrepareDatabase {
      // GRDB's way: no Configuration.key, a passphrase applied to each connection.
      config.key = nil
      let passphrase = key.passphraseData
      config.prepareDatabase { db in try db.usePassphrase(passphrase) }
    }
    config.maximumReaderCount = readers
    let rendezvous = Rendezvous(count: readers)
    let outcomes = Outcomes()
    let group = DispatchGroup()
    var dbPool: DatabasePool?
    let milliseconds = try timed {
      let pool = try DatabasePool(path: path, configuration: config)
      dbPool = pool
      for _ in 0..<readers {
        group.enter()
        Thread {
          let result = Result {
            try pool.read { db -> Int in
              let count = try Int.fetchOne(db, sql: countSQL) ?? -1
              guard rendezvous.arriveAndWait(timeout: 60) else {
                throw BenchError("open-pool: the \(readers) readers were not all inside read after 60 s")
              }
              return count
            }
          }
          outcomes.results.withLock { $0.append(result) }
          group.leave()
        }.start()
      }
      group.wait()
    }
    try dbPool?.close()
    let counts = try outcomes.results.withLock { results in try results.map { try $0.get() } }
    guard counts.count == readers, Set(counts).count == 1, let count = counts.first else {
      throw BenchError("open-pool: the readers saw different row counts: \(counts)")
    }
    return (milliseconds, count)
  }

  /// Opens `count` raw connections one after another; returns the time and the row count.
  static func rawConnections(
    _ context: BenchContext, _ path: String, key: BenchKey, count: Int
  ) throws -> (Double, Int) {
    var connections: [RawConnection] = []
    var counts: [Int] = []
    let milliseconds = try timed {
      for _ in 0..<count {
        let connection = try context.rawConnection(path, key: key, readOnly: true)
        counts.append(try connection.integer(countSQL))
        connections.append(connection)
      }
    }
    connections.removeAll()
    guard Set(counts).count == 1, let rows = counts.first else {
      throw BenchError("open-pool: raw connections saw different row counts: \(counts)")
    }
    return (milliseconds, rows)
  }
}
