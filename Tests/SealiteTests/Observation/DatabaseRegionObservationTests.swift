import Foundation
import Sealite
import Synchronization
import Testing

/// A write the update hook does not report row by row, and the table it changes.
struct HiddenWrite: Sendable, CustomTestStringConvertible {
  var testDescription: String
  /// Creates what the write needs, after ``observationSchema``.
  var setup: String
  /// The observed table: the write changes it.
  var observedTable: String
  /// The write.
  var sql: String
  /// The number of rows of the observed table after the write.
  var expectedCount: Int

  static let all: [HiddenWrite] = [
    HiddenWrite(
      testDescription: "WITHOUT ROWID table",
      setup: "CREATE TABLE tag (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID",
      observedTable: "tag", sql: "INSERT INTO tag VALUES ('a', 'A')", expectedCount: 1),
    HiddenWrite(
      testDescription: "ON DELETE CASCADE",
      setup: """
        INSERT INTO team (id, name) VALUES (1, 'red');
        INSERT INTO player (id, name, teamId) VALUES (10, 'Craig', 1), (11, 'Diana', 1);
        """,
      observedTable: "player", sql: "DELETE FROM team WHERE id = 1", expectedCount: 2),
    HiddenWrite(
      testDescription: "ON DELETE CASCADE into a WITHOUT ROWID table",
      setup: """
        CREATE TABLE badge (code TEXT PRIMARY KEY, teamId INTEGER REFERENCES team(id) ON DELETE CASCADE)
          WITHOUT ROWID;
        INSERT INTO team (id, name) VALUES (1, 'red');
        INSERT INTO badge VALUES ('gold', 1);
        """,
      observedTable: "badge", sql: "DELETE FROM team", expectedCount: 0),
    HiddenWrite(
      testDescription: "trigger",
      setup: """
        CREATE TRIGGER teamInserted AFTER INSERT ON team BEGIN
          INSERT INTO log (message) VALUES ('team ' || NEW.name);
        END
        """,
      observedTable: "log", sql: "INSERT INTO team (name) VALUES ('red')", expectedCount: 1),
    HiddenWrite(
      testDescription: "DELETE without WHERE (truncate)",
      setup: "INSERT INTO log (message) VALUES ('a'), ('b'), ('c')",
      observedTable: "log", sql: "DELETE FROM log", expectedCount: 0),
  ]
}

private func makeWriter(_ backend: ObservationBackend, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try backend.makeWriter(directory)
  try writer.write { db in
    try db.execute(sql: observationSchema)
    try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
  }
  return writer
}

/// Counts the calls of an observation's onChange, and the errors.
private final class ChangeCounter: Sendable {
  let changes = Locked(0)
  let errors = Locked<[String]>([])
  /// What onChange read with its connection.
  let reads = Locked<[Int]>([])

  func start(
    _ observation: DatabaseRegionObservation, in writer: some DatabaseWriter, read sql: String? = nil
  ) -> AnyDatabaseCancellable {
    observation.start(in: writer) { error in
      self.errors.withLock { $0.append("\(error)") }
    } onChange: { db in
      self.changes.withLock { $0 += 1 }
      if let sql, let value = try? Int.fetchOne(db, sql: sql) {
        self.reads.withLock { $0.append(value) }
      }
    }
  }
}

extension ObservationTests {
  @Suite("DatabaseRegionObservation")
  struct DatabaseRegionObservationTests {
    @Test(
      "onChange runs synchronously after each commit that touched the region, once per transaction",
      arguments: ObservationBackend.allCases)
    func oncePerTransaction(_ backend: ObservationBackend) throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let counter = ChangeCounter()
      let cancellable = counter.start(
        DatabaseRegionObservation(tracking: Table("player")), in: writer, read: "SELECT COUNT(*) FROM player")

