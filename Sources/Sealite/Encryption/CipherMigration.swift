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

extension DatabaseQueue {
  /// The SQLCipher file format (1 to 4) of an encrypted database: the major
  /// SQLCipher version whose default settings open the file with `key`. Nil
  /// when the key opens it in no known format: a wrong key, a plaintext file,
  /// or a file that is not a database.
  ///
  ///     if try DatabaseQueue.cipherFormat(atPath: path, key: key) == 3 {
  ///       try DatabaseQueue.migrateCipherFormat(atPath: path, key: key)
  ///     }
  ///
  /// A format older than the linked SQLCipher's opens with
  /// ``CipherConfiguration/compatibility`` set to it, or after
  /// ``migrateCipherFormat(atPath:key:)``. Nothing is written.
  public static func cipherFormat(atPath path: String, key: DatabaseKey) throws -> Int? {
    try Database.requireFile(atPath: path)
    let linked = SQLiteFeatures.linked.sqlcipherVersionNumber?.split(separator: ".").first.flatMap { Int($0) }
    guard let linked else { return nil }
    // The settings of each older format, as the linked version spells them:
    // SQLCipher 4 has `cipher_compatibility`; SQLCipher 3 only the settings
    // themselves (formats 1 and 2 differ from 3 by their KDF iterations and HMAC).
    let older: [(format: Int, pragmas: [String])] =
      linked >= 4
      ? (1...linked - 1).reversed().map { ($0, ["PRAGMA cipher_compatibility = \($0)"]) }
      : [(2, ["PRAGMA kdf_iter = 4000"]), (1, ["PRAGMA kdf_iter = 4000", "PRAGMA cipher_use_hmac = OFF"])]
    for (format, pragmas) in [(linked, [])] + older
    where Database.keyOpensFile(atPath: path, key: key, cipherPragmas: pragmas) {
      return format
    }
    return nil
  }
}

extension Database {
  /// Throws `SQLITE_CANTOPEN` unless a file exists at `path`: whole-file
  /// operations must not create an empty database by opening a missing one,
  /// nor try to open a directory (SQLite then fails with a disk I/O error).
  static func requireFile(atPath path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "no database file at \(path)")
    }
    guard !isDirectory.boolValue else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN, message: "\(path) is a directory, not a database file")
    }
  }
}
