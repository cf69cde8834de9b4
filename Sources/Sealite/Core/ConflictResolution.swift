extension Database {
  /// What SQLite does when an INSERT or UPDATE violates a constraint
  /// (https://www.sqlite.org/lang_conflict.html).
  public enum ConflictResolution: String, Sendable {
    /// Roll back the whole transaction.
    case rollback = "ROLLBACK"
    /// Undo the statement and fail (the default).
    case abort = "ABORT"
    /// Fail, keeping the rows the statement already changed.
    case fail = "FAIL"
    /// Skip the row that violates the constraint.
    case ignore = "IGNORE"
    /// Delete the conflicting rows, then insert: cascades and delete triggers
    /// fire, the rowid changes, and columns not written get their defaults.
    case replace = "REPLACE"
  }
}

extension Database.ConflictResolution {
  /// The `OR …` words of an INSERT or UPDATE (`UPDATE OR IGNORE "player" …`).
  /// Empty for ABORT, SQLite's own default, so that statements read as GRDB
  /// writes them.
  var orClause: String { self == .abort ? "" : "OR \(rawValue) " }
}
