import Foundation
import Sealite
import Testing

// Requests used as subqueries: as values, with `contains` (IN), `exists()`
// (EXISTS), negated, correlated with the enclosing request's table, in
// selections, orderings and SQL literals. The SQL is GRDB's, with values as
// arguments.

private struct Team: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var teamId: Int64?
  var name: String
  var score: Int
}

private func makeDatabase(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE player (
          id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL,
          score INTEGER NOT NULL);
        INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'), (3, 'Greens');
        INSERT INTO player VALUES (1, 1, 'Arthur', 10), (2, 1, 'Barbara', 30), (3, 2, 'Craig', 20),
          (4, NULL, 'Diane', 30);
        """)
  }
  return writer
}

/// The SQL and arguments of a request.
private func sql(_ db: Database, _ request: some FetchRequest) throws -> (String, [DatabaseValue]) {
  let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
  return (statement.sql, statement.arguments.values)
}

@Suite("Subqueries")
struct SubqueryTests {
  @Test("A request compared with == is a scalar subquery", arguments: RequestProtocolStore.allCases)
  func scalarSubquery(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let maximum = Player.select(max(Column("score")))
      let request = Player.filter(Column("score") == maximum).order(Column("id"))
      #expect(
        try sql(db, request).0
          == #"SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player") ORDER BY "id""#)
      #expect(try request.fetchAll(db).map(\.id) == [2, 4])
    }
  }

  @Test("contains(_:) is IN (subquery), and ! makes it NOT IN", arguments: RequestProtocolStore.allCases)
  func containsSubquery(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let teamIds = Player.select(Column("teamId")).filter(Column("score") > 15).distinct()
      let teams = Team.filter(teamIds.contains(Column("id"))).order(Column("id"))
      #expect(
        try sql(db, teams).0
          == #"SELECT * FROM "team" WHERE "id" IN (SELECT DISTINCT "teamId" FROM "player" WHERE "score" > ?) ORDER BY "id""#
      )
      #expect(try sql(db, teams).1 == [15.databaseValue])
      #expect(try teams.fetchAll(db).map(\.name) == ["Reds", "Blues"])

      let others = Team.filter(
        !Player.select(Column("teamId")).filter(Column("teamId") != nil).contains(Column("id")))
      #expect(
        try sql(db, others).0
          == #"SELECT * FROM "team" WHERE "id" NOT IN (SELECT "teamId" FROM "player" WHERE "teamId" IS NOT NULL)"#
      )
      #expect(try others.fetchAll(db).map(\.name) == ["Greens"])

      // An SQL request, with its arguments, where the subquery is.
      let literal = SQLRequest<Int>(sql: "SELECT ? UNION SELECT ?", arguments: [11, 21])
      let shifted = Player.filter(literal.contains(Column("score") + 1)).order(Column("id"))
      #expect(
        try sql(db, shifted).0
          == #"SELECT * FROM "player" WHERE ("score" + ?) IN (SELECT ? UNION SELECT ?) ORDER BY "id""#)
      #expect(try sql(db, shifted).1 == [1, 11, 21].map(\.databaseValue))
      #expect(try shifted.fetchAll(db).map(\.id) == [1, 3])
    }
  }

  @Test(
    "exists() is EXISTS (subquery), correlated with the enclosing table",
    arguments: RequestProtocolStore.allCases)
  func existsSubquery(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let teamAlias = TableAlias<Team>()
      let players = Player.filter(Column("teamId") == teamAlias[Column("id")])
      let teams = Team.aliased(teamAlias).filter(players.exists())
      #expect(
        try sql(db, teams).0
          == #"SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")"#)
      #expect(try teams.fetchAll(db).map(\.name).sorted() == ["Blues", "Reds"])

      let empty = Team.aliased(teamAlias).filter(!players.exists())
      #expect(
        try sql(db, empty).0
          == #"SELECT * FROM "team" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")"#)
      #expect(try empty.fetchAll(db).map(\.name) == ["Greens"])

      // A named alias, and the same table in both queries.
      let alias = TableAlias(name: "p")
      let better = Player.filter(Column("score") > alias[Column("score")])
      let best = Player.all().aliased(alias).filter(!better.exists()).order(alias[Column("id")])
      #expect(
        try sql(db, best).0
          == #"SELECT "p".* FROM "player" "p" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "score" > "p"."score") ORDER BY "p"."id""#
      )
      #expect(try best.fetchAll(db).map(\.id) == [2, 4])

      // An SQL request correlated by interpolation.
      let literal = SQLRequest<Row>("SELECT * FROM player WHERE score > \(alias[Column("score")])")
      let sameBest = Player.all().aliased(alias).filter(!literal.exists())
      #expect(
        try sql(db, sameBest).0
          == #"SELECT "p".* FROM "player" "p" WHERE NOT EXISTS (SELECT * FROM player WHERE score > "p"."score")"#
      )
      #expect(try sameBest.fetchAll(db).map(\.id).sorted() == [2, 4])
    }
  }

  @Test("Subqueries are selected, ordered by, and interpolated", arguments: RequestProtocolStore.allCases)
  func selectedAndInterpolated(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let teamAlias = TableAlias<Team>()
      let playerCount = Player.filter(Column("teamId") == teamAlias[Column("id")]).select(count(Column("id")))
      let request = Team.aliased(teamAlias)
        .annotated(with: playerCount.forKey("playerCount"))
        .order(playerCount.desc, Column("id"))
        .asRequest(of: Row.self)
      #expect(
        try sql(db, request).0
          == #"SELECT *, (SELECT COUNT("id") FROM "player" WHERE "teamId" = "team"."id") AS "playerCount" "#
          + #"FROM "team" ORDER BY (SELECT COUNT("id") FROM "player" WHERE "teamId" = "team"."id") DESC, "id""#
      )
      #expect(try request.fetchAll(db).map { $0["playerCount"] as Int } == [2, 1, 0])

      // In a literal, a subquery is written without parentheses, as in GRDB.
      let maximum = Player.select(max(Column("score")) - 10)
      let literal: SQLRequest<String> = "SELECT name FROM player WHERE score = (\(maximum)) ORDER BY id"
      #expect(
        try sql(db, literal).0
          == #"SELECT name FROM player WHERE score = (SELECT MAX("score") - ? FROM "player") ORDER BY id"#)
      #expect(try literal.fetchAll(db) == ["Craig"])
      let sqlMaximum: SQLRequest<Int> = "SELECT MAX(score) - \(20) FROM player"
      let literal2: SQLRequest<String> = "SELECT name FROM player WHERE score = (\(sqlMaximum))"
      #expect(
        try sql(db, literal2).0 == "SELECT name FROM player WHERE score = (SELECT MAX(score) - ? FROM player)"
      )
      #expect(try literal2.fetchAll(db) == ["Arthur"])
    }
  }

  @Test("Type-erased and adapted requests are subqueries too", arguments: RequestProtocolStore.allCases)
  func wrappedRequests(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let erased = AnyFetchRequest(Player.select(Column("teamId")).filter(Column("score") == 30))
      let adapted = Player.select(Column("teamId")).filter(Column("score") == 20).adapted { _ in
        SuffixRowAdapter(fromIndex: 0)
      }
      let teams = Team.filter(erased.contains(Column("id")) || adapted.contains(Column("id"))).order(
        Column("id"))
      #expect(try teams.fetchAll(db).map(\.name) == ["Reds", "Blues"])
      #expect(try Bool.fetchOne(db, Player.select(erased.exists())) == true)
      #expect(try Bool.fetchOne(db, Player.select(!adapted.exists())) == false)
    }
  }

  @Test("exists() interpolated in an SQL literal is EXISTS (subquery)")
  func existsInLiteral() throws {
    let literal: SQL = "SELECT \(Player.all().exists())"
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(
        sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER, name TEXT, score INTEGER)")
      #expect(try literal.build(db).sql == #"SELECT EXISTS (SELECT * FROM "player")"#)
      #expect(try Bool.fetchOne(db, SQLRequest<Bool>(literal: literal)) == false)
    }
  }
}
