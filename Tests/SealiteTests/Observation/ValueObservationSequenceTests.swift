import Foundation
import Sealite
import Testing

private let createT: @Sendable (Database) throws -> Void = { db in
  try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
}

/// Five commits: an insert, an update that changes no value, an insert, one
/// transaction of three statements, an insert. Counts: 1, 1, 2, 3, 4.
private let fiveCommits: @Sendable (Database) throws -> Void = { db in
  try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
  try db.execute(sql: "UPDATE t SET id = id")
  try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
  try db.inTransaction {
    try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
    try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
    try db.execute(sql: "DELETE FROM t WHERE id = 1")
    return .commit
  }
  try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
}

/// Three commits, spelled in upper case: counts 1, 1, 2.
private let threeCommits: @Sendable (Database) throws -> Void = { db in
  try db.execute(sql: "INSERT INTO T DEFAULT VALUES")
  try db.execute(sql: "UPDATE T SET ID = ID")
  try db.execute(sql: "INSERT INTO T DEFAULT VALUES")
}

private let countT: @Sendable (Database) throws -> Int = { db in try Table("t").fetchCount(db) }

extension ObservationTests {
  /// The values an observation delivers for a given series of commits, on
  /// each backend and scheduling GRDB's tests use. Serialized: its 200
  /// cases at once would starve the other observation tests of threads.
  @Suite("ValueObservation sequences", .serialized)
  struct ValueObservationSequenceTests {
    @Test(
      "a count gives the initial value, then one value per commit, also for an update that changes nothing",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func countPerCommit(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let expected = [0, 1, 1, 2, 3, 4]
      let recorded = try await recordSequence(
        ValueObservation.trackingConstantRegion(countT), backend: backend, run: run, setup: createT,
        updates: fiveCommits, until: 4)
      #expect(recorded.matches(expected, backend: backend, run: run), "\(recorded.values)")
    }

    @Test(
      "removeDuplicates() drops the value of the commit that changed nothing",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func countWithoutDuplicates(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let recorded = try await recordSequence(
        ValueObservation.trackingConstantRegion(countT).removeDuplicates(), backend: backend, run: run,
        setup: createT, updates: fiveCommits, until: 4)
      #expect(recorded.matches([0, 1, 2, 3, 4], backend: backend, run: run), "\(recorded.values)")
    }

    @Test(
      "tracking(region: .fullDatabase) gives one value per commit",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func explicitFullDatabase(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let recorded = try await recordSequence(
        ValueObservation.tracking(region: DatabaseRegion.fullDatabase, fetch: countT), backend: backend,
        run: run, setup: createT, updates: fiveCommits, until: 4)
      #expect(recorded.matches([0, 1, 1, 2, 3, 4], backend: backend, run: run), "\(recorded.values)")
    }

    @Test(
      "SELECT COUNT(*) and a rowid selection are refreshed by an update of the rowid, whatever the case of the SQL",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func rowIDSelection(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let count = try await recordSequence(
        ValueObservation.trackingConstantRegion { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        },
        backend: backend, run: run, setup: createT, updates: threeCommits, until: 2)
      #expect(count.matches([0, 1, 1, 2], backend: backend, run: run), "\(count.values)")

      let ids = try await recordSequence(
        ValueObservation.trackingConstantRegion { db in
          try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
        },
        backend: backend, run: run, setup: createT, updates: threeCommits, until: [1, 2])
      #expect(ids.matches([[], [1], [1], [1, 2]], backend: backend, run: run), "\(ids.values)")
    }

    @Test(
      "a selection of another column is not refreshed by an update of the rowid",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func columnSelection(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let recorded = try await recordSequence(
        ValueObservation.trackingConstantRegion { db in
          try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name")
        }, backend: backend, run: run, setup: createT,
        updates: { db in
          try db.execute(sql: "INSERT INTO T (NAME) VALUES ('Arthur')")
          try db.execute(sql: "UPDATE T SET ID = ID")
          try db.execute(sql: "INSERT INTO T (NAME) VALUES ('Barbara')")
        }, until: ["Arthur", "Barbara"])
      #expect(
        recorded.matches([[], ["Arthur"], ["Arthur", "Barbara"]], backend: backend, run: run),
        "\(recorded.values)")
    }

    @Test(
      "rows: one value per commit, and one for a transaction of three statements",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func rows(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let updates: @Sendable (Database) throws -> Void = { db in
        try db.execute(sql: "INSERT INTO t (id, name) VALUES (1, 'foo')")
        try db.execute(sql: "UPDATE t SET name = 'foo' WHERE id = 1")
        try db.inTransaction {
          try db.execute(sql: "INSERT INTO t (id, name) VALUES (2, 'bar')")
          try db.execute(sql: "INSERT INTO t (id, name) VALUES (3, 'baz')")
          try db.execute(sql: "DELETE FROM t WHERE id = 3")
          return .commit
        }
        try db.execute(sql: "DELETE FROM t WHERE id = 1")
      }
      let foo: Row = ["id": 1, "name": "foo"]
      let bar: Row = ["id": 2, "name": "bar"]
      let observation = ValueObservation.trackingConstantRegion { db in
        try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY id")
      }
      let all = try await recordSequence(
        observation, backend: backend, run: run, setup: createT, updates: updates, until: [bar])
      #expect(
        all.matches([[], [foo], [foo], [foo, bar], [bar]], backend: backend, run: run), "\(all.values)")

      let distinct = try await recordSequence(
        observation.removeDuplicates(), backend: backend, run: run, setup: createT, updates: updates,
        until: [bar])
      #expect(
        distinct.matches([[], [foo], [foo, bar], [bar]], backend: backend, run: run), "\(distinct.values)")
    }

    @Test(
      "no value for a rollback, a commit of another table, or a change rolled back to a savepoint; one for a change a savepoint keeps",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func transactionsWithoutChange(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let recorded = try await recordSequence(
        ValueObservation.trackingConstantRegion(countT), backend: backend, run: run,
        setup: { db in
          try createT(db)
          try db.execute(sql: "CREATE TABLE other(id INTEGER PRIMARY KEY)")
        },
        updates: { db in
          try db.inTransaction {
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            return .rollback
          }
          try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
          try db.inTransaction {
            try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
            try db.inSavepoint {
              try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
              return .rollback
            }
            return .commit
          }
          try db.inTransaction {
            try db.inSavepoint {
              try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
              return .commit
            }
            return .commit
          }
          try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
        }, until: 2)
      #expect(recorded.matches([0, 1, 2], backend: backend, run: run), "\(recorded.values)")
    }

    @Test(
      "removeDuplicates(by:) drops what its predicate calls equal, and nothing when it says false",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func removeDuplicatesBy(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let equal = try await recordSequence(
        ValueObservation.trackingConstantRegion(countT).removeDuplicates(by: ==), backend: backend, run: run,
        setup: createT, updates: threeCommits, until: 2)
      #expect(equal.matches([0, 1, 2], backend: backend, run: run), "\(equal.values)")

      let never = try await recordSequence(
        ValueObservation.trackingConstantRegion(countT).removeDuplicates(by: { _, _ in false }),
        backend: backend, run: run, setup: createT, updates: threeCommits, until: 2)
      #expect(never.matches([0, 1, 1, 2], backend: backend, run: run), "\(never.values)")
    }

    @Test(
      "map transforms each value of the sequence", arguments: ObservationBackend.allCases, SequenceRun.all)
    func map(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let recorded = try await recordSequence(
        ValueObservation.trackingConstantRegion(countT).map { "\($0)" }, backend: backend, run: run,
        setup: createT,
        updates: { db in
          try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
          try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
        }, until: "2")
      #expect(recorded.matches(["0", "1", "2"], backend: backend, run: run), "\(recorded.values)")
    }

    @Test("map keeps requiresWriteAccess")
    func mapKeepsWriteAccess() {
      var observation = ValueObservation.trackingConstantRegion(countT)
      observation.requiresWriteAccess = true
      #expect(observation.map { $0 + 1 }.requiresWriteAccess)
      #expect(observation.removeDuplicates().requiresWriteAccess)
    }

    @Test(
      "requiresWriteAccess: a fetch that writes, in a transaction, gives exactly one value per commit, also on a pool",
      arguments: ObservationBackend.allCases, SequenceRun.all)
    func writeAccess(_ backend: ObservationBackend, _ run: SequenceRun) async throws {
      let outsideTransaction = Shared(false)
      var observation = ValueObservation.trackingConstantRegion { db -> Int in
        if !db.isInsideTransaction { outsideTransaction.update { $0 = true } }
        try db.execute(sql: "CREATE TEMPORARY TABLE temp AS SELECT * FROM t")
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp")!
        try db.execute(sql: "DROP TABLE temp")
        return count
      }
      observation.requiresWriteAccess = true
      let recorded = try await recordSequence(
        observation, backend: backend, run: run, setup: createT,
        updates: { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }, until: 1)
      #expect(
        recorded.matches([0, 1], backend: backend, run: run, requiresWriteAccess: true), "\(recorded.values)")
      #expect(!outsideTransaction.value)
    }
  }
}
