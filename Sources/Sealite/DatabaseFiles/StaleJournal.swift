import CSQLCipher
import Foundation

extension DatabaseQueue {
  /// Removes a `-journal` beside the database at `path` that holds nothing to
  /// roll back (see the crash cases of `dbkey recover`), after rolling back
  /// one that was hot. Returns true if one was removed. Waits up to five
  /// seconds for other connections' locks.
  ///
  /// - parameter path: the database.
  /// - parameter key: its key, nil for plaintext.
  /// - parameter cipher: its cipher settings.
  public static func removeStaleJournal(
    atPath path: String, key: DatabaseKey?, cipher: CipherConfiguration = CipherConfiguration()
  ) throws -> Bool {
    guard FileManager.default.fileExists(atPath: path + "-journal") else { return false }
    var config = Configuration()
    config.key = key
    config.cipher = cipher
    config.observesOtherProcesses = false
    config.busyMode = .timeout(5)
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    defer { try? dbQueue.close() }
    return try dbQueue.writer.sync { db in try db.removeStaleJournal() }
  }
}
