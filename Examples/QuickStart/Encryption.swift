import Foundation
import Sealite

/// The DocC article "Encryption and keys": passphrases, key changes, opening errors,
/// and export, on databases of their own in `directory`.
func encryptionExamples(in directory: URL) throws {
  let path = directory.appendingPathComponent("notes.sqlite").path
  let copyPath = directory.appendingPathComponent("notes-copy.sqlite").path

  // README:begin encryption-passphrase
  var config = Configuration()
  config.key = .passphrase("correct horse battery staple")
  let dbPool = try DatabasePool(path: path, configuration: config)  // one key derivation for all connections
  try dbPool.write { db in
    try db.execute(sql: "CREATE TABLE note (text TEXT NOT NULL)")
    try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: ["buy milk"])
  }

  // Re-encrypts every page; reads in progress finish first, readers reconnect with the new key.
  try dbPool.changePassphrase("a longer passphrase, typed by nobody")

  // The old passphrase no longer opens the file: the error says so, and shows no key.
  do {
    _ = try DatabaseQueue(path: path, configuration: config)
  } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
    print(error)  // … the key does not open this database: wrong key, or wrong cipher settings …
  }
  // README:end encryption-passphrase
  try dbPool.close()
  check(
    hasPrinted(containing: "the key does not open this database"), "the old passphrase still opens the file")

  // README:begin encryption-export
  // A copy with a new random raw key, written beside and checked before it is renamed.
  let newKey = DatabaseKey.randomRaw()
  try DatabaseQueue.exportDatabase(
    atPath: path, key: .passphrase("a longer passphrase, typed by nobody"),
    to: copyPath, destinationKey: newKey)

  var copyConfig = Configuration()
  copyConfig.key = newKey
  let copy = try DatabaseQueue(path: copyPath, configuration: copyConfig)
  let notes = try copy.read { db in try String.fetchAll(db, sql: "SELECT text FROM note") }
  // README:end encryption-export
  check(notes == ["buy milk"], "exported notes: \(notes)")
  try copy.close()
}
