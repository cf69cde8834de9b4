extension DatabaseQueue {
  /// A queue on an in-memory copy of the database at `path`: what the program
  /// changes in the copy never reaches the file, and the copy is gone when
  /// the queue is released.
  ///
  ///     let dbQueue = try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: config)
  ///
  /// The file is opened read-only with `configuration` (its key opens an
  /// encrypted file), and copied with SQLite's backup API. With
  /// ``Configuration/readonly``, the copy refuses writes too
  /// (`PRAGMA query_only`).
  public static func inMemoryCopy(
    fromPath path: String, configuration: Configuration = Configuration()
  ) throws -> DatabaseQueue {
    try copy(fromPath: path, into: ":memory:", configuration: configuration)
  }

  /// A queue on a private temporary file that holds a copy of the database at
  /// `path`: for a copy too large for memory. SQLite deletes the file when
  /// the queue closes.
  ///
  ///     let dbQueue = try DatabaseQueue.temporaryCopy(fromPath: path, configuration: config)
  ///
  /// The copy of an encrypted database is encrypted with the same key, so
  /// its pages never reach the disk in plaintext. The file is opened
  /// read-only with `configuration`, and copied with SQLite's backup API.
  /// With ``Configuration/readonly``, the copy refuses writes too
  /// (`PRAGMA query_only`).
  public static func temporaryCopy(
    fromPath path: String, configuration: Configuration = Configuration()
  ) throws -> DatabaseQueue {
    // An empty path is SQLite's private temporary file, deleted on close.
    try copy(fromPath: path, into: "", configuration: configuration)
  }

  private static func copy(
    fromPath path: String, into copyPath: String, configuration: Configuration
  ) throws -> DatabaseQueue {
    try Database.requireFile(atPath: path)
    var sourceConfiguration = configuration
    sourceConfiguration.readonly = true
    sourceConfiguration.observesOtherProcesses = false
    sourceConfiguration.publishesChangedTables = false
    let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
    defer { try? source.close() }
    var copyConfiguration = configuration
    copyConfiguration.readonly = false
    copyConfiguration.journalMode = .default
    let copy = try DatabaseQueue(path: copyPath, configuration: copyConfiguration)
    try source.backup(to: copy)
    if configuration.readonly {
      // The copy was opened writable to receive the pages; SQLite can not
      // open an in-memory or temporary database read-only.
      try copy.inDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
    }
    return copy
  }
}
