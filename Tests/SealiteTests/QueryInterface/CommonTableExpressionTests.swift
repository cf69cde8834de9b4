import Foundation
import Sealite
import Testing

// Common table expressions: defined in a request's WITH clause (by SQL, a
// literal or a request, with or without a column list, recursive), selected
// from, used as subqueries and collections, joined and included through
// associations, interpolated in literals, and in batch updates and deletes.
// The SQL is GRDB's, with values as arguments.

private struct T: TableRecord {}

private struct Chat: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
}

private struct Post: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var chatID: Int64
  var date: Int
}

private struct ChatInfo: Decodable, FetchableRecord, Equatable {
  var chat: Chat
  var latestPost: Post?
}

private struct Node: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var parentId: Int64?
  var name: String
}

private func makeDatabase(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { (db: Database) throws in
    try db.execute(
      sql: """
        CREATE TABLE t (id INTEGER PRIMARY KEY);
        INSERT INTO t VALUES (1), (2), (3);
        CREATE TABLE chat (id INTEGER PRIMARY KEY);
        CREATE TABLE post (id INTEGER PRIMARY KEY, chatID INTEGER NOT NULL REFERENCES chat(id), date INTEGER NOT NULL);
        INSERT INTO chat VALUES (1), (2), (3);
        INSERT INTO post VALUES (1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 2, 3), (5, 2, 2), (6, 2, 1);
        CREATE TABLE node (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES node(id), name TEXT NOT NULL);
        INSERT INTO node VALUES (1, NULL, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a1'), (5, 4, 'a11'), (6, NULL, 'other');
        """)
  }
  return writer
}

/// The SQL and arguments of a request.
private func sql(_ db: Database, _ request: some FetchRequest) throws -> (String, [DatabaseValue]) {
  let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
  return (statement.sql, statement.arguments.values)
}

@Suite("Common table expressions")
struct CommonTableExpressionTests {
  @Test("Initializers without a type make common table expressions of rows")
  func initializers() {
    func acceptRows(_ cte: CommonTableExpression<Row>) -> String { cte.tableName }
    #expect(acceptRows(CommonTableExpression(named: "a", sql: "SELECT 1")) == "a")
    #expect(acceptRows(CommonTableExpression(named: "b", literal: "SELECT \(1)")) == "b")
    #expect(acceptRows(CommonTableExpression(named: "c", request: SQLRequest<Void>("SELECT 1"))) == "c")
    #expect(CommonTableExpression<Int>(named: "d", sql: "SELECT 1").tableName == "d")
  }

