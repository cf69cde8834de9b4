import Foundation
import Sealite
import Testing

/// How a full-text table of the tests is made.
enum FullTextKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case fts3
  case fts4
  /// An FTS4 table kept in sync with the `source` table by GRDB's triggers.
  case synchronizedFTS4
  case fts5

  var testDescription: String { rawValue }

  /// Creates the `document` full-text table (and `source`, for a
  /// synchronized one).
  func create(_ db: Database) throws {
    switch self {
    case .fts3:
      try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
    case .fts4:
      try db.create(virtualTable: "document", using: FTS4()) { t in t.column("content") }
    case .synchronizedFTS4:
      try db.create(table: "source") { t in
        t.primaryKey("id", .integer)
        t.column("content", .text)
      }
      try db.create(virtualTable: "document", using: FTS4()) { t in
        t.synchronize(withTable: "source")
        t.column("content")
      }
    case .fts5:
      try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
    }
  }

  /// Writes one document, as an application of this kind of table does.
  func insert(_ db: Database, _ content: String) throws {
    let table = self == .synchronizedFTS4 ? "source" : "document"
    try db.execute(sql: "INSERT INTO \(table) (content) VALUES (?)", arguments: [content])
  }

  /// The kinds the linked SQLite can make (the legacy leg has no FTS5).
  static var available: [FullTextKind] {
    allCases.filter { $0 != .fts5 || SQLiteFeatures.linked.supports(.fts5) }
  }
}

extension ObservationTests {
  /// A full-text table's rows live in its shadow tables (`document_content`,
  /// `document_data`…): SQLite's update hook reports those, never the table
  /// the statement names. An observer of the full-text table hears of them
  /// all the same, as in GRDB.
  @Suite("Observation of full-text tables")
  struct FullTextObservationTests {
    @Test(
      "a ValueObservation of a full-text table gives a value for each committed insert",
      arguments: FullTextKind.available)
    func valueObservation(_ kind: FullTextKind) async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try kind.create(db) }
      let values = Shared<[Int]>([])
      let observation = ValueObservation.tracking { db in try Table("document").fetchCount(db) }
      let cancellable = observation.start(in: dbQueue, scheduling: anyImmediate) { error in
        Issue.record(error)
      } onChange: { value in
        values.update { $0.append(value) }
      }
      try await dbQueue.write { db in try kind.insert(db, "foo") }
      try await dbQueue.write { db in try kind.insert(db, "bar") }
      #expect(values.value == [0, 1, 2])
      withExtendedLifetime(cancellable) {}
    }

    @Test(
      "a DatabaseRegionObservation of a full-text table is told of each committed insert",
      arguments: FullTextKind.available)
    func regionObservation(_ kind: FullTextKind) async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in try kind.create(db) }
      let changes = Shared<Int>(0)
      let cancellable = DatabaseRegionObservation(tracking: Table("document")).start(in: dbQueue) { error in
        Issue.record(error)
      } onChange: { _ in
        changes.update { $0 += 1 }
      }
      try await dbQueue.write { db in try kind.insert(db, "foo") }
      #expect(changes.value == 1)
      withExtendedLifetime(cancellable) {}
    }

    @Test("an observer of another table does not hear of writes to a full-text table")
    func otherTable() async throws {
      let dbQueue = try DatabaseQueue()
      try await dbQueue.write { db in
        try FullTextKind.fts4.create(db)
        try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
      }
      let changes = Shared<Int>(0)
      let cancellable = DatabaseRegionObservation(tracking: Table("other")).start(in: dbQueue) { error in
        Issue.record(error)
      } onChange: { _ in
        changes.update { $0 += 1 }
      }
      try await dbQueue.write { db in try FullTextKind.fts4.insert(db, "foo") }
      try await dbQueue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
      #expect(changes.value == 1)
      withExtendedLifetime(cancellable) {}
    }
  }
}
