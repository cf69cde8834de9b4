// `make demo`: what the linked SQLCipher offers, then an encrypted database
// written, read back, and checked for plaintext on disk.
import Foundation
import Sealite

// MARK: The feature probe

let features = SQLiteFeatures.linked
print("Sealite feature probe")
print(String(repeating: "=", count: 60))
func line(_ name: String, _ value: String) {
  print(name.padding(toLength: 28, withPad: " ", startingAt: 0) + value)
}
line("SQLCipher", features.sqlcipherVersion ?? "not SQLCipher")
line("SQLite (bundled)", "\(features.sqliteVersion) (\(features.sqliteVersionNumber))")
line(
  "crypto provider",
  [features.cryptoProvider, features.cryptoProviderVersion].compactMap { $0 }.joined(separator: " "))
line(
  "compile options",
  "\(features.compileOptions.count) (e.g. \(features.compileOptions.prefix(3).joined(separator: ", ")))")
print(String(repeating: "-", count: 60))
for capability in SQLiteFeatures.Capability.allCases {
  let mark = features.supports(capability) ? "yes" : "no "
  line(capability.name, "\(mark)   (SQLite \(capability.minimumSQLiteVersion)+)")
}
print()

// MARK: An encrypted database

struct Player: Codable, FetchableRecord, MutablePersistableRecord {
  var id: Int64?
  var name: String
  var score: Int
  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sealite-demo-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let path = directory.appendingPathComponent("demo.sqlite").path

// A random raw key: no key derivation cost. (A real app keeps it in the keyring.)
var config = Configuration()
config.key = DatabaseKey.randomRaw()
let dbPool = try DatabasePool(path: path, configuration: config)

var migrator = DatabaseMigrator()
migrator.registerMigration("v1") { db in
  try db.create(table: "player") { t in
    t.autoIncrementedPrimaryKey("id")
    t.column("name", .text).notNull()
    t.column("score", .integer).notNull()
  }
}
try migrator.migrate(dbPool)

let players = [
  Player(id: nil, name: "Arthur Dent", score: 42), Player(id: nil, name: "Ford Prefect", score: 1000),
  Player(id: nil, name: "Trillian Astra", score: 250),
]
try dbPool.write { db in
  for var player in players {
    try player.insert(db)
  }
}

let fetched = try dbPool.read { db in
  try Player.order(Column("score").desc).fetchAll(db)
}
print("Players read back from the encrypted pool:")
for player in fetched {
  print(
    "  #\(player.id ?? 0) \(player.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(player.score)")
}
let best = try dbPool.read { db in
  try Player.filter(Column("score") > 100).order(Column("score").desc).fetchOne(db)
}
print("Best player: \(best?.name ?? "none")")
print()

// MARK: Nothing readable on disk

try dbPool.writeWithoutTransaction { db in _ = try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
print("Files on disk:")
var leaked: [String] = []
for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
  let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) ?? Data()
  let header = String(decoding: data.prefix(15), as: UTF8.self)
  print(
    "  \(name): \(data.count) bytes, plaintext SQLite header: \(header == "SQLite format 3" ? "yes" : "no")")
  for player in players where data.range(of: Data(player.name.utf8)) != nil {
    leaked.append("\(player.name) in \(name)")
  }
}
if leaked.isEmpty {
  print("None of the written names appear in any file: the data is encrypted at rest.")
} else {
  print("PLAINTEXT FOUND: \(leaked.joined(separator: ", "))")
  exit(1)
}
try dbPool.close()
