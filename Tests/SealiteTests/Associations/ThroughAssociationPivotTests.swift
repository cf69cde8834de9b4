import Foundation
import Sealite
import Testing

// The pivot of a `through` association is a join of its own association,
// under that association's key, as in GRDB: another use of the pivot's
// association in the same request is the same join (one table, required
// winning over optional), annotations of either add their columns to the
// origin's row in the order the request names them, the pivot's scope holds
// the destination's, and the pivot's ordering orders the destination rows.

@Suite("Through associations: the pivot is its association's own join")
struct ThroughAssociationPivotTests {
  private struct A: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var bId: Int64?
    var name: String
    static let b = belongsTo(B.self)
    static let c = hasOne(C.self, through: b, using: B.c)
  }

  private struct B: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var cId: Int64?
    var name: String
    static let c = belongsTo(C.self)
  }

  private struct C: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
    static let ds = hasMany(D.self)
  }

  private struct D: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var cId: Int64
    var name: String
  }

  private func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE c (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE b (id INTEGER PRIMARY KEY, cId INTEGER REFERENCES c(id), name TEXT NOT NULL);
          CREATE TABLE a (id INTEGER PRIMARY KEY, bId INTEGER REFERENCES b(id), name TEXT NOT NULL);
          INSERT INTO c VALUES (1, 'c1');
          INSERT INTO b VALUES (1, 1, 'b1'), (2, NULL, 'b2');
          INSERT INTO a VALUES (1, 1, 'a1'), (2, 2, 'a2'), (3, NULL, 'a3');
          CREATE TABLE d (id INTEGER PRIMARY KEY, cId INTEGER NOT NULL REFERENCES c(id), name TEXT NOT NULL);
          INSERT INTO d VALUES (1, 1, 'd1'), (2, 1, 'd2');
          """)
    }
    return dbQueue
  }

  private func sql(_ db: Database, _ request: QueryInterfaceRequest<A>) throws -> String {
    try request.makePreparedRequest(db, forSingleResult: false).statement.sql
  }

  private let bOn = #""b"."id" = "a"."bId""#
  private let cOn = #""c"."id" = "b"."cId""#

  @Test("The pivot and the direct use of its association are one join, in either order")
  func pivotMergesWithDirectUse() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let expected =
        #"SELECT "a".*, "b".*, "c".* FROM "a" LEFT JOIN "b" ON "# + bOn + #" LEFT JOIN "c" ON "# + cOn
      #expect(try sql(db, A.including(optional: A.c).including(optional: A.b)) == expected)
      #expect(try sql(db, A.including(optional: A.b).including(optional: A.c)) == expected)
      // Required wins over optional, for the pivot as for any join.
      #expect(
        try sql(db, A.including(optional: A.c).including(required: A.b))
          == #"SELECT "a".*, "b".*, "c".* FROM "a" JOIN "b" ON "# + bOn + #" LEFT JOIN "c" ON "# + cOn)
      #expect(
        try sql(db, A.including(required: A.c).joining(optional: A.b))
          == #"SELECT "a".*, "c".* FROM "a" JOIN "b" ON "# + bOn + #" JOIN "c" ON "# + cOn)
      // And the rows are those of one join: a2's b has no c.
      let rows = try Row.fetchAll(db, A.including(optional: A.c).including(required: A.b).order(Column("id")))
      #expect(rows.map { $0["name"] as String } == ["a1", "a2"])
      #expect(rows.map { $0.scopes["b"]?["name"] as String? } == ["b1", "b2"])
      #expect(rows.map { $0.scopesTree["c"]?["name"] as String? } == ["c1", nil])
    }
  }

  @Test("Annotations merge with the pivot, and their columns follow the origin's in the order of the request")
  func annotationsFollowTheRequest() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(
        try sql(db, A.annotated(withOptional: A.c).annotated(withRequired: A.b))
          == #"SELECT "a".*, "c".*, "b".* FROM "a" JOIN "b" ON "# + bOn + #" LEFT JOIN "c" ON "# + cOn)
      #expect(
        try sql(db, A.annotated(withOptional: A.b).including(optional: A.c))
          == #"SELECT "a".*, "b".*, "c".* FROM "a" LEFT JOIN "b" ON "# + bOn + #" LEFT JOIN "c" ON "# + cOn)
      let request = A.annotated(withOptional: A.c.select(Column("name").forKey("cName")))
        .annotated(withRequired: A.b.select(Column("name").forKey("bName")))
        .order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(
        rows.map(\.columnNames) == [
          ["id", "bId", "name", "cName", "bName"], ["id", "bId", "name", "cName", "bName"],
        ])
      #expect(rows.map { $0["cName"] as String? } == ["c1", nil])
      #expect(rows.map { $0["bName"] as String? } == ["b1", "b2"])
    }
  }

  @Test("The pivot's scope holds the destination's, and a record decodes it at any depth")
  func pivotScope() throws {
    struct AInfo: Decodable, FetchableRecord, Equatable {
      var a: A
      var c: C?
    }
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request = A.including(optional: A.c).order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(rows.map(\.scopes.names) == [["b"], ["b"], ["b"]])
      #expect(rows.map { $0.scopes["b"]?.count } == [0, 0, 0])
      #expect(rows.map { $0.scopes["b"]?.scopes["c"]?["name"] as String? } == ["c1", nil, nil])
      let infos = try request.asRequest(of: AInfo.self).fetchAll(db)
      #expect(infos.map(\.a.name) == ["a1", "a2", "a3"])
      #expect(infos.map(\.c) == [C(id: 1, name: "c1"), nil, nil])
    }
  }

  @Test("A joined table's prefetch follows the join from the origin rows, and attaches to them (GRDB's rule)")
  func joinedTablePrefetch() throws {
    struct AInfo: Decodable, FetchableRecord {
      var a: A
      var ds: [D]
    }
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request = A.joining(optional: A.c.including(all: C.ds.order(Column("id")))).order(Column("id"))
      var infos: [AInfo] = []
      let statements = try capturedSQL(db) { infos = try request.asRequest(of: AInfo.self).fetchAll(db) }
      #expect(infos.map(\.a.name) == ["a1", "a2", "a3"])
      #expect(infos.map { $0.ds.map(\.name) } == [["d1", "d2"], [], []])
      // The second query joins the pivot and the joined table back to the
      // books' keys, and runs once.
      #expect(statements.filter { $0.contains(#"FROM "d""#) }.count == 1)
      let rows = try Row.fetchAll(db, request)
      #expect(rows.map { $0.prefetchedRows["ds"]?.count } == [2, 0, 0])
    }
  }

  @Test(
    "An included table's prefetch joins back to the fetched rows' keys, and attaches to the table's scope")
  func includedTablePrefetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      var rows: [Row] = []
      let statements = try capturedSQL(db) {
        rows = try Row.fetchAll(db, B.including(optional: B.c.including(all: C.ds)).order(Column("id")))
      }
      #expect(
        statements.last
          == #"SELECT "d".*, "c"."id" AS "grdb_id" FROM "d" JOIN "c" ON ("c"."id" = "d"."cId") AND ("c"."id" = ?)"#
      )
      #expect(
        rows.map { $0.scopes["c"]?.prefetchedRows["ds"]?.map { $0["name"] as String } } == [
          ["d1", "d2"], [],
        ])
      #expect(rows.first?.scopes["c"]?.prefetchedRows["ds"]?.first?["grdb_id"] == 1)
    }
  }

  @Test("A table included on a condition (a common table expression) prefetches from its scope rows' columns")
  func conditionJoinPrefetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let cs = CommonTableExpression<C>(named: "cs", request: C.all())
      let request = B.with(cs)
        .including(
          optional: B.association(to: cs) { b, c in b[Column("cId")] == c[Column("id")] }.including(all: C.ds)
        )
        .order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(
        rows.map { $0.scopes["c"]?.prefetchedRows["ds"]?.map { $0["name"] as String } } == [
          ["d1", "d2"], [],
        ])
    }
  }

  @Test("An included table under a joined one gets its prefetched rows in its scope")
  func includedUnderJoinedPrefetch() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let request = A.joining(optional: A.b.including(optional: B.c.including(all: C.ds))).order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(rows.map { $0.scopes["b"]?.scopes["c"]?["name"] as String? } == ["c1", nil, nil])
      #expect(
        rows.map { $0.scopesTree["c"]?.prefetchedRows["ds"]?.map { $0["name"] as String } } == [
          ["d1", "d2"], [], [],
        ])
    }
  }

  @Test("reversed() of the association and of the request cancel out")
  func reversedTwice() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let joined = #" FROM "a" JOIN "b" ON "# + bOn + #" JOIN "c" ON "# + cOn
      #expect(
        try sql(db, A.including(required: A.c.orderByPrimaryKey().reversed()).orderByPrimaryKey().reversed())
          == #"SELECT "a".*, "c".*"# + joined + #" ORDER BY "a"."id" DESC, "c"."id""#)
      #expect(
        try sql(db, A.including(required: A.c.order(Column("name"))).reversed())
          == #"SELECT "a".*, "c".*"# + joined + #" ORDER BY "c"."name" DESC"#)
    }
  }

  private struct Team: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
    static let playerRoles = hasMany(PlayerRole.self).order(Column("position"))
    static let players = hasMany(Player.self, through: playerRoles, using: PlayerRole.player)
  }

  private struct PlayerRole: Codable, FetchableRecord, PersistableRecord {
    var teamId: Int64
    var playerId: Int64
    var position: Int
    static let player = belongsTo(Player.self)
  }

  private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
  }

  @Test("The pivot's ordering orders the prefetched rows, after their own; it orders no aggregate")
  func pivotOrdering() throws {
    struct TeamInfo: Decodable, FetchableRecord {
      var team: Team
      var players: [Player]
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE playerRole (
            teamId INTEGER NOT NULL REFERENCES team(id), playerId INTEGER NOT NULL REFERENCES player(id),
            position INTEGER NOT NULL, PRIMARY KEY (teamId, playerId));
          INSERT INTO team VALUES (1, 'Red');
          INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
          INSERT INTO playerRole VALUES (1, 1, 3), (1, 2, 1), (1, 3, 2);
          """)
    }
    try dbQueue.read { (db: Database) throws in
      var infos: [TeamInfo] = []
      let statements = try capturedSQL(db) {
        infos = try Team.including(all: Team.players).asRequest(of: TeamInfo.self).fetchAll(db)
      }
      #expect(infos.first?.players.map(\.name) == ["Barbara", "Craig", "Arthur"])
      #expect(statements.last?.hasSuffix(#"ORDER BY "playerRole"."position""#) == true)
      let byName = try capturedSQL(db) {
        infos = try Team.including(all: Team.players.order(Column("name").desc)).asRequest(of: TeamInfo.self)
          .fetchAll(db)
      }
      #expect(infos.first?.players.map(\.name) == ["Craig", "Barbara", "Arthur"])
      #expect(byName.last?.hasSuffix(#"ORDER BY "player"."name" DESC, "playerRole"."position""#) == true)
      let counted = try Row.fetchOne(db, Team.annotated(with: Team.players.count))
      #expect(counted?["playerCount"] == 3)
      let countSQL = try Team.annotated(with: Team.players.count).makePreparedRequest(
        db, forSingleResult: false
      )
      .statement.sql
      #expect(!countSQL.contains("ORDER BY"))
    }
  }

  @Test(
    "A foreign key given whole is written as spelled; one given by its origin columns, as the schema spells it"
  )
  func foreignKeySpelling() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let association = A.belongsTo(B.self, using: ForeignKey([Column("BID")], to: [Column("ID")]))
      #expect(
        try sql(db, A.including(required: association))
          == #"SELECT "a".*, "b".* FROM "a" JOIN "b" ON "b"."ID" = "a"."BID""#)
      let schemaOnly = A.belongsTo(B.self, using: ForeignKey([Column("BID")]))
      #expect(
        try sql(db, A.joining(required: schemaOnly))
          == #"SELECT "a".* FROM "a" JOIN "b" ON "b"."id" = "a"."bId""#)
    }
  }
}
