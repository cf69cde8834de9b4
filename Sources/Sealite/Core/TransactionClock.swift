import Foundation

/// What gives ``Database/transactionDate``: the date of each transaction,
/// asked when the transaction begins. Set it in
/// ``Configuration/transactionClock``.
///
///     var config = Configuration()
///     config.transactionClock = .custom { db in Date(timeIntervalSince1970: 0) }
public protocol TransactionClock: Sendable {
  /// The date now, for `db`'s transaction that begins.
  func now(_ db: Database) throws -> Date
}

extension TransactionClock where Self == DefaultTransactionClock {
  /// The system clock: `Date()`.
  public static var `default`: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
  /// A clock that calls `now`, which may read the database (it runs as the
  /// transaction begins, on its connection).
  public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
    CustomTransactionClock(now)
  }
}

/// The system clock (``TransactionClock/default``).
public struct DefaultTransactionClock: TransactionClock {
  /// `Date()`.
  public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock that calls a closure (``TransactionClock/custom(_:)``).
public struct CustomTransactionClock: TransactionClock {
  private let clock: @Sendable (Database) throws -> Date

  /// A clock that calls `now`.
  public init(_ now: @escaping @Sendable (Database) throws -> Date) {
    clock = now
  }

  /// What the closure returns.
  public func now(_ db: Database) throws -> Date { try clock(db) }
}

extension Database {
  /// The date of the current transaction: the same at every point of one
  /// transaction, given by ``Configuration/transactionClock`` when the
  /// transaction began (`BEGIN`, or a `SAVEPOINT` outside of any
  /// transaction). Outside of a transaction, the clock's date now, on each
  /// call. An error of the clock at the start of the transaction is thrown
  /// by every read of it in that transaction.
  ///
  ///     try dbQueue.write { db in
  ///       let date = try db.transactionDate
  ///       try db.execute(sql: "UPDATE player SET updatedAt = ?", arguments: [date])
  ///     }
  public var transactionDate: Date {
    get throws {
      guard isInsideTransaction else {
        transactionDateResult = nil
        return try configuration.transactionClock.now(self)
      }
      if let transactionDateResult { return try transactionDateResult.get() }
      // A transaction begun where Sealite does not see its statements.
      let result = Result { try configuration.transactionClock.now(self) }
      transactionDateResult = result
      return try result.get()
    }
  }

  /// Keeps ``transactionDate`` for the transaction that a statement of
  /// `effect` began, and forgets it when the transaction ended.
  func transactionDidChange(_ effect: StatementAuthorization.TransactionEffect) {
    switch effect {
    case .begin:
      transactionDateResult = Result { try configuration.transactionClock.now(self) }
    case .savepoint:
      if transactionDateResult == nil {
        transactionDateResult = Result { try configuration.transactionClock.now(self) }
      }
    case .commit, .rollback, .releaseSavepoint, .rollbackToSavepoint:
      if !isInsideTransaction { transactionDateResult = nil }
    }
  }
}
