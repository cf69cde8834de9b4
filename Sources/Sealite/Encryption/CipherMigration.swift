import Foundation

extension DatabaseQueue {
  /// Upgrades, in place, a database written by an older SQLCipher (format 1, 2
  /// or 3) to the format of the linked SQLCipher (`PRAGMA cipher_migrate`).
  ///
  ///     try DatabaseQueue.migrateCipherFormat(atPath: path, key: .passphrase("secret"))
  ///     let dbQueue = try DatabaseQueue(path: path, configuration: configKeyedWithSecret)
  ///
  /// The key stays the same. Take a copy of the file first: SQLCipher rewrites
  /// it (into a temporary attached database, then swaps it in). Throws if the
  /// key does not open the file with any older format's settings.
  public static func migrateCipherFormat(atPath path: String, key: DatabaseKey) throws {
    try Database.requireFile(atPath: path)
    let database = try Database(
      path: path, description: "Sealite.cipherMigration", configuration: Configuration(), readOnly: false)
    defer { database.close() }
    try database.withAccess { db in
      try db.use(key: key)
      // SQLCipher answers 0 when it migrated the file or found it current.
      let result = try String.fetchOne(db, sql: "PRAGMA cipher_migrate")
      guard result == "0" else {
        throw DatabaseError(
          resultCode: .SQLITE_NOTADB,
          message: "SQLCipher could not migrate \(path): the key does not open it in any known format")
      }
      try db.validateFileAccess()
    }
  }
}

extension Database {
  /// Throws `SQLITE_CANTOPEN` unless a file exists at `path`: whole-file
  /// operations must not create an empty database by opening a missing one.
  static func requireFile(atPath path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "no database file at \(path)")
    }
  }
}
