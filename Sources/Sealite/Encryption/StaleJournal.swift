import CSQLCipher
import Foundation

extension Database {
  /// Removes a `-journal` beside the database that holds nothing to roll back
  /// (its header zeroed or never written, as a crash, or SQLCipher giving up
  /// a key change, leaves it): SQLite ignores such a file, and leaves it
  /// there. Returns true if one was removed.
  ///
  /// Safe because it holds the database's exclusive lock meanwhile: no other
  /// connection has a transaction the file could belong to, and taking the
  /// lock rolled back a journal that was hot.
  func removeStaleJournal() throws -> Bool {
    let journal = path + "-journal"
    guard Database.isFile(path), FileManager.default.fileExists(atPath: journal) else { return false }
    let connection = try self.connection
    // Straight to SQLite: a transaction of its own, never seen by observers.
    let code = sqlite3_exec(connection, "BEGIN EXCLUSIVE TRANSACTION", nil, nil, nil)
    guard code == SQLITE_OK else { throw DatabaseError.fromConnection(connection, code: code) }
    defer { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
    return FileManager.default.fileExists(atPath: journal) && unlink(journal) == 0
  }
}

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
