import Foundation
import Sealite
import Testing

/// A clock that counts its calls and gives 1970 plus the count, in seconds.
private final class CountingClock: Sendable {
  let calls = Shared(0)

  var clock: CustomTransactionClock {
    .custom { [calls] _ in
      let count = calls.withLock { count -> Int in
        count += 1
        return count
      }
      return Date(timeIntervalSince1970: Double(count))
    }
  }
}

@Suite("Database.transactionDate")
struct TransactionDateTests {
  @Test(
    "The date is the clock's at the start of each transaction, and a new one outside",
    arguments: [false, true])
  func oneDatePerTransaction(savepoint: Bool) throws {
    let counter = CountingClock()
    var configuration = Configuration()
    configuration.transactionClock = counter.clock
    let queue = try DatabaseQueue(configuration: configuration)
    try queue.writeWithoutTransaction { db in
      #expect(try db.transactionDate == Date(timeIntervalSince1970: 1))
      #expect(try db.transactionDate == Date(timeIntervalSince1970: 2))
      if savepoint {
        try db.execute(sql: "SAVEPOINT one")
      } else {
        try db.execute(sql: "BEGIN")
      }
      // The clock was asked when the transaction began.
      #expect(counter.calls.value == 3)
      try db.execute(sql: "SAVEPOINT nested")
      #expect(try db.transactionDate == Date(timeIntervalSince1970: 3))
      try db.execute(sql: "RELEASE SAVEPOINT nested")
      #expect(try db.transactionDate == Date(timeIntervalSince1970: 3))
      try db.execute(sql: savepoint ? "RELEASE SAVEPOINT one" : "COMMIT")
      #expect(try db.transactionDate == Date(timeIntervalSince1970: 4))
      try db.inTransaction {
        let date = try db.transactionDate
        #expect(date == Date(timeIntervalSince1970: 5))
        return .rollback
      }
      #expect(try db.transactionDate == Date(timeIntervalSince1970: 6))
    }
  }

  @Test("Queue and pool writes use the configured clock; the default clock is the system's")
  func clocks() throws {
    let directory = TemporaryDirectory()
    var configuration = Configuration()
    configuration.transactionClock = .custom { _ in Date(timeIntervalSinceReferenceDate: 123) }
    let pool = try DatabasePool(path: directory.path(), configuration: configuration)
    #expect(try pool.write { db in try db.transactionDate } == Date(timeIntervalSinceReferenceDate: 123))
    let before = Date()
    let date = try DatabaseQueue().write { db in try db.transactionDate }
    #expect(date >= before && date <= Date())
  }

  @Test("An error of the clock is thrown by every read of the date in its transaction")
  func clockErrors() throws {
    struct ClockFailure: Error {}
    let fails = Shared(true)
    var configuration = Configuration()
    configuration.transactionClock = .custom { [fails] _ in
      if fails.value { throw ClockFailure() }
      return Date(timeIntervalSince1970: 0)
    }
    try DatabaseQueue(configuration: configuration).write { db in
      #expect(throws: ClockFailure.self) { try db.transactionDate }
      fails.update { $0 = false }
      // The transaction began with a failing clock: its date stays an error.
      #expect(throws: ClockFailure.self) { try db.transactionDate }
    }
  }
}

@Suite("Configuration: dispatch queues, double-quoted strings")
struct DispatchConfigurationTests {
  @Test("Connections run on queues that target the configured ones, with the configured quality of service")
  func targetQueues() throws {
    let directory = TemporaryDirectory()
    let readTarget = DispatchQueue(label: "reads", attributes: .concurrent)
    let writeTarget = DispatchQueue(label: "writes")
    let readKey = DispatchSpecificKey<String>()
    readTarget.setSpecific(key: readKey, value: "reads")
    writeTarget.setSpecific(key: readKey, value: "writes")
    var configuration = Configuration()
    configuration.targetQueue = readTarget
    configuration.writeTargetQueue = writeTarget
    let pool = try DatabasePool(path: directory.path(), configuration: configuration)
    #expect(try pool.write { _ in DispatchQueue.getSpecific(key: readKey) } == "writes")
    #expect(try pool.read { _ in DispatchQueue.getSpecific(key: readKey) } == "reads")
    #expect(configuration.readQoS == readTarget.qos)
    #expect(configuration.writeQoS == writeTarget.qos)

    var plain = Configuration()
    #expect(plain.qos == .userInitiated)
    plain.qos = .utility
    #expect(plain.readQoS == .utility && plain.writeQoS == .utility)
    // Linux can not tell a queue's quality of service: the values alone are checked.
    #expect(try DatabaseQueue(configuration: plain).read { _ in true })
  }

  @Test("A double-quoted name that names no column is an error, unless the configuration accepts it")
  func doubleQuotedStrings() throws {
    var accepting = Configuration()
    accepting.acceptsDoubleQuotedStringLiterals = true
    #expect(
      try DatabaseQueue(configuration: accepting).read { db in try String.fetchOne(db, sql: #"SELECT "x""#) }
        == "x")
    guard Database.sqliteLibVersionNumber >= 3_029_000 else { return }
    let error = #expect(throws: DatabaseError.self) {
      try DatabaseQueue().read { db in try String.fetchOne(db, sql: #"SELECT "x""#) }
    }
    #expect(error?.message?.hasPrefix("no such column: ") == true)
  }
}
