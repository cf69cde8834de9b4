import Foundation
import Sealite
import Testing

// GRDB's selections of all columns but some, bitwise operators, aggregates
// with a filter or an ordering, and the date functions, on a queue and an
// encrypted pool. Where the linked SQLite lacks a clause, the request throws
// an error that names it.

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  var id: Int64
  var name: String
  var score: Int
  var flags: Int
  var photo: Data?

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let name = Column(CodingKeys.name)
    static let score = Column(CodingKeys.score)
    static let flags = Column(CodingKeys.flags)
    static let photo = Column(CodingKeys.photo)
  }
}

enum SelectionsStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case queue
  case encryptedPool

  var testDescription: String { self == .queue ? "DatabaseQueue" : "encrypted DatabasePool" }

  func makeWriter(_ directory: TemporaryDirectory) throws -> any DatabaseWriter {
    let writer: any DatabaseWriter =
      switch self {
      case .queue: try DatabaseQueue(path: directory.path())
      case .encryptedPool: try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
      }
    try writer.write { db in
      try db.execute(
        sql: """
          CREATE TABLE player (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, flags INTEGER NOT NULL,
            photo BLOB);
          INSERT INTO player VALUES
            (1, 'Arthur', 100, 1, x'00'), (2, 'Barbara', 300, 3, NULL), (3, 'Craig', 200, 6, x'01');
          """)
    }
    return writer
  }
}

