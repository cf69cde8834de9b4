// What every workload shares: the record type, the rows it inserts, the keys,
// the temporary directory and the options of the run.

import Foundation
import Sealite

/// One row of `item(id INTEGER PRIMARY KEY, name TEXT, score REAL, flag INTEGER)`.
struct Item: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "item"
  var id: Int
  var name: String
  var score: Double
  var flag: Int

  /// The row number `index` (from 1) of every workload, on both sides.
  static func make(_ index: Int) -> Item {
    Item(id: index, name: "name-\(index)", score: Double(index) * 0.25, flag: index % 2)
  }

  static func make(count: Int) -> [Item] {
    (1...max(count, 1)).map(make)
  }

  func addTo(_ checksum: inout Checksum) {
    checksum.add(id)
    checksum.add(name)
    checksum.add(score)
    checksum.add(flag)
  }
}

let createItemTableSQL = "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, score REAL, flag INTEGER)"
let insertItemSQL = "INSERT INTO item (id, name, score, flag) VALUES (?, ?, ?, ?)"
let selectItemsSQL = "SELECT id, name, score, flag FROM item"

/// A database key, in the two forms the benchmark needs: Sealite's
/// `DatabaseKey` and the bytes handed to `sqlite3_key_v2`.
struct BenchKey: Sendable {
  enum Kind: Sendable {
    case raw
    case passphrase
    /// No key: a plaintext database (the cache-size workload's comparison).
    case none
  }

  /// No key at all.
  static let plaintext = BenchKey(kind: .none, bytes: [])
  let kind: Kind
  private let bytes: [UInt8]

  static func randomRaw() -> BenchKey {
    var generator = SystemRandomNumberGenerator()
    return BenchKey(kind: .raw, bytes: (0..<32).map { _ in generator.next() })
  }

  static func randomPassphrase() -> BenchKey {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    var generator = SystemRandomNumberGenerator()
    return BenchKey(
      kind: .passphrase, bytes: (0..<24).map { _ in alphabet.randomElement(using: &generator)! })
  }

  /// The key for Sealite's `Configuration.key`.
  func databaseKey() throws -> DatabaseKey {
    switch kind {
    case .raw: return try .raw(Data(bytes))
    case .passphrase: return .passphrase(Data(bytes))
    case .none: throw BenchError("a plaintext database has no key")
    }
  }

  /// A passphrase's bytes, for `db.usePassphrase(_:)`.
  var passphraseData: Data { Data(bytes) }

  /// The key bytes as 64 hex digits (raw keys), for the helper processes'
  /// standard input. Never printed.
  var hex: String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  init(kind: Kind, bytes: [UInt8]) {
    self.kind = kind
    self.bytes = bytes
  }

  /// Reads a raw key given as hex digits.
  init?(rawHex: String) {
    var bytes: [UInt8] = []
    var index = rawHex.startIndex
    while index < rawHex.endIndex {
      let next = rawHex.index(index, offsetBy: 2, limitedBy: rawHex.endIndex) ?? rawHex.endIndex
      guard let byte = UInt8(rawHex[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    guard bytes.count == 32 else { return nil }
    self.init(kind: .raw, bytes: bytes)
  }

  /// The bytes Sealite passes to `sqlite3_key_v2` for this key.
  var sqlcipherKeyBytes: [UInt8] {
    switch kind {
    case .passphrase:
      return bytes
    case .raw:
      return Array("x'".utf8) + Array(hex.utf8) + Array("'".utf8)
    case .none:
      return []
    }
  }
}

/// The options of a run, and the temporary directory its files live in.
struct BenchContext: Sendable {
  var rows = 100_000
  var rounds = 5
  var lookups = 20_000
  var requests = 10_000
  var commits = 1_000
  var memoryRows = 1_000_000
  var cacheSize: Int?
  var directory: URL
  /// The key of every database but the passphrase ones: random for each run.
  let rawKey: BenchKey
  let passphrase = BenchKey.randomPassphrase()

  init(directory: URL, key: BenchKey = .randomRaw()) {
    self.directory = directory
    rawKey = key
  }

  /// A new path in the temporary directory.
  func path(_ name: String) -> String {
    directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8)).sqlite").path
  }

  /// Sealite's configuration for the benchmark's databases.
  func configuration(key: BenchKey? = nil) throws -> Configuration {
    var config = Configuration()
    config.key = try (key ?? rawKey).databaseKey()
    config.pageCacheSize = cacheSize
    return config
  }

  /// A raw connection with the same settings.
  func rawConnection(_ path: String, key: BenchKey? = nil, readOnly: Bool = false, tight: Bool = false) throws
    -> RawConnection
  {
    try RawConnection(path: path, key: key ?? rawKey, readOnly: readOnly, cacheSize: cacheSize, tight: tight)
  }

  /// Removes a database and its journal files.
  func remove(_ path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }

  /// A new database holding `count` items, written with the C API (untimed).
  func populatedDatabase(_ name: String, count: Int) throws -> String {
    let path = path(name)
    let connection = try rawConnection(path)
    try connection.execute(createItemTableSQL)
    try connection.execute("BEGIN IMMEDIATE TRANSACTION")
    let statement = try connection.prepare(insertItemSQL)
    for index in 1...count {
      try statement.insert(Item.make(index))
    }
    try connection.execute("COMMIT TRANSACTION")
    return path
  }
}

/// The item as a record that reads its row in `init(row:)`, by column name as
/// GRDB's documentation writes it: the fastest GRDB-compatible way to fetch
/// records, which pays none of the Codable machinery (see CodableFloor.swift).
struct RowInitializedItem: FetchableRecord, TableRecord {
  static let databaseTableName = "item"
  var item: Item

  init(row: Row) {
    item = Item(id: row["id"], name: row["name"], score: row["score"], flag: row["flag"])
  }
}

/// The item as a record that fills its persistence container itself, as
/// GRDB's documentation writes it: the fastest GRDB-compatible way to insert
/// records, which pays none of the Codable machinery.
struct ContainerEncodedItem: PersistableRecord {
  static let databaseTableName = "item"
  var item: Item

  func encode(to container: inout PersistenceContainer) {
    container["id"] = item.id
    container["name"] = item.name
    container["score"] = item.score
    container["flag"] = item.flag
  }
}
