import CSQLCipher

extension Database {
  /// Prepares a freshly opened connection: key, user preparations, a first read
  /// that proves the key opens the file (before anything is written), then the
  /// connection settings.
  func setUp() throws {
    try withAccess { db in
      try db.applyBusyMode()
      if let key = configuration.rekeyedKey ?? configuration.key {
        try db.use(key: key)
      }
      for preparation in configuration.preparations {
        try preparation(db)
      }
      try db.validateFileAccess()
      try db.execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeysEnabled ? "ON" : "OFF")")
      if db.isKeyed {
        // Sorts, temporary tables and indices of an encrypted database stay in
        // memory, so no plaintext temporary file is ever written.
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
      }
      if let pageCacheSize = configuration.pageCacheSize {
        try db.execute(sql: "PRAGMA cache_size = \(pageCacheSize)")
      }
    }
  }

  private func applyBusyMode() throws {
    let connection = try self.connection
    switch configuration.busyMode {
    case .immediateError:
      sqlite3_busy_timeout(connection, 0)
    case .timeout(let seconds):
      sqlite3_busy_timeout(connection, CInt(min(max(seconds, 0) * 1000, Double(CInt.max))))
    }
  }
}
