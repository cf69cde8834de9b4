import CSQLCipher

extension Database {
  /// The version number of the linked SQLite (`sqlite3_libversion_number()`),
  /// 3046001 for SQLite 3.46.1: the one SQLCipher bundles.
  ///
  ///     if Database.sqliteLibVersionNumber >= 3_035_000 { /* RETURNING */ }
  ///
  /// ``SQLiteFeatures`` tells capabilities, which versions alone do not
  /// (compile options, SQLCipher's own).
  public static var sqliteLibVersionNumber: CInt { sqlite3_libversion_number() }

  /// The mode of a WAL checkpoint (see
  /// <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>).
  ///
  ///     try dbPool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
  public enum CheckpointMode: CInt, Sendable {
    /// `SQLITE_CHECKPOINT_PASSIVE`: as many frames as can be, without waiting.
    case passive = 0
    /// `SQLITE_CHECKPOINT_FULL`: waits for writers, then copies every frame.
    case full = 1
    /// `SQLITE_CHECKPOINT_RESTART`: as full, then waits for readers so that
    /// the next writer restarts the WAL from its start.
    case restart = 2
    /// `SQLITE_CHECKPOINT_TRUNCATE`: as restart, and truncates the `-wal` file.
    case truncate = 3
  }

  /// Runs a WAL checkpoint; returns the frames in the WAL and those copied
  /// into the database (both -1 when the database is not in WAL mode).
  ///
  ///     try dbPool.writeWithoutTransaction { db in
  ///       let (walFrameCount, checkpointedFrameCount) = try db.checkpoint(.full)
  ///     }
  ///
  /// A checkpoint of an encrypted database copies encrypted pages: nothing
  /// is written in plaintext. `SQLITE_BUSY` means another connection kept a
  /// full, restart or truncate checkpoint from completing.
  ///
  /// - parameter kind: the checkpoint mode, `.passive` by default.
  /// - parameter dbName: the schema, `"main"` by default; nil checkpoints
  ///   every attached database.
  @discardableResult
  public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws
    -> (walFrameCount: Int, checkpointedFrameCount: Int)
  {
    let connection = try self.connection
    var walFrameCount: CInt = -1
    var checkpointedFrameCount: CInt = -1
    let code = sqlite3_wal_checkpoint_v2(
      connection, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
    guard code == SQLITE_OK else {
      throw DatabaseError.fromConnection(connection, code: code)
    }
    return (Int(walFrameCount), Int(checkpointedFrameCount))
  }

  /// Frees as much memory of this connection as possible: SQLite's page
  /// cache (`sqlite3_db_release_memory`), the cached statements, and what
  /// Sealite derived from the schema. They are built again when needed.
  ///
  ///     try dbQueue.writeWithoutTransaction { db in db.releaseMemory() }
  ///
  /// Statements that cursors are stepping are kept by their cursors.
  public func releaseMemory() {
    guard let sqliteConnection else { return }
    sqlite3_db_release_memory(sqliteConnection)
    // Every layer's state on the connection is a cache derived from the
    // schema: forgetting it is what a schema change does.
    schemaDidChange()
  }

  /// The result code of the last failed SQLite call on this connection.
  public var lastErrorCode: ResultCode { ResultCode(rawValue: sqlite3_errcode(sqliteConnection)) }

  /// SQLite's message for the last failed call on this connection.
  public var lastErrorMessage: String? {
    guard let message = sqlite3_errmsg(sqliteConnection) else { return nil }
    return String(cString: message)
  }

  /// The largest number of arguments a statement may take
  /// (`SQLITE_LIMIT_VARIABLE_NUMBER`): 32766 from SQLite 3.32, 999 before.
  public var maximumStatementArgumentCount: Int {
    Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
  }

  /// Whether `tableName` names one of SQLite's internal schema objects
  /// (`sqlite_master`, `sqlite_sequence`, …, and `pragma_` table functions).
  public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
    tableName.starts(with: "sqlite_") || tableName.starts(with: "pragma_")
  }

  /// Whether `tableName` names a table of GRDB's or Sealite's own
  /// (`grdb_migrations`, `sealite_change_journal`, …).
  public static func isGRDBInternalTable(_ tableName: String) -> Bool {
    tableName.starts(with: "grdb_") || tableName.starts(with: "sealite_")
  }
}

extension Database: CustomStringConvertible, CustomDebugStringConvertible {
  /// "<Database: label>", the ``description`` in brackets.
  public var debugDescription: String { "<Database: \(description)>" }
}
