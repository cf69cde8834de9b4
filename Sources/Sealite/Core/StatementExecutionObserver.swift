/// Told of every statement a connection runs: the observation layer implements
/// it (Core does not know observation; it only calls these points).
protocol StatementExecutionObserver: AnyObject {
  /// Called before `statement` runs; `restriction` names the only rows this
  /// run can select, when known. The returned value is handed back to
  /// ``statementDidExecute(_:context:)`` or ``statementDidFail(_:context:error:)``.
  func statementWillExecute(_ statement: Statement, restriction: RowIDRestriction?) throws -> AnyObject?
  /// Called once `statement` ran to completion (or a cursor over it ended).
  /// Throws if work the observer does after the statement failed (the commit
  /// of a transaction it opened around the statement).
  func statementDidExecute(_ statement: Statement, context: AnyObject?) throws
  /// Called when `statement` failed with `error`; returns the error to throw
  /// (an observer that refused a commit replaces SQLite's generic error).
  func statementDidFail(_ statement: Statement, context: AnyObject?, error: DatabaseError) -> any Error
  /// Whether deletions from `table` are observed: asked while a statement
  /// compiles, so that SQLite reports each deleted row instead of emptying
  /// the table at once (the truncate optimization).
  func observesDeletions(on table: String) -> Bool
  /// Whether the observer records the region of the statements that run
  /// (``RowIDRestriction``s narrow it): only then is a run's restriction worth
  /// computing.
  var recordsSelectedRegion: Bool { get }
  /// Adds whole tables to the recorded region, as if a statement had read
  /// them: for what a fetch reads only when rows exist (the prefetches of
  /// `including(all:)` run only when there are origin rows, and a tracked
  /// fetch must still hear of the first rows of the prefetched tables).
  func recordTablesRead(_ tables: [String])
}
