// Where the connection meets the feature probe: the probe (Features, the
// lowest layer) knows versions and capabilities; the connection asks it.

extension Database {
  /// The features of the linked SQLCipher library.
  public var features: SQLiteFeatures { SQLiteFeatures.linked }
}

extension DatabaseError {
  /// The error to throw for a statement SQLite could not compile: a
  /// ``SQLiteFeatureError`` when the statement uses a capability the linked
  /// SQLite lacks, else the error itself.
  func namingMissingCapability(sql: String) -> any Error {
    guard resultCode == .SQLITE_ERROR, let capability = SQLiteFeatures.linked.missingCapability(usedBy: sql)
    else {
      return self
    }
    return SQLiteFeatureError(
      capability: capability, presentVersion: SQLiteFeatures.linked.sqliteVersion, sql: self.sql,
      sqliteMessage: message)
  }
}
