import Foundation
import Sealite
import Testing

// The request protocols (DerivableRequest and its parts) as GRDB programs use
// them: refinements written once for requests and associations, closures
// that receive the record's columns, and requests by primary key.

private struct Team: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  var id: Int64
  var name: String
  static let players = hasMany(Player.self)
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
  var id: Int64
  var teamId: Int64?
  var name: String
  var score: Int
  static let team = belongsTo(Team.self)

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let teamId = Column(CodingKeys.teamId)
    static let name = Column(CodingKeys.name)
    static let score = Column(CodingKeys.score)
  }
}

private struct TeamWithPlayers: Decodable, FetchableRecord {
  var team: Team
  var players: [Player]
}

/// A row of a table whose primary key spans two columns.
private struct Citizenship: Codable, FetchableRecord, PersistableRecord, Equatable {
  var countryCode: String
  var citizenId: Int64
  var name: String
}

extension DerivableRequest<Player> {
  /// Written once, used on `Player.all()` and on `Team.players`.
  fileprivate func ranked(minimumScore: Int) -> Self {
    filter { $0.score >= minimumScore }.order(\.score.desc)
  }
}

enum RequestProtocolStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case queue
  case encryptedPool

  var testDescription: String { self == .queue ? "DatabaseQueue" : "encrypted DatabasePool" }

  func makeWriter(_ directory: TemporaryDirectory) throws -> any DatabaseWriter {
    switch self {
    case .queue: try DatabaseQueue(path: directory.path())
    case .encryptedPool: try DatabasePool(path: directory.path(), configuration: rawKeyConfiguration())
    }
  }
}

