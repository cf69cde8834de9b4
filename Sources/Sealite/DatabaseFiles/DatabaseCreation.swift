import Foundation

extension DatabaseQueue {
  /// Creates a new, empty, encrypted database at `path`, atomically: the
  /// database appears whole, keyed with `key`, or not at all.
  ///
  ///     let key = DatabaseKey.randomRaw()
  ///     try DatabaseQueue.createDatabase(atPath: path, key: key)
  ///
  /// The file is written under a temporary name beside `path` (mode 0600) and
  /// renamed into place; a file (or a symbolic link, even a dangling one) that
  /// is at `path` before, or that another program creates there meanwhile, is
  /// never replaced: the creation fails with `SQLITE_CANTOPEN`, changing
  /// nothing. Holds the database's ``DatabaseFileLock``.
  ///
  /// - parameter path: where the database is created.
  /// - parameter key: its key.
  /// - parameter cipher: its cipher settings (by default the linked SQLCipher's).
  /// - parameter willPublish: called once the new file is written, right
  ///   before it is renamed into place; an error it throws ends the creation
  ///   with nothing created. (The keyring stores the key there.)
  public static func createDatabase(
    atPath path: String, key: DatabaseKey, cipher: CipherConfiguration = CipherConfiguration(),
    willPublish: (() throws -> Void)? = nil
  ) throws {
    try DatabaseFileLock.withLock(forDatabaseAtPath: path) {
      let output = try NewDatabaseFile(destination: path, overwrite: false)
      var published = false
      defer { if !published { output.discard() } }
      var config = Configuration()
      config.key = key
      config.cipher = cipher
      config.observesOtherProcesses = false
      // A keyed connection writes page 1 of an empty file at once.
      let dbQueue = try DatabaseQueue(path: output.temporaryPath, configuration: config)
      try dbQueue.close()
      try willPublish?()
      try output.publish(replacing: false)
      published = true
    }
  }
}
