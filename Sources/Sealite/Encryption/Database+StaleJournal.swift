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
