import CSQLCipher
import Foundation

extension Database {
  /// Prepares a freshly opened connection: key, user preparations, a first read
  /// that proves the key opens the file (before anything is written), then the
  /// connection settings.
  func setUp() throws {
    try withAccess { db in
      // The first page read is validateFileAccess, once the key is settled.
      db.skipSchemaValidationInThisAccess()
      try db.applyBusyMode()
      if db.isReadOnlyConnection, case .immediateError = db.busyMode {
        // A reader's first read may meet a lock that another connection holds
        // for a moment (WAL-index recovery while a pool's readers open
        // together): wait a little rather than fail. Its reads afterwards follow
        // the configured busy mode.
        sqlite3_busy_timeout(try db.connection, 5000)
      }
      defer { try? db.applyBusyMode() }
      if let key = configuration.rekeyedKey ?? configuration.key {
        try db.use(key: key)
      }
      for preparation in configuration.preparations {
        try preparation(db)
      }
      if configuration.derivesPassphraseForReaders { db.keyWithDerivedPassphrase() }
      // SQLite reads an empty file as an empty database, which a read-only
      // connection can never turn into a real one.
      if db.isReadOnlyConnection, Database.isZeroLengthFile(db.path) {
        throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "\(db.path) is empty: not a database")
      }
      try db.checkKeyOfUnauthenticatedFormat()
      try db.validateFileAccess()
      db.existingState(for: KeyingState.self)?.keyOfFirstRead = nil
      try db.createEncryptedFileIfEmpty()
      try db.execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeysEnabled ? "ON" : "OFF")")
      if db.isKeyed {
        // Sorts, temporary tables and indices of an encrypted database stay in
        // memory, so no plaintext temporary file is ever written.
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
      }
      if let pageCacheSize = configuration.pageCacheSize {
        try db.execute(sql: "PRAGMA cache_size = \(pageCacheSize)")
      } else if db.isKeyed, try db.integerPragma("cache_size") == Database.defaultCacheSize {
        // Still SQLite's default: prepareDatabase did not choose another.
        try db.execute(sql: "PRAGMA cache_size = \(Configuration.encryptedPageCacheSize)")
      }
    }
  }

  /// SQLCipher fixes a connection's salt when it is keyed: on an empty file it
  /// picks a random one. If two connections key the same empty file, the one
  /// that does not create it keeps a salt that does not match the file (seen
  /// with SQLCipher 3.4.1). So a keyed connection that finds the file empty
  /// creates it at once, under the write lock; if another connection created it
  /// in the meantime, this one must be reopened to read the file's salt.
  func createEncryptedFileIfEmpty() throws {
    guard isKeyed, !isReadOnlyConnection, Database.isEmptyFile(path) else { return }
    let connection = try self.connection
    // Wait for a concurrent creator rather than failing: it commits quickly.
    sqlite3_busy_timeout(connection, 5000)
    defer { try? applyBusyMode() }
    try execute(sql: "BEGIN IMMEDIATE TRANSACTION")
    guard Database.isEmptyFile(path) else {
      try execute(sql: "ROLLBACK TRANSACTION")
      throw ReopenNeeded()
    }
    do {
      // Writing the header creates page 1, encrypted with this connection's salt.
      try execute(sql: "PRAGMA user_version = 0")
      try execute(sql: "COMMIT TRANSACTION")
    } catch {
      try? execute(sql: "ROLLBACK TRANSACTION")
      throw error
    }
  }

  /// The busy mode of this connection: GRDB's 10 seconds for a pool's
  /// readers and snapshots (``Configuration/readersWaitForLocks``).
  var busyMode: BusyMode {
    isReadOnlyConnection && configuration.readersWaitForLocks ? .timeout(10) : configuration.busyMode
  }

  private func applyBusyMode() throws {
    let connection = try self.connection
    switch busyMode {
    case .immediateError:
      try waitForMomentaryLocks()
    case .timeout(let seconds):
      sqlite3_busy_timeout(connection, CInt(min(max(seconds, 0) * 1000, Double(CInt.max))))
    case .callback(let callback):
      try setBusyCallback(callback)
    }
  }
}

/// Thrown when a connection must be opened again (see `createEncryptedFileIfEmpty`).
struct ReopenNeeded: Error {}
