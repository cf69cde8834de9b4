extension Database {
  /// Why a concurrent read can not start from here, or nil when it can: it
  /// must be asked from inside a write access of the writer (`onWriter`),
  /// outside of any transaction, so that it reads a state the writer
  /// committed.
  static func concurrentReadMisuse(onWriter writer: SerializedDatabase, method: String) -> DatabaseError? {
    guard writer.isOnQueue else {
      return .misuse("\(method) must be called from inside a write access (writeWithoutTransaction)")
    }
    let inTransaction = writer.reentrantSync { db in db.isInsideTransaction }
    guard !inTransaction else {
      return .misuse(
        "\(method) must not be called from inside a transaction: use writeWithoutTransaction, and commit first"
      )
    }
    return nil
  }
}
