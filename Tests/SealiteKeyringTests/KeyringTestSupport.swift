import Foundation
import Sealite
import SealiteKeyring

/// The names of the keyring items of `database` (its key, its pending key).
func itemNames(_ keyring: Keyring, _ database: KeyringDatabase) throws -> [String] {
  try keyring.items().filter { $0.attributes["path"] == database.canonicalPath }
    .map { $0.attributes["name"] ?? "" }.sorted()
}

/// A database keyed with `key`, holding one row.
func makeDatabase(_ path: String, key: DatabaseKey) throws {
  var config = Configuration()
  config.key = key
  let dbQueue = try DatabaseQueue(path: path, configuration: config)
  try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('kept')") }
  try dbQueue.close()
}

/// True if `key` opens the database at `path`.
func opens(_ path: String, _ key: DatabaseKey) -> Bool {
  var config = Configuration()
  config.key = key
  return (try? DatabaseQueue(path: path, configuration: config).read { _ in }) != nil
}
