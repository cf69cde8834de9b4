import Foundation
import Sealite
import Testing

// Row adapters, as GRDB documents them: raw SQL joins decoded into nested
// records, columns picked, renamed and scoped, values read through adapters.

private struct Team: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  var teamId: Int64?
}

private struct PlayerInfo: Decodable, FetchableRecord, Equatable {
  var player: Player
  var team: Team?
}

private let joinSQL = """
  SELECT player.*, team.* FROM player LEFT JOIN team ON team.id = player.teamId ORDER BY player.id
  """

/// Splits a `player.*, team.*` row into its two scopes.
private let playerInfoAdapter: any RowAdapter = {
  let adapters = splittingRowAdapters(columnCounts: [3])
  return ScopeAdapter(["player": adapters[0], "team": adapters[1]])
}()

private func makeWriter(_ backend: ObservationBackend, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try backend.makeWriter(directory)
  try writer.write { db in
    try db.execute(
      sql: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id));
        INSERT INTO team VALUES (1, 'Reds');
        INSERT INTO player VALUES (1, 'Arthur', 1), (2, 'Barbara', NULL);
        """)
  }
  return writer
}

private let expectedInfos = [
  PlayerInfo(player: Player(id: 1, name: "Arthur", teamId: 1), team: Team(id: 1, name: "Reds")),
  PlayerInfo(player: Player(id: 2, name: "Barbara", teamId: nil), team: nil),
]

@Suite("Row adapters")
struct RowAdapterTests {
  @Test(
    "A raw SQL join decodes into nested records through ScopeAdapter and splittingRowAdapters",
    arguments: ObservationBackend.allCases)
  func joinIntoNestedRecords(backend: ObservationBackend) throws {
    let directory = TemporaryDirectory()
    let writer = try makeWriter(backend, directory)
    try writer.read { db in
      #expect(try PlayerInfo.fetchAll(db, sql: joinSQL, adapter: playerInfoAdapter) == expectedInfos)
      #expect(try PlayerInfo.fetchOne(db, sql: joinSQL, adapter: playerInfoAdapter) == expectedInfos[0])
      let cursor = try PlayerInfo.fetchCursor(db, sql: joinSQL, adapter: playerInfoAdapter)
      #expect(try Array(cursor) == expectedInfos)
      let statement = try db.makeStatement(sql: joinSQL)
      #expect(try PlayerInfo.fetchAll(statement, adapter: playerInfoAdapter) == expectedInfos)

      let request = SQLRequest<PlayerInfo>(sql: joinSQL, adapter: playerInfoAdapter)
      #expect(try request.fetchAll(db) == expectedInfos)
      #expect(try request.fetchOne(db) == expectedInfos[0])
      #expect(try request.fetchCount(db) == 2)

      let row = try #require(try Row.fetchOne(db, sql: joinSQL, adapter: playerInfoAdapter))
      #expect(row.scopes.names == ["player", "team"])
      #expect(row.scopes["player"] == ["id": 1, "name": "Arthur", "teamId": 1])
      #expect(row.scopes["team"] == ["id": 1, "name": "Reds"])
      // The adapted row has every column (ScopeAdapter's default base); its
      // base row is the fetched one.
      #expect(row.count == 5)
      #expect(row.unadapted.count == 5)
      #expect(row.unscoped.scopes.names.isEmpty)
    }
  }

  @Test("SQLRequest(sql:) fetches rows without a type annotation, adapted if asked")
  func sqlRequestOfRows() throws {
    try DatabaseQueue().read { db in
      let request = SQLRequest(sql: "SELECT ? AS a, 2 AS b", arguments: [1])
      let row: Row? = try request.fetchOne(db)
      #expect(row == ["a": 1, "b": 2])
      let adapted = SQLRequest(sql: "SELECT 1 AS a, 2 AS b", adapter: SuffixRowAdapter(fromIndex: 1))
      #expect(try adapted.fetchAll(db) == [["b": 2]])
      let literal = SQLRequest(literal: "SELECT \(3) AS c", adapter: ColumnMapping(["d": "c"]))
      #expect(try literal.fetchOne(db) == ["d": 3])
    }
  }

  @Test("ColumnMapping renames columns and keeps the order of the base row; a missing column is an error")
  func columnMapping() throws {
    try DatabaseQueue().read { db in
      let adapter = ColumnMapping(["second": "B", "first": "a"])
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: adapter))
      #expect(row.columnNames == ["first", "second"])
      #expect(row.databaseValues == [1.databaseValue, 2.databaseValue])

      let error = #expect(throws: DatabaseError.self) {
        try Row.fetchAll(db, sql: "SELECT 1 AS a", adapter: ColumnMapping(["x": "missing"]))
      }
      #expect(error?.resultCode == .SQLITE_MISUSE)
      #expect(error?.message?.contains("missing column missing") == true)
      #expect(error?.message?.contains("Valid column names are: a") == true)
    }
  }

  @Test("SuffixRowAdapter and RangeRowAdapter pick columns by index; a range past the row is an error")
  func indexAdapters() throws {
    try DatabaseQueue().read { db in
      let sql = "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d"
      #expect(
        try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2))?.columnNames == ["c", "d"])
      #expect(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 4))?.count == 0)
      #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1..<3))?.columnNames == ["b", "c"])
      #expect(
        try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1...3))?.columnNames == ["b", "c", "d"])
      #expect(throws: DatabaseError.self) {
        try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(2..<5))
      }
      let chunks = splittingRowAdapters(columnCounts: [1, 2])
      #expect(chunks.count == 3)
      let columns = try chunks.map { try Row.fetchOne(db, sql: sql, adapter: $0)?.columnNames }
      #expect(columns == [["a"], ["b", "c"], ["d"]])
      #expect(try Row.fetchOne(db, sql: sql, adapter: splittingRowAdapters(columnCounts: [])[0])?.count == 4)
    }
  }

  @Test("EmptyRowAdapter with scopes, RenameColumnAdapter, and scopes inside scopes")
  func emptyRenameAndNestedScopes() throws {
    try DatabaseQueue().read { db in
      let sql = "SELECT 1 AS id, 'a' AS name, 2 AS id, 'b' AS name"
      let adapter = EmptyRowAdapter().addingScopes([
        "outer": ScopeAdapter(base: RangeRowAdapter(0..<2), scopes: ["inner": SuffixRowAdapter(fromIndex: 2)])
      ])
      let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
      #expect(row.count == 0)
      #expect(row.scopes["outer"]?.unscoped == ["id": 1, "name": "a"])
      // The inner scope's adapter reads the fetched row, not the outer scope.
      #expect(row.scopes["outer"]?.scopes["inner"] == ["id": 2, "name": "b"])
      #expect(row.scopesTree["inner"] == ["id": 2, "name": "b"])

      let renamed = try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { "x" + $0 })
      #expect(renamed?.columnNames == ["xid", "xname", "xid", "xname"])
      #expect(EmptyRowAdapter().addingScopes([:]) is EmptyRowAdapter)
    }
  }

  @Test("ScopeAdapter(base:scopes:) keeps the scopes of its base, and replaces those of the same name")
  func scopesOfTheBase() throws {
    try DatabaseQueue().read { db in
      let base = ScopeAdapter(["a": RangeRowAdapter(0..<1), "b": RangeRowAdapter(1..<2)])
      let adapter = ScopeAdapter(base: base, scopes: ["b": RangeRowAdapter(2..<3)])
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS x, 2 AS y, 3 AS z", adapter: adapter))
      #expect(row.scopes.names == ["a", "b"])
      #expect(row.scopes["a"] == ["x": 1])
      #expect(row.scopes["b"] == ["z": 3])
    }
  }

  @Test("Values are read from the first column of the adapted row, by every value fetch")
  func valuesThroughAdapters() throws {
    try DatabaseQueue().read { db in
      let sql = "SELECT 1 AS a, 'two' AS b, NULL AS c"
      let toB = SuffixRowAdapter(fromIndex: 1)
      #expect(try String.fetchAll(db, sql: sql, adapter: toB) == ["two"])
      #expect(try String.fetchOne(db, sql: sql, adapter: toB) == "two")
      #expect(try Array(String.fetchCursor(db, sql: sql, adapter: toB)) == ["two"])
      #expect(try String.fetchSet(db, sql: sql, adapter: toB) == ["two"])
      #expect(try DatabaseValue.fetchAll(db, sql: sql, adapter: ColumnMapping(["x": "c"])) == [.null])
      #expect(try Int?.fetchAll(db, sql: sql, adapter: RangeRowAdapter(2..<3)) == [nil])
      #expect(try SQLRequest<String>(sql: sql, adapter: toB).fetchAll(db) == ["two"])
      let statement = try db.makeStatement(sql: sql)
      #expect(try String.fetchOne(statement, adapter: toB) == "two")
      // An adapted row without columns has no value to read.
      #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: sql, adapter: EmptyRowAdapter()) }
    }
  }

  @Test("Adapted rows of a cursor are rows of their own, kept after the cursor moved on")
  func adaptedCursorRows() throws {
    try DatabaseQueue().read { db in
      let cursor = try Row.fetchCursor(
        db, sql: "SELECT 1 AS a, 10 AS b UNION ALL SELECT 2, 20", adapter: SuffixRowAdapter(fromIndex: 1))
      var rows: [Row] = []
      while let row = try cursor.next() { rows.append(row) }
      #expect(rows == [["b": 10], ["b": 20]])
      #expect(rows.map(\.unadapted) == [["a": 1, "b": 10], ["a": 2, "b": 20]])
    }
  }
}

@Suite("Adapted requests")
struct AdaptedRequestTests {
  @Test("adapted(_:) adapts the rows of a request, after the request's own adapter")
  func adaptedRequests() throws {
    let directory = TemporaryDirectory()
    let writer = try makeWriter(.queue, directory)
    try writer.read { db in
      let request = SQLRequest<PlayerInfo>(sql: joinSQL).adapted { _ in playerInfoAdapter }
      #expect(try request.fetchAll(db) == expectedInfos)
      #expect(try request.fetchCount(db) == 2)

      // Adapted twice: the second adapter reads the columns of the first.
      let twice = SQLRequest<Row>(
        sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: SuffixRowAdapter(fromIndex: 1)
      )
      .adapted { _ in ColumnMapping(["x": "c"]) }
      #expect(try twice.fetchOne(db) == ["x": 3])
      #expect(
        try SQLRequest<Int>(sql: "SELECT 1, 2, 3").adapted { _ in RangeRowAdapter(2..<3) }.fetchOne(db) == 3)
      // A query interface request with an included association keeps its scopes.
      let teams = Player.including(optional: Player.team).order(Column("id"))
        .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
      let row = try #require(try Row.fetchOne(db, teams))
      #expect(row.columnNames == ["name", "teamId"])
    }
  }
}

extension Player {
  fileprivate static let team = belongsTo(Team.self)
}

@Suite("The scopes of a row, as a collection")
struct RowScopesCollectionTests {
  @Test("row.scopes is a collection of (name, row) pairs; a row without scopes has none")
  func scopesCollection() throws {
    try DatabaseQueue().read { db in
      let adapter = ScopeAdapter(["sub2": RangeRowAdapter(1..<2), "sub1": RangeRowAdapter(0..<1)])
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: adapter))
      #expect(row.scopes.count == 2)
      #expect(Set(row.scopes.names) == ["sub1", "sub2"])
      var pairs: [String: Row] = [:]
      for (name, scopedRow) in row.scopes { pairs[name] = scopedRow }
      #expect(pairs == ["sub1": ["a": 1], "sub2": ["b": 2]])
      #expect(try Row.fetchOne(db, sql: "SELECT 1")?.scopes.isEmpty == true)
    }
  }
}

@Suite("Row equality, scopes included")
struct RowEqualityTests {
  @Test("Rows are equal with equal columns, values and scopes; unscoped compares the columns only")
  func equalityComparesScopes() throws {
    try DatabaseQueue().read { db in
      let adapter = ScopeAdapter(["a": RangeRowAdapter(0..<1), "b": RangeRowAdapter(1..<2)])
      let sql = "SELECT ? AS x, ? AS y"
      let one = try #require(try Row.fetchOne(db, sql: sql, arguments: [1, 2], adapter: adapter))
      let same = try #require(try Row.fetchOne(db, sql: sql, arguments: [1, 2], adapter: adapter))
      #expect(one == same)
      // Scopes listed in another order are the same scopes.
      let reordered = try #require(
        try Row.fetchOne(
          db, sql: "SELECT ? AS x, ? AS y", arguments: [1, 2],
          adapter: ScopeAdapter([
            "b": RangeRowAdapter(1..<2), "a": RangeRowAdapter(0..<1),
          ])))
      #expect(one == reordered)
      // The same columns, other scopes.
      let otherScopes = try #require(
        try Row.fetchOne(
          db, sql: sql, arguments: [1, 2], adapter: ScopeAdapter(["a": RangeRowAdapter(1..<2)])))
      #expect(one != otherScopes)
      let plain = try #require(try Row.fetchOne(db, sql: sql, arguments: [1, 2]))
      #expect(one != plain)
      #expect(one.unscoped == plain)
      #expect(one.hashValue == plain.hashValue)
    }
  }

  @Test("Rows with prefetched rows are equal only with the same prefetched rows")
  func equalityComparesPrefetchedRows() throws {
    let directory = TemporaryDirectory()
    let writer = try makeWriter(.queue, directory)
    try writer.write { db in
      let request = Team.including(all: Team.players.order(Column("id")))
      let before = try #require(try Row.fetchOne(db, request))
      let again = try Row.fetchOne(db, request)
      #expect(again == before)
      try db.execute(sql: "UPDATE player SET name = 'Art' WHERE id = 1")
      let after = try #require(try Row.fetchOne(db, request))
      #expect(before != after)
      #expect(before.unscoped == after.unscoped)
    }
  }
}

extension Team {
  fileprivate static let players = hasMany(Player.self)
}