  @Test(
    "with(_:) writes the WITH clause of each kind of definition", arguments: RequestProtocolStore.allCases)
  func withClause(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let bySQL = CommonTableExpression(named: "cte", sql: "SELECT ?", arguments: ["O'Brien"])
      #expect(
        try sql(db, T.all().with(bySQL)) == (
          #"WITH "cte" AS (SELECT ?) SELECT * FROM "t""#, ["O'Brien".databaseValue]
        ))
      let byLiteral = CommonTableExpression(named: "cte", literal: "SELECT \("O'Brien")")
      #expect(
        try sql(db, T.with(byLiteral)) == (
          #"WITH "cte" AS (SELECT ?) SELECT * FROM "t""#, ["O'Brien".databaseValue]
        ))
      let byRequest = CommonTableExpression(named: "cte", request: T.filter(Column("id") > 1))
      #expect(
        try sql(db, Table("t").with(byRequest))
          == (#"WITH "cte" AS (SELECT * FROM "t" WHERE "id" > ?) SELECT * FROM "t""#, [1.databaseValue]))
      let bySQLRequest = CommonTableExpression(named: "cte", request: SQLRequest<Int>("SELECT \(5)"))
      // The WITH clause's arguments come before the request's own.
      let filtered = T.filter(Column("id") < 3).with(bySQLRequest)
      #expect(
        try sql(db, filtered)
          == (
            #"WITH "cte" AS (SELECT ?) SELECT * FROM "t" WHERE "id" < ?"#, [5.databaseValue, 3.databaseValue]
          ))
      #expect(try Row.fetchAll(db, filtered).count == 2)
      // A second definition of the same name replaces the first.
      let replaced = T.all().with(bySQL).with(CommonTableExpression(named: "CTE", sql: "SELECT 2"))
      #expect(try sql(db, replaced).0 == #"WITH "CTE" AS (SELECT 2) SELECT * FROM "t""#)
    }
  }

  @Test(
    "Rows are fetched from a common table expression, as rows or records",
    arguments: RequestProtocolStore.allCases)
  func fetchFromCTE(store: RequestProtocolStore) throws {
    struct Answer: Decodable, FetchableRecord, Equatable { var value: Int }
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let rows = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
      #expect(try rows.all().with(rows).fetchOne(db) == ["value": 42])
      #expect(
        try sql(db, rows.all().with(rows)).0
          == #"WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "answer""#)
      let answers = CommonTableExpression<Answer>(named: "answer", sql: "SELECT 42 AS value")
      #expect(try answers.all().with(answers).fetchOne(db) == Answer(value: 42))
      #expect(try answers.all().with(answers).fetchCount(db) == 1)
    }
  }

  @Test("A recursive common table expression counts", arguments: RequestProtocolStore.allCases)
  func recursiveCounter(store: RequestProtocolStore) throws {
    func counter(_ range: ClosedRange<Int>) -> QueryInterfaceRequest<Int> {
      let counter = CommonTableExpression<Int>(
        recursive: true, named: "counter", columns: ["x"],
        literal: "VALUES(\(range.lowerBound)) UNION ALL SELECT x+1 FROM counter WHERE x < \(range.upperBound)"
      )
      return counter.all().with(counter)
    }
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      #expect(
        try sql(db, counter(0...10))
          == (
            #"WITH RECURSIVE "counter"("x") AS (VALUES(?) UNION ALL SELECT x+1 FROM counter WHERE x < ?) SELECT * FROM "counter""#,
            [0.databaseValue, 10.databaseValue]
          ))
      #expect(try counter(0...10).fetchAll(db) == Array(0...10))
      #expect(try counter(3...7).fetchAll(db) == Array(3...7))
      #expect(try counter(3...7).filter(Column("x") >= 5).fetchAll(db) == [5, 6, 7])
    }
  }

  @Test("A recursive common table expression walks a tree", arguments: RequestProtocolStore.allCases)
  func recursiveTreeWalk(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      // The descendants of node 2, with their depth, built from requests.
      let start = Node.filter(Column("id") == 2).select(Column("id"), 0.databaseValue)
      let tree = CommonTableExpression(
        recursive: true, named: "tree", columns: ["id", "depth"],
        literal: """
          \(start) UNION ALL \
          SELECT node.id, tree.depth + 1 FROM node JOIN tree ON node.parentId = tree.id
          """)
      let descendants = Node.with(tree).filter(tree.all().select(Column("id")).contains(Column("id")))
        .order(Column("id"))
      #expect(
        try sql(db, descendants).0
          == #"WITH RECURSIVE "tree"("id", "depth") AS (SELECT "id", ? FROM "node" WHERE "id" = ? UNION ALL "#
          + #"SELECT node.id, tree.depth + 1 FROM node JOIN tree ON node.parentId = tree.id) "#
          + #"SELECT * FROM "node" WHERE "id" IN (SELECT "id" FROM "tree") ORDER BY "id""#)
      #expect(try descendants.fetchAll(db).map(\.name) == ["a", "a1", "a11"])

      // The same tree, joined to read each node's depth.
      let depth = Node.association(to: tree) { node, tree in node[Column("id")] == tree[Column("id")] }
      let request = Node.with(tree)
        .annotated(withRequired: depth.select(Column("depth")))
        .order(Column("id"))
        .asRequest(of: Row.self)
      #expect(
        try request.fetchAll(db).map { [$0["name"] as String: $0["depth"] as Int] }
          == [["a": 0], ["a1": 1], ["a11": 2]])
    }
  }

  @Test("A common table expression is a subquery and a collection", arguments: RequestProtocolStore.allCases)
  func subqueryAndCollection(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let answer = CommonTableExpression(named: "answer", sql: "SELECT 2 AS value")
      let equal = T.filter(Column("id") == answer.all()).with(answer)
      #expect(
        try sql(db, equal).0
          == #"WITH "answer" AS (SELECT 2 AS value) SELECT * FROM "t" WHERE "id" = (SELECT * FROM "answer")"#)
      #expect(try Int.fetchAll(db, equal.select(Column("id"))) == [2])

      let cte = CommonTableExpression(named: "cte", request: T.filter(Column("id") > 1))
      let annotated = T.with(cte).annotated(with: cte.all().select(count(Column("id"))).forKey("n"))
        .asRequest(of: Row.self)
      #expect(
        try sql(db, annotated).0
          == #"WITH "cte" AS (SELECT * FROM "t" WHERE "id" > ?) SELECT *, (SELECT COUNT("id") FROM "cte") AS "n" FROM "t""#
      )
      #expect(try annotated.fetchAll(db).map { $0["n"] as Int } == [2, 2, 2])
      let contained = T.with(cte).filter(cte.contains(Column("id"))).select(Column("id"), as: Int.self)
      #expect(
        try sql(db, contained).0
          == #"WITH "cte" AS (SELECT * FROM "t" WHERE "id" > ?) SELECT "id" FROM "t" WHERE "id" IN "cte""#)
      #expect(try contained.fetchAll(db) == [2, 3])
    }
  }

  @Test("Associations join and include common table expressions", arguments: RequestProtocolStore.allCases)
  func associations(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let cte = CommonTableExpression(named: "cte", request: T.all())
      let optional = T.with(cte).including(
        optional: T.association(to: cte) { left, right in left["id"] > right["id"] })
      #expect(
        try sql(db, optional).0
          == #"WITH "cte" AS (SELECT * FROM "t") SELECT "t".*, "cte".* FROM "t" LEFT JOIN "cte" ON "t"."id" > "cte"."id""#
      )
      let rows = try Row.fetchAll(db, optional.order(Column("id")))
      #expect(rows.count == 4)  // 1-nil, 2-1, 3-1, 3-2
      #expect(rows.map { $0.scopes["cte"]?["id"] as Int? } == [nil, 1, 1, 2])

      let joined = T.with(cte).joining(
        required: T.association(to: cte) { left, right in left["id"] > right["id"] })
      #expect(
        try sql(db, joined).0
          == #"WITH "cte" AS (SELECT * FROM "t") SELECT "t".* FROM "t" JOIN "cte" ON "t"."id" > "cte"."id""#)
      #expect(try Row.fetchAll(db, joined).count == 3)

      // No condition: every pair of rows, the association's filter and ordering.
      let literal = CommonTableExpression(named: "cte", literal: "SELECT \("O'Brien") AS name")
      let cross = T.with(literal).including(required: T.association(to: literal))
      #expect(
        try sql(db, cross)
          == (
            #"WITH "cte" AS (SELECT ? AS name) SELECT "t".*, "cte".* FROM "t" JOIN "cte""#,
            ["O'Brien".databaseValue]
          ))
      #expect(
        try Row.fetchAll(db, cross).map { $0.scopes["cte"]?["name"] as String? }
          == Array(repeating: "O'Brien", count: 3))
      let ordered = T.with(cte).including(required: T.association(to: cte).order(Column("id")))
      #expect(
        try sql(db, ordered).0
          == #"WITH "cte" AS (SELECT * FROM "t") SELECT "t".*, "cte".* FROM "t" JOIN "cte" ORDER BY "cte"."id""#
      )

      // A column list gives the width of the included columns.
      let columns = CommonTableExpression(named: "cte", columns: ["id", "a"], literal: "SELECT 1, 2")
      let withColumns = T.with(columns).including(
        required: T.association(to: columns) { $0["id"] == $1["id"] })
      #expect(
        try sql(db, withColumns).0
          == #"WITH "cte"("id", "a") AS (SELECT 1, 2) SELECT "t".*, "cte".* FROM "t" JOIN "cte" ON "t"."id" = "cte"."id""#
      )
      let row = try #require(try Row.fetchOne(db, withColumns))
      #expect(row.unscoped == ["id": 1])
      #expect(row.scopes["cte"] == ["id": 1, "a": 2])

      // The same association twice under one key: the last condition wins.
      let twice = T.with(cte)
        .including(required: T.association(to: cte) { $0["id"] > $1["id"] })
        .including(required: T.association(to: cte) { $0["id"] + $1["id"] == 4 })
      #expect(
        try sql(db, twice).0
          == #"WITH "cte" AS (SELECT * FROM "t") SELECT "t".*, "cte".* FROM "t" JOIN "cte" ON ("t"."id" + "cte"."id") = ?"#
      )
      #expect(try Row.fetchAll(db, twice).count == 3)
    }
  }

  @Test("A chat is fetched with its latest post", arguments: RequestProtocolStore.allCases)
  func chatWithLatestPost(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let latestPostRequest = Post.annotated(with: max(Column("date"))).group(Column("chatID"))
      let latestPostCTE = CommonTableExpression(named: "latestPost", request: latestPostRequest)
      let latestPost = Chat.association(to: latestPostCTE) { chat, latestPost in
        chat[Column("id")] == latestPost[Column("chatID")]
      }
      let request = Chat.with(latestPostCTE)
        .including(optional: latestPost)
        .orderByPrimaryKey()
        .asRequest(of: ChatInfo.self)
      #expect(
        try sql(db, request).0
          == #"WITH "latestPost" AS (SELECT *, MAX("date") FROM "post" GROUP BY "chatID") "#
          + #"SELECT "chat".*, "latestPost".* FROM "chat" LEFT JOIN "latestPost" ON "chat"."id" = "latestPost"."chatID" "#
          + #"ORDER BY "chat"."id""#)
      #expect(
        try request.fetchAll(db) == [
          ChatInfo(chat: Chat(id: 1), latestPost: Post(id: 3, chatID: 1, date: 3)),
          ChatInfo(chat: Chat(id: 2), latestPost: Post(id: 4, chatID: 2, date: 3)),
          ChatInfo(chat: Chat(id: 3), latestPost: nil),
        ])
    }
  }

  @Test("Common table expressions chain through associations", arguments: RequestProtocolStore.allCases)
  func chainedAssociations(store: RequestProtocolStore) throws {
    enum CTE1 {}
    enum CTE2 {}
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let cte1 = CommonTableExpression<CTE1>(named: "cte1", request: T.filter(Column("id") == 1))
      let cte2 = CommonTableExpression<CTE2>(named: "cte2", literal: "SELECT \("O'Brien") AS name")
      for last in [cte2.association(to: T.self), cte2.association(to: Table("t"))] {
        let request = T.with(cte1).with(cte2)
          .including(
            required: T.association(to: cte1).including(
              required: cte1.association(to: cte2).including(required: last)))
        let (text, arguments) = try sql(db, request)
        #expect(
          text.hasPrefix(
            #"WITH "cte1" AS (SELECT * FROM "t" WHERE "id" = ?), "cte2" AS (SELECT ? AS name) SELECT "#))
        #expect(text.contains(#" JOIN "cte1" JOIN "cte2" JOIN "t" "#))
        #expect(arguments == [1.databaseValue, "O'Brien".databaseValue])
        #expect(try Row.fetchAll(db, request).count == 9)
      }
      // The width of a common table expression of another is counted
      // without compiling its SQL when it is a request.
      let a = CommonTableExpression(named: "a", request: Table("b").select(Column("x")))
      let b = CommonTableExpression(named: "b", sql: "SELECT 1 AS x")
      let fine = a.all().with(a).with(b).including(required: a.association(to: b))
      #expect(try Row.fetchOne(db, fine)?.scopes["b"] == ["x": 1])
    }
  }

  @Test("A common table expression whose columns can not be counted asks for its column list")
  func uncountableColumns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      let cte1 = CommonTableExpression(named: "cte1", sql: "SELECT * FROM cte2")
      let cte2 = CommonTableExpression(named: "cte2", sql: "SELECT 1 AS a")
      let request = cte1.all().with(cte1).with(cte2).including(required: cte1.association(to: cte2))
      do {
        _ = try request.fetchOne(db)
        Issue.record("expected an error")
      } catch let error as DatabaseError {
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(
          error.message == """
            Can't compute the number of columns in the "cte1" common table expression: no such table: cte2. \
            Check the syntax of the SQL definition, or provide the explicit list of selected columns with the \
            `columns` parameter in the CommonTableExpression initializer.
            """)
      }
      let fixed = CommonTableExpression(named: "cte1", columns: ["a"], sql: "SELECT * FROM cte2")
      let fixedRequest = fixed.all().with(fixed).with(cte2).including(required: fixed.association(to: cte2))
      #expect(try fixedRequest.fetchOne(db)?.scopes["cte2"] == ["a": 1])
    }
  }

  @Test(
    "Associations define common table expressions of the whole statement",
    arguments: RequestProtocolStore.allCases)
  func associationCTEs(store: RequestProtocolStore) throws {
    struct Team: TableRecord {}
    struct Player: TableRecord { static let team = belongsTo(Team.self) }
    struct Award: TableRecord {
      static let player = belongsTo(Player.self)
      static let team = hasOne(Team.self, through: player, using: Player.team)
    }
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { (db: Database) throws in
      try db.execute(
        sql: """
          CREATE TABLE team (id INTEGER PRIMARY KEY);
          CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
          CREATE TABLE award (id INTEGER PRIMARY KEY, playerId INTEGER REFERENCES player(id));
          """)
    }
    try writer.read { (db: Database) throws in
      let cte1 = CommonTableExpression(named: "cte", sql: "SELECT 1")
      let cte2 = CommonTableExpression(named: "cte", sql: "SELECT 2")
      let join = #"SELECT "award".* FROM "award" LEFT JOIN "player" ON "player"."id" = "award"."playerId""#
      let both = join + #" LEFT JOIN "team" ON "team"."id" = "player"."teamId""#
      #expect(
        try sql(db, Award.joining(optional: Award.player.with(cte1))).0 == #"WITH "cte" AS (SELECT 1) "#
          + join)
      #expect(
        try sql(db, Award.joining(optional: Award.team.with(cte1))).0 == #"WITH "cte" AS (SELECT 1) "# + both)
      let pivot = Award.hasOne(Team.self, through: Award.player.with(cte1), using: Player.team)
      #expect(try sql(db, Award.joining(optional: pivot)).0 == #"WITH "cte" AS (SELECT 1) "# + both)
      let distinct = Award.with(CommonTableExpression(named: "other", sql: "SELECT 0"))
        .joining(optional: Award.player.with(cte1))
      #expect(try sql(db, distinct).0 == #"WITH "other" AS (SELECT 0), "cte" AS (SELECT 1) "# + join)
      // The last definition of a name wins.
      #expect(
        try sql(db, Award.with(cte1).joining(optional: Award.player.with(cte2))).0
          == #"WITH "cte" AS (SELECT 2) "# + join)
      let twoPaths = Award.joining(optional: Award.player.with(cte1)).joining(optional: Award.team.with(cte2))
      #expect(try sql(db, twoPaths).0.hasPrefix(#"WITH "cte" AS (SELECT 2) SELECT "award".* FROM "award" "#))
      _ = try Row.fetchAll(db, Award.joining(optional: Award.team.with(cte2)))
    }
  }

  @Test(
    "Literals interpolate a common table expression's name and definition",
    arguments: RequestProtocolStore.allCases)
  func interpolation(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { (db: Database) throws in
      let cte = CommonTableExpression(named: "cte", literal: "SELECT \("O'Brien")")
      let byName: SQLRequest<String> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
      #expect(
        try sql(db, byName) == (#"WITH "cte" AS (SELECT ?) SELECT * FROM "cte""#, ["O'Brien".databaseValue]))
      #expect(try byName.fetchOne(db) == "O'Brien")
      let byRequest: SQLRequest<String> = "WITH \(definitionFor: cte) \(cte.all())"
      #expect(try sql(db, byRequest).0 == #"WITH "cte" AS (SELECT ?) SELECT * FROM "cte""#)
      #expect(try byRequest.fetchOne(db) == "O'Brien")
      let empty = CommonTableExpression(named: "cte", columns: [], literal: "SELECT 1")
      #expect(
        try SQL("WITH \(definitionFor: empty) SELECT 1").build(db).sql
          == #"WITH "cte" AS (SELECT 1) SELECT 1"#)
      let named = CommonTableExpression(
        named: "cte", columns: ["name", "score"], literal: "SELECT \("O'Brien"), 12")
      let row = try Row.fetchOne(db, SQLRequest<Row>("WITH \(definitionFor: named) SELECT * FROM \(named)"))
      #expect(row == ["name": "O'Brien", "score": 12])
    }
  }

  @Test("Batch updates and deletes start with the WITH clause", arguments: RequestProtocolStore.allCases)
  func updateAndDelete(store: RequestProtocolStore) throws {
    struct A: Encodable, PersistableRecord {}
    let directory = TemporaryDirectory()
    let writer = try store.makeWriter(directory)
    try writer.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE a (a INTEGER); INSERT INTO a VALUES (1), (2), (3)")
      let cte = CommonTableExpression(named: "cte", sql: "SELECT 1")
      let updates = try capturedSQL(db) { _ = try A.with(cte).updateAll(db, Column("a").set(to: cte.all())) }
      #expect(updates.last == #"WITH "cte" AS (SELECT 1) UPDATE "a" SET "a" = (SELECT * FROM "cte")"#)
      #expect(try Int.fetchAll(db, sql: "SELECT a FROM a") == [1, 1, 1])
      try db.execute(sql: "INSERT INTO a VALUES (2)")
      let deletes = try capturedSQL(db) {
        _ = try A.with(cte).filter(cte.contains(Column("a"))).deleteAll(db)
      }
      #expect(deletes.last == #"WITH "cte" AS (SELECT 1) DELETE FROM "a" WHERE "a" IN "cte""#)
      #expect(try Int.fetchAll(db, sql: "SELECT a FROM a") == [2])
    }
  }

  @Test("The region of a request of a common table expression is the tables its definition reads")
  func region() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); CREATE TABLE other (id INTEGER PRIMARY KEY)")
    }
    let region = try dbQueue.read { db in
      let cte = CommonTableExpression(named: "cte", request: T.select(Column("id")))
      return try cte.all().with(cte).databaseRegion(db)
    }
    #expect(region.isModified(byEventsOfKind: .insert(tableName: "t")))
    #expect(!region.isModified(byEventsOfKind: .insert(tableName: "other")))
    #expect(!region.isFullDatabase)
  }
}
