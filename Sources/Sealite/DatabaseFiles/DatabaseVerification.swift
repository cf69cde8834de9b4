import Foundation

/// What ``DatabaseQueue/verifyDatabase(atPath:key:cipher:)`` found.
public struct DatabaseVerification: Sendable, Equatable {
  /// True if the database is encrypted (it was opened with a key).
  public var isEncrypted: Bool
  /// The pages whose HMAC does not match their content: tampered with, or
  /// damaged (`PRAGMA cipher_integrity_check`; empty where SQLCipher lacks it).
  public var tamperedPages: [Int]
  /// What `PRAGMA cipher_integrity_check` reported, line by line.
  public var cipherMessages: [String]
  /// What `PRAGMA integrity_check` reported: `["ok"]` for a sound database.
  public var integrityMessages: [String]
  /// WAL frames that fail their checksum although committed frames follow:
  /// SQLite ignores them and those commits, so reads show an older state.
  public var walMessages: [String] = []

  /// True if no check found a problem.
  public var isValid: Bool {
    tamperedPages.isEmpty && cipherMessages.isEmpty && integrityMessages == ["ok"] && walMessages.isEmpty
  }
}

extension DatabaseQueue {
  /// Checks a database without writing to it: SQLCipher's page
  /// authentication (`PRAGMA cipher_integrity_check`, which names tampered
  /// pages, where the linked SQLCipher has it), SQLite's structure
  /// (`PRAGMA integrity_check`), and the checksums of the WAL's frames
  /// (``DatabaseVerification/walMessages``).
  ///
  /// Throws the usual opening errors when the key does not open the file, the
  /// file is encrypted and no key is given, a key is given for a plaintext
  /// file, or the file is not a database. `cipher` gives the settings of a
  /// file written with others (``cipherFormat(atPath:key:)`` tells an older
  /// format).
  public static func verifyDatabase(
    atPath path: String, key: DatabaseKey?, cipher: CipherConfiguration = CipherConfiguration()
  ) throws -> DatabaseVerification {
    try Database.requireFile(atPath: path)
    var config = Configuration()
    config.key = key
    config.cipher = cipher
    config.readonly = true
    config.allowsUnsafeTransactions = true
    let dbQueue = try DatabaseQueue(path: path, configuration: config)
    defer { try? dbQueue.close() }
    // One read transaction: every check sees the same state of the file, and
    // a key change of another connection waits for the end of the checks
    // instead of landing between them (its pages would read as tampered).
    return try dbQueue.writer.sync { db in
      // Ended by a rollback: the check of an encrypted transaction's commit
      // would throw for the very pages this reports.
      // Rolled back however the checks end, also when the first read fails
      // after BEGIN (another process's key change holds the file locked):
      // the connection never closes with the transaction open.
      defer { try? db.execute(sql: "ROLLBACK") }
      try db.execute(sql: "BEGIN DEFERRED TRANSACTION; SELECT count(*) FROM sqlite_master")
      do {
        var cipherMessages: [String] = []
        var tamperedPages: [Int] = []
        if key != nil {
          cipherMessages = (try? String.fetchAll(db, sql: "PRAGMA cipher_integrity_check")) ?? []
          for message in cipherMessages {
            // "HMAC verification failed for page 4"
            if message.contains("page"), let page = message.split(separator: " ").last.flatMap({ Int($0) }) {
              tamperedPages.append(page)
            }
          }
        }
        var integrityMessages: [String]
        do {
          integrityMessages = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        } catch let error as DatabaseError {
          // A page that fails authentication can not even be read.
          integrityMessages = ["integrity check stopped: \(error.message ?? "\(error.resultCode)")"]
        }
        return DatabaseVerification(
          isEncrypted: key != nil, tamperedPages: tamperedPages, cipherMessages: cipherMessages,
          integrityMessages: integrityMessages, walMessages: WALFrameCheck.problems(databasePath: path))
      }
    }
  }
}