      try writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')") }
      #expect(counter.changes.value == 1)
      try writer.write { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'Diana')")
        try db.execute(sql: "UPDATE player SET score = 1")
        try db.execute(sql: "DELETE FROM player WHERE id = 1")
      }
      #expect(counter.changes.value == 2)
      // onChange reads the committed state with its connection.
      #expect(counter.reads.value == [3, 3])
      #expect(counter.errors.value.isEmpty)
      withExtendedLifetime(cancellable) {}
    }

    @Test("commits that do not touch the region, rollbacks and empty transactions do not call onChange")
    func onlyCommitsThatTouchTheRegion() throws {
      let dbQueue = try DatabaseQueue()
      try dbQueue.write { db in try db.execute(sql: observationSchema) }
      let counter = ChangeCounter()
      let cancellable = counter.start(DatabaseRegionObservation(tracking: Table("player")), in: dbQueue)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'red')") }
      try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1") }
      try dbQueue.write { _ in }
      try dbQueue.inTransaction { db in
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        return .rollback
      }
      #expect(throws: TestError(id: 3)) {
        try dbQueue.write { db in
          try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
          throw TestError(id: 3)
        }
      }
      #expect(counter.changes.value == 0)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (5, 'Eric')") }
      #expect(counter.changes.value == 1)
      withExtendedLifetime(cancellable) {}
    }

    @Test("a change rolled back to a savepoint does not call onChange")
    func rolledBackSavepoint() throws {
      let dbQueue = try DatabaseQueue()
      try dbQueue.write { db in try db.execute(sql: observationSchema) }
      let counter = ChangeCounter()
      let cancellable = counter.start(DatabaseRegionObservation(tracking: Table("player")), in: dbQueue)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'red')")
        try db.inSavepoint {
          try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
          return .rollback
        }
      }
      #expect(counter.changes.value == 0)
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "writes the update hook does not report reach the observation",
      arguments: ObservationBackend.allCases, HiddenWrite.all)
    func hiddenWrites(_ backend: ObservationBackend, _ write: HiddenWrite) throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      try writer.write { db in try db.execute(sql: write.setup) }
      let counter = ChangeCounter()
      let cancellable = counter.start(
        DatabaseRegionObservation(tracking: Table(write.observedTable)), in: writer,
        read: "SELECT COUNT(*) FROM \(write.observedTable)")
      try writer.write { db in try db.execute(sql: write.sql) }
      #expect(counter.changes.value == 1)
      #expect(counter.reads.value == [write.expectedCount])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "db.notifyChanges(in:) calls onChange for changes SQLite cannot see",
      arguments: ObservationBackend.allCases)
    func notifyChanges(_ backend: ObservationBackend) throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let counter = ChangeCounter()
      let cancellable = counter.start(DatabaseRegionObservation(tracking: Table("player")), in: writer)
      try writer.write { db in try db.notifyChanges(in: Table("team")) }
      #expect(counter.changes.value == 0)
      try writer.write { db in try db.notifyChanges(in: Table("player")) }
      #expect(counter.changes.value == 1)
      try writer.writeWithoutTransaction { db in try db.notifyChanges(in: DatabaseRegion.fullDatabase) }
      #expect(counter.changes.value == 2)
      withExtendedLifetime(cancellable) {}
    }

    @Test("an observation of Player.filter(key: 1) ignores changes of other rows")
    func rowIDPrecision() throws {
      let dbQueue = try DatabaseQueue()
      try dbQueue.write { db in
        try db.execute(sql: observationSchema)
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
      }
      let counter = ChangeCounter()
      let cancellable = counter.start(
        DatabaseRegionObservation(tracking: ObservedPlayer.filter(key: 1)), in: dbQueue)
      try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 2") }
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 2") }
      #expect(counter.changes.value == 0)
      try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1") }
      #expect(counter.changes.value == 1)
      // A new row may be row 1 again.
      try dbQueue.write { db in try db.execute(sql: "DELETE FROM player WHERE id = 1") }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      #expect(counter.changes.value == 3)
      withExtendedLifetime(cancellable) {}
    }

    @Test("an observation of some columns ignores updates of the other columns")
    func columnPrecision() throws {
      let dbQueue = try DatabaseQueue()
      try dbQueue.write { db in
        try db.execute(sql: observationSchema)
        try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
      }
      let counter = ChangeCounter()
      let cancellable = counter.start(
        DatabaseRegionObservation(tracking: ObservedPlayer.select(Column("name"))), in: dbQueue)
      try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 10") }
      #expect(counter.changes.value == 0)
      try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Art'") }
      #expect(counter.changes.value == 1)
      withExtendedLifetime(cancellable) {}
    }

    @Test("the union of several regions is observed")
    func severalRegions() throws {
      let dbQueue = try DatabaseQueue()
      try dbQueue.write { db in try db.execute(sql: observationSchema) }
      let counter = ChangeCounter()
      let observation = DatabaseRegionObservation(tracking: Table("team"), ObservedPlayer.filter(key: 1))
      let cancellable = counter.start(observation, in: dbQueue)
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'red')") }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')") }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
      try dbQueue.write { db in try db.execute(sql: "INSERT INTO log (message) VALUES ('x')") }
      #expect(counter.changes.value == 2)
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "cancel() and releasing the cancellable stop the observation", arguments: ObservationBackend.allCases)
    func cancellation(_ backend: ObservationBackend) async throws {
      let directory = TemporaryDirectory()
      defer { withExtendedLifetime(directory) {} }
      let writer = try makeWriter(backend, directory)
      let counter = ChangeCounter()
      let cancellable = counter.start(DatabaseRegionObservation(tracking: Table("player")), in: writer)
      try await writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
      }
      #expect(counter.changes.value == 1)
      cancellable.cancel()
      try await writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, 'Diana')")
      }
      #expect(counter.changes.value == 1)
      #expect(try await eventually { try !hasTransactionObservers(writer) })

      var released: AnyDatabaseCancellable? = counter.start(
        DatabaseRegionObservation(tracking: Table("player")), in: writer)
      try await writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (5, 'Eric')") }
      #expect(counter.changes.value == 2)
      #expect(released != nil)
      released = nil
      try await writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (6, 'Fiona')")
      }
      #expect(counter.changes.value == 2)
      #expect(try await eventually { try !hasTransactionObservers(writer) })
    }

    @Test("an error computing the region goes to onError")
    func regionError() throws {
      let dbQueue = try DatabaseQueue()
      let counter = ChangeCounter()
      let cancellable = counter.start(
        DatabaseRegionObservation(tracking: Table("nowhere").all()), in: dbQueue)
      #expect(counter.errors.value.count == 1)
      #expect(counter.errors.value.first?.contains("nowhere") == true)
      #expect(try !hasTransactionObservers(dbQueue))
      withExtendedLifetime(cancellable) {}
    }
  }
}
