// GRDB 6's concurrent reads returned a future; GRDB 7 removed both and keeps
// them as unavailable declarations, so that old code fails to compile with a
// message that names the replacement. Sealite keeps the same messages.

/// The result of GRDB 6's `concurrentRead(_:)`, removed in GRDB 7: use
/// ``DatabasePool/asyncConcurrentRead(_:)``.
@available(*, unavailable, message: "DatabaseFuture has been removed.")
public class DatabaseFuture<Value> {}

extension DatabasePool {
  /// Removed in GRDB 7: use ``asyncConcurrentRead(_:)``.
  @available(*, unavailable, message: "concurrentRead has been removed. Use `asyncConcurrentRead` instead.")
  public func concurrentRead<T>(_ value: @escaping (Database) throws -> T) -> DatabaseFuture<T> {
    preconditionFailure()
  }
}