private func makeDatabase(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { db in
    try db.execute(
      sql: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE player (
          id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL,
          score INTEGER NOT NULL);
        CREATE TABLE citizenship (
          countryCode TEXT NOT NULL, citizenId INTEGER NOT NULL, name TEXT NOT NULL,
          PRIMARY KEY (countryCode, citizenId));
        CREATE TABLE note (content TEXT);
        CREATE VIEW playerName AS SELECT name, score FROM player;
        INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'), (3, 'Greens');
        INSERT INTO player VALUES
          (1, 1, 'Arthur', 100), (2, 1, 'Barbara', 300), (3, 2, 'Craig', 200),
          (4, 2, 'Diane', 50), (5, NULL, 'Eve', 250);
        INSERT INTO citizenship VALUES ('FR', 2, 'Bea'), ('DE', 7, 'Carl'), ('FR', 1, 'Abel');
        INSERT INTO note VALUES ('b'), ('a'), ('c');
        """)
  }
  return writer
}

@Suite("Request protocols: one refinement for requests and associations, closures over columns")
struct RequestProtocolsTests {
  @Test(
    "A DerivableRequest extension refines a request and an association alike",
    arguments: RequestProtocolStore.allCases)
  func derivableExtension(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { db in
      let players = try Player.all().ranked(minimumScore: 100).fetchAll(db)
      #expect(players.map(\.name) == ["Barbara", "Eve", "Craig", "Arthur"])

      let teams = try Team.including(all: Team.players.ranked(minimumScore: 100)).orderByPrimaryKey()
        .asRequest(of: TeamWithPlayers.self).fetchAll(db)
      #expect(teams.map(\.team.name) == ["Reds", "Blues", "Greens"])
      #expect(teams.map { $0.players.map(\.name) } == [["Barbara", "Arthur"], ["Craig"], []])
    }
  }

  @Test("Closures receive the record's Columns: filter, order, select, annotated, group, having")
  func componentClosures() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.read { db in
      #expect(try Player.filter { $0.score > 200 }.order(\.name).fetchAll(db).map(\.id) == [2, 5])
      #expect(try Player.order { [$0.teamId.desc, $0.score] }.fetchAll(db).map(\.id) == [4, 3, 1, 2, 5])
      #expect(try Player.order(\.id).select(\.name, as: String.self).fetchAll(db).first == "Arthur")
      #expect(
        try Player.select { [$0.id, $0.score] }.order(\.id).asRequest(of: Row.self).fetchOne(db)
          == ["id": 1, "score": 100])
      let doubled = try Player.annotated { ($0.score * 2).forKey("double") }.filter(key: 3)
        .asRequest(of: Row.self).fetchOne(db)
      #expect(doubled?["double"] == 400)
      let bigTeams = try Player.all().group { $0.teamId }.having { count($0.id) >= 2 }
        .order(\.teamId).select(\.teamId, as: Int64.self).fetchAll(db)
      #expect(bigTeams == [1, 2])
      #expect(Player.databaseComponents.score.name == "score")
    }
  }

  @Test("orderByPrimaryKey orders by the primary key, the rowid, or every column of a composite key")
  func orderByPrimaryKey() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.read { db in
      let players = try Player.order(\.score).orderByPrimaryKey().fetchAll(db)
      #expect(players.map(\.id) == [1, 2, 3, 4, 5])
      #expect(try Player.orderByPrimaryKey().reversed().fetchAll(db).map(\.id) == [5, 4, 3, 2, 1])
      let citizens = try Citizenship.orderByPrimaryKey().fetchAll(db)
      #expect(citizens.map(\.name) == ["Carl", "Abel", "Bea"])
      let notes = try Table("note").all().orderByPrimaryKey().select(Column("content"), as: String.self)
        .fetchAll(db)
      #expect(notes == ["b", "a", "c"])
      let sql = try capturedSQL(db) { _ = try Player.orderByPrimaryKey().fetchAll(db) }
      #expect(sql.last?.contains(#"ORDER BY "id""#) == true)
    }
  }

  @Test(
    "withStableOrder appends the primary key, or every column of a view",
    arguments: RequestProtocolStore.allCases)
  func withStableOrder(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.write { db in
      try db.execute(sql: "UPDATE player SET score = 100")
      #expect(try Player.order(\.score).withStableOrder().fetchAll(db).map(\.id) == [1, 2, 3, 4, 5])
      #expect(
        try Player.order(\.score).withStableOrder().reversed().fetchAll(db).map(\.id) == [5, 4, 3, 2, 1])
      let names = try Table("playerName").select(Column("name"), as: String.self).withStableOrder()
        .fetchAll(db)
      #expect(names == ["Arthur", "Barbara", "Craig", "Diane", "Eve"])
      let teams = try Team.including(all: Team.players.withStableOrder().reversed()).filter(id: 1)
        .asRequest(of: TeamWithPlayers.self).fetchOne(db)
      #expect(teams?.players.map(\.id) == [2, 1])
    }
  }

  @Test(
    "selectPrimaryKey and selectID fetch keys; a composite key comes as rows",
    arguments: RequestProtocolStore.allCases)
  func selectPrimaryKey(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { db in
      #expect(
        try Player.filter { $0.score >= 200 }.selectPrimaryKey(as: Int64.self).fetchAll(db) == [2, 3, 5])
      #expect(try Player.filter { $0.score < 100 }.selectID().fetchAll(db) == [4])
      let ids: Set<Player.ID> = try Player.filter { $0.teamId == 2 }.selectID().fetchSet(db)
      #expect(ids == [3, 4])
      let keys = try Citizenship.orderByPrimaryKey().selectPrimaryKey(as: Row.self).fetchAll(db)
      #expect(
        keys == [
          ["countryCode": "DE", "citizenId": 7], ["countryCode": "FR", "citizenId": 1],
          ["countryCode": "FR", "citizenId": 2],
        ])
      #expect(try Table("note").all().selectPrimaryKey(as: Int64.self).fetchAll(db) == [1, 2, 3])
    }
  }

  @Test("Associations filter by key and id, and reverse or drop their ordering")
  func associationKeysAndOrdering() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.read { db in
      let byKey = try Team.including(all: Team.players.filter(keys: [1, 3, 4]).order(\.score))
        .orderByPrimaryKey().asRequest(of: TeamWithPlayers.self).fetchAll(db)
      #expect(byKey.map { $0.players.map(\.id) } == [[1], [4, 3], []])
      let byID = try Team.including(all: Team.players.filter(id: 2)).filter(id: 1)
        .asRequest(of: TeamWithPlayers.self).fetchOne(db)
      #expect(byID?.players.map(\.name) == ["Barbara"])
      let reversed = try Team.including(all: Team.players.order(\.score).reversed()).filter(id: 2)
        .asRequest(of: TeamWithPlayers.self).fetchOne(db)
      #expect(reversed?.players.map(\.id) == [3, 4])
      let unordered = try Team.including(
        all: Team.players.order(\.score.desc).unordered().orderByPrimaryKey()
      )
      .filter(id: 1).asRequest(of: TeamWithPlayers.self).fetchOne(db)
      #expect(unordered?.players.map(\.id) == [1, 2])
      #expect(Team.players.databaseTableName == "player")
      #expect(Player.all().databaseTableName == "player")
    }
  }

  @Test("groupByPrimaryKey groups by the rowid column, the rowid, or the composite key")
  func groupByPrimaryKey() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.read { db in
      // Without the grouping, the join would give five rows.
      let names = try Team.joining(optional: Team.players).groupByPrimaryKey()
        .select(Column("name"), as: String.self).orderByPrimaryKey().fetchAll(db)
      #expect(names == ["Reds", "Blues", "Greens"])
      #expect(try Citizenship.all().groupByPrimaryKey().fetchCount(db) == 3)
      #expect(try Table("note").all().groupByPrimaryKey().fetchCount(db) == 3)
    }
  }

  @Test("…WhenConnected builders read the schema when the request runs, not when it is built")
  func whenConnected() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    let request = Player.all()
      .filterWhenConnected { db in Column(try db.primaryKey("player").columns[0]) > 2 }
      .orderWhenConnected { db in [Column(try db.columns(in: "player").last!.name)] }
      .selectWhenConnected { _ in [Column("name")] }
      .annotatedWhenConnected { _ in [Column("score")] }
    try writer.read { db in
      let rows = try request.asRequest(of: Row.self).fetchAll(db)
      #expect(
        rows == [
          ["name": "Diane", "score": 50], ["name": "Craig", "score": 200], ["name": "Eve", "score": 250],
        ])
    }
    // A builder's error reaches the fetch.
    struct Refused: Error {}
    let failing = Player.all().filterWhenConnected { _ in throw Refused() }
    try writer.read { db in
      #expect(throws: Refused.self) { try failing.fetchAll(db) }
    }
  }

  @Test("A TableAlias without a type aliases any table; exists tells joined rows from missing ones")
  func tableAliases() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.read { db in
      let alias = TableAlias(name: "p")
      let sql = try capturedSQL(db) {
        _ = try Player.aliased(alias).filter(alias[Column("score")] > 200).fetchAll(db)
      }
      #expect(sql.last?.contains(#"FROM "player" "p""#) == true)

      let teamAlias = TableAlias<Team>()
      let withoutTeam = try Player.joining(optional: Player.team.aliased(teamAlias)).filter(!teamAlias.exists)
        .fetchAll(db)
      #expect(withoutTeam.map(\.name) == ["Eve"])
      let withTeam = try Player.joining(optional: Player.team.aliased(teamAlias)).filter(teamAlias.exists)
        .fetchCount(db)
      #expect(withTeam == 4)

      let playerAlias = TableAlias<Player>()
      let best = try Team.joining(required: Team.players.aliased(playerAlias))
        .order(playerAlias.score.desc).select(Column("name"), as: String.self).fetchOne(db)
      #expect(best == "Reds")
    }
  }

  @Test("Table builds the same requests as record types: keys, ids, associations, aliases")
  func tableRequests() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.write { db in
      let players = Table<Player>("player")
      #expect(try players.orderByPrimaryKey().reversed().selectID().fetchAll(db) == [5, 4, 3, 2, 1])
      #expect(try players.selectPrimaryKey(as: Int64.self).filter(sql: "score > 250").fetchAll(db) == [2])
      #expect(try Table("player").select(sql: "MAX(score)", as: Int.self).fetchOne(db) == 300)
      #expect(try players.exists(db, id: 4))
      #expect(try !players.exists(db, id: 9))
      let teams = Table<Team>("team")
      let withPlayers = try teams.including(all: Team.players.orderByPrimaryKey()).orderByPrimaryKey()
        .asRequest(of: TeamWithPlayers.self).fetchAll(db)
      #expect(withPlayers.map { $0.players.count } == [2, 2, 0])
      #expect(try teams.joining(required: Team.players).distinct().fetchCount(db) == 2)
      #expect(try teams.joining(optional: Team.players).fetchCount(db) == 5)
      #expect(try players.including(required: Player.team).fetchCount(db) == 4)
      #expect(try players.including(optional: Player.team).fetchCount(db) == 5)
      let alias = TableAlias(name: "t")
      #expect(try teams.aliased(alias).filter(alias[Column("name")] == "Blues").fetchOne(db)?.id == 2)
      #expect(try players.deleteOne(db, id: 5))
      #expect(try players.deleteAll(db, ids: [1, 2, 9]) == 2)
      #expect(try players.fetchCount(db) == 2)
    }
  }
}