@Suite("Selections, operators and functions of GRDB's query interface")
struct SelectionsAndFunctionsTests {
  @Test(
    "allColumns(excluding:) selects every other column, read from the schema",
    arguments: SelectionsStore.allCases)
  func allColumnsExcluding(store: SelectionsStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.read { db in
      let row = try Player.select(.allColumns(excluding: ["PHOTO", "flags"])).filter(id: 1)
        .asRequest(of: Row.self).fetchOne(db)
      #expect(row == ["id": 1, "name": "Arthur", "score": 100])
      let byColumn = try Player.select(.allColumns(excluding: [Player.Columns.photo]))
        .order(\.id).asRequest(of: Row.self).fetchAll(db)
      #expect(byColumn.map(\.columnNames) == Array(repeating: ["id", "name", "score", "flags"], count: 3))
      let all = try Player.select(.allColumns).filter(id: 2).asRequest(of: Row.self).fetchOne(db)
      #expect(all?.count == 5)
      // The selection's width is known: the records of a join decode from it.
      #expect(try Player.select(.allColumns(excluding: ["photo"])).fetchCount(db) == 3)
      #expect(throws: DatabaseError.self) {
        try Player.select(.allColumns(excluding: ["id", "name", "score", "flags", "photo"])).fetchAll(db)
      }
    }
  }

  @Test("Bitwise operators and assignments run as SQLite's &, |, <<, >> and ~")
  func bitwiseOperators() throws {
    let directory = TemporaryDirectory()
    let writer = try SelectionsStore.queue.makeWriter(directory)
    try writer.write { db in
      #expect(try Player.filter { $0.flags & 2 != 0 }.order(\.id).selectID().fetchAll(db) == [2, 3])
      let values = try Player.filter(id: 3).select(
        [
          (Column("flags") | 1).forKey("or"), (Column("flags") << 2).forKey("shifted"),
          (Column("flags") >> 1).forKey("halved"), (~Column("flags")).forKey("complement"),
          (8 & Column("flags")).forKey("and"),
        ], as: Row.self
      ).fetchOne(db)
      #expect(values == ["or": 7, "shifted": 24, "halved": 3, "complement": -7, "and": 0])
      // swift-format-ignore: NoAssignmentInExpressions
      try Player.updateAll(db, Column("flags") |= 8)
      // swift-format-ignore: NoAssignmentInExpressions
      try Player.filter(id: 1).updateAll(db, Column("flags") &= 8)
      // swift-format-ignore: NoAssignmentInExpressions
      try Player.filter(id: 2).updateAll(db, Column("flags") <<= 1)
      // swift-format-ignore: NoAssignmentInExpressions
      try Player.filter(id: 3).updateAll(db, Column("flags") >>= 2)
      #expect(try Player.order(\.id).select(\.flags, as: Int.self).fetchAll(db) == [8, 22, 3])
      let joined = [Column("flags"), 1.databaseValue.sqlExpression].joined(operator: .bitwiseOr)
      #expect(try Player.filter(id: 1).select(joined, as: Int.self).fetchOne(db) == 9)
      let empty = [any SQLExpressible]().joined(operator: .bitwiseAnd)
      #expect(try Int.fetchOne(db, Player.select(empty, as: Int.self).limit(1)) == -1)
    }
  }

  @Test("A detached column names a result column, unqualified even in a join")
  func detachedColumn() throws {
    let directory = TemporaryDirectory()
    let writer = try SelectionsStore.queue.makeWriter(directory)
    try writer.read { (db: Database) throws in
      let request = Player.annotated(with: (Column("score") * 2).forKey("double"))
        .order(Column("double").detached.desc)
      #expect(try request.fetchAll(db).map(\.id) == [2, 3, 1])
      let sql = try capturedSQL(db) { _ = try request.fetchAll(db) }
      #expect(sql.last?.hasSuffix(#"ORDER BY "double" DESC"#) == true)
    }
  }

  @Test(
    "Aggregates take a filter (SQLite 3.30) and an ordering (SQLite 3.44), or name what is missing",
    arguments: SelectionsStore.allCases)
  func filteredAggregates(store: SelectionsStore) throws {
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.read { db in
      let filtered = Player.select(
        [
          sum(Column("score"), filter: Column("flags") & 2 != 0).forKey("sum"),
          total(Column("score"), filter: Column("score") > 1000).forKey("total"),
          average(Column("score"), filter: Column("id") < 3).forKey("average"),
          min(Column("score"), filter: Column("id") > 1).forKey("min"),
          max(Column("score"), filter: Column("id") < 2).forKey("max"),
        ], as: Row.self)
      if SQLiteFeatures.linked.supports(.aggregateFilter) {
        let row = try filtered.fetchOne(db)
        #expect(row == ["sum": 500, "total": 0.0, "average": 200.0, "min": 200, "max": 100])
      } else {
        let error = #expect(throws: SQLiteFeatureError.self) { try filtered.fetchOne(db) }
        #expect(error?.capability == .aggregateFilter)
      }
      let ordered = Player.select(sum(Column("score"), orderBy: Column("id").desc), as: Int.self)
      if SQLiteFeatures.linked.supports(.aggregateOrderBy) {
        #expect(try ordered.fetchOne(db) == 600)
        let sql = try capturedSQL(db) { _ = try ordered.fetchOne(db) }
        #expect(sql.last?.contains(#"SUM("score" ORDER BY "id" DESC)"#) == true)
      } else {
        let error = #expect(throws: SQLiteFeatureError.self) { try ordered.fetchOne(db) }
        #expect(error?.capability == .aggregateOrderBy)
      }
      // Without a filter nor an ordering, the plain aggregate runs everywhere.
      #expect(try Player.select(sum(Column("score"), filter: nil), as: Int.self).fetchOne(db) == 600)
    }
  }

  @Test("max and min of several values, and coalesce of a list")
  func scalarFunctions() throws {
    let directory = TemporaryDirectory()
    let writer = try SelectionsStore.queue.makeWriter(directory)
    try writer.read { db in
      #expect(
        try Player.order(\.id).select(max(Column("score"), 150, 120), as: Int.self).fetchAll(db) == [
          150, 300, 200,
        ])
      #expect(
        try Player.order(\.id).select(min(Column("score"), Column("flags") * 100), as: Int.self).fetchAll(db)
          == [100, 300, 200])
      let nicknames = try Player.order(\.id)
        .select(coalesce([Column("photo"), Column("name")]), as: DatabaseValue.self).fetchAll(db)
      #expect(nicknames[1] == "Barbara".databaseValue)
      #expect(
        try Player.filter(id: 3).select(coalesce([Column("name")]), as: String.self).fetchOne(db) == "Craig")
      #expect(
        try Player.select(coalesce([any SQLSpecificExpressible]()), as: DatabaseValue.self).fetchOne(db)
          == .null)
    }
  }

  @Test("Date modifiers are SQLite's: julianDay and dateTime shift and round dates")
  func dateModifiers() throws {
    let directory = TemporaryDirectory()
    let writer = try SelectionsStore.queue.makeWriter(directory)
    try writer.read { db in
      let date = "2024-02-28 13:45:10".databaseValue.sqlExpression
      func run(_ expression: SQLExpression) throws -> String? {
        try String.fetchOne(db, Player.select(expression, as: String.self).limit(1))
      }
      #expect(try run(dateTime(date, .day(2))) == "2024-03-01 13:45:10")
      #expect(try run(dateTime(date, .startOfMonth, .month(1), .day(-1))) == "2024-02-29 00:00:00")
      #expect(try run(dateTime(date, .startOfYear, .year(1))) == "2025-01-01 00:00:00")
      #expect(
        try run(dateTime(date, .startOfDay, .hour(1), .minute(30), .second(1.5))) == "2024-02-28 01:30:01")
      #expect(try run(dateTime(date, .weekday(0))) == "2024-03-03 13:45:10")
      #expect(try run(dateTime(0.databaseValue.sqlExpression, .unixEpoch)) == "1970-01-01 00:00:00")
      #expect(try run(dateTime(date, .utc, .localTime)) != nil)
      let julian = try Double.fetchOne(
        db, Player.select(julianDay(date, .startOfDay), as: Double.self).limit(1))
      #expect(julian == 2_460_368.5)
    }
  }
}
