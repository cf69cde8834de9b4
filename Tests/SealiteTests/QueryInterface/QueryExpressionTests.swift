import Foundation
import Sealite
import Testing

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Hashable {
  var id: Int64
  var name: String
  var nickname: String?
  var score: Int?
  var team: String
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (
          id INTEGER PRIMARY KEY, name TEXT NOT NULL, nickname TEXT, score INTEGER, team TEXT NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur', 'Art', 100, 'red');
        INSERT INTO player VALUES (2, 'barbara', NULL, 200, 'blue');
        INSERT INTO player VALUES (3, 'Craig', 'Cr', NULL, 'red');
        INSERT INTO player VALUES (4, 'Diana', NULL, -50, 'blue');
        INSERT INTO player VALUES (5, 'Éric', 'E', 200, 'green');
        """)
  }
  return dbQueue
}

/// The ids of the players that match a predicate, in id order.
/// The WHERE clause of the players' request filtered by `predicate`.
private func whereClause(_ db: Database, _ predicate: SQLExpression) throws -> String {
  let sql = try capturedSQL(db) { _ = try Row.fetchAll(db, Player.filter(predicate)) }
  return String(try #require(sql.last?.split(separator: " WHERE ", maxSplits: 1).last))
}

private func ids(_ db: Database, _ predicate: some SQLExpressible) throws -> [Int64] {
  try Player.filter(predicate).order(Column("id")).select(Column("id"), as: Int64.self).fetchAll(db)
}

private let name = Column("name")
private let nickname = Column("nickname")
private let score = Column("score")
private let team = Column("team")
private let id = Column("id")

@Suite("Query interface expressions")
struct QueryExpressionTests {
  @Test("Comparison operators: == != < <= > >=")
  func comparisons() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try ids(db, score == 200) == [2, 5])
      #expect(try ids(db, score != 200) == [1, 4])
      #expect(try ids(db, score < 100) == [4])
      #expect(try ids(db, score <= 100) == [1, 4])
      #expect(try ids(db, score > 100) == [2, 5])
      #expect(try ids(db, score >= 100) == [1, 2, 5])
      #expect(try ids(db, 100 < score) == [2, 5])
      #expect(try ids(db, score == Column("id") * 100) == [1, 2])
    }
  }

  @Test("Two columns compare in SQL, not as Swift values: a column is not Equatable, as in GRDB")
  func columnComparisons() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      // NULL = NULL is not true: player 3, without a score, is not selected.
      #expect(try ids(db, Column("score") == Column("score")) == [1, 2, 4, 5])
      #expect(try ids(db, Column("name") != Column("name")) == [])
      #expect(try ids(db, Column("nickname") == Column("nickname") && Column("score") > 0) == [1, 5])
    }
  }

  @Test("== nil and != nil are IS NULL and IS NOT NULL; === is IS")
  func nullComparisons() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try ids(db, score == nil) == [3])
      #expect(try ids(db, score != nil) == [1, 2, 4, 5])
      #expect(try ids(db, nickname == nil) == [2, 4])
      let none: String? = nil
      #expect(try ids(db, nickname === none) == [2, 4])
      #expect(try ids(db, nickname === "Art") == [1])
      #expect(try ids(db, nickname !== "Art") == [2, 3, 4, 5])
    }
  }

  @Test("Logical operators && || !")
  func logic() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try ids(db, team == "red" && score > 0) == [1])
      #expect(try ids(db, team == "green" || score < 0) == [4, 5])
      #expect(try ids(db, !(team == "red")) == [2, 4, 5])
      #expect(try ids(db, !(team == "red" || team == "blue") && score != nil) == [5])
    }
  }

  @Test("Chains of AND and of OR are written flat, as GRDB writes them; a mixed chain keeps its groups")
  func flatLogic() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let request = Player.filter((team == "red" && score > 0) && Column("name") != "x")
        .filter(Column("id") > 0)
      let sql = try capturedSQL(db) { _ = try request.fetchAll(db) }
      #expect(
        sql.last
          == #"SELECT * FROM "player" WHERE ("team" = ?) AND ("score" > ?) AND ("name" <> ?) AND ("id" > ?)"#)
      let either = try capturedSQL(db) {
        _ = try Player.filter(team == "red" || (team == "blue" || (score == nil && team == "green")))
          .fetchAll(db)
      }
      #expect(
        either.last
          == #"SELECT * FROM "player" WHERE ("team" = ?) OR ("team" = ?) OR (("score" IS NULL) AND ("team" = ?))"#
      )
      #expect(
        try ids(db, team == "red" || (team == "blue" || (score == nil && team == "green"))) == [1, 2, 3, 4])
    }
  }

  @Test("contains of one value compares with = and <>, of several lists them with IN, as GRDB writes them")
  func containsOfOneValue() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try whereClause(db, ["red"].contains(team)) == #""team" = ?"#)
      #expect(try whereClause(db, !["red"].contains(team)) == #""team" <> ?"#)
      #expect(try whereClause(db, !(!["red"].contains(team))) == #""team" = ?"#)
      #expect(try whereClause(db, [team].contains(team)) == #""team" = "team""#)
      #expect(try whereClause(db, ["red", "blue"].contains(team)) == #""team" IN (?, ?)"#)
      #expect(try whereClause(db, [String]().contains(team)) == "0")
      // The same rows as IN.
      #expect(try ids(db, ["red"].contains(team)) == [1, 3])
      #expect(try ids(db, !["red"].contains(team)) == [2, 4, 5])
    }
  }

  @Test("! negates comparisons, IS NULL, IN, BETWEEN and LIKE with their own operators, as GRDB writes them")
  func negatedOperators() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try whereClause(db, !(team == "red")) == #""team" <> ?"#)
      #expect(try whereClause(db, !(team != "red")) == #""team" = ?"#)
      #expect(try whereClause(db, !(score == nil)) == #""score" IS NOT NULL"#)
      #expect(try whereClause(db, !(score != nil)) == #""score" IS NULL"#)
      #expect(try whereClause(db, !(team === "red")) == #""team" IS NOT ?"#)
      #expect(try whereClause(db, !["red", "blue"].contains(team)) == #""team" NOT IN (?, ?)"#)
      #expect(try whereClause(db, !(0...150).contains(score)) == #""score" NOT BETWEEN ? AND ?"#)
      #expect(try whereClause(db, !name.like("%r%")) == #""name" NOT LIKE ?"#)
      #expect(try whereClause(db, !(score > 0)) == #"NOT ("score" > ?)"#)
      // The results are those of NOT: rows where the comparison is NULL stay out.
      #expect(try ids(db, !(team == "red")) == [2, 4, 5])
      let scored = try ids(db, !(score == nil))
      #expect(scored == [1, 2, 4, 5], "\(scored)")
      #expect(try ids(db, !["red", "blue"].contains(team)) == [5])
      #expect(try ids(db, !(0...150).contains(score)) == [2, 4, 5])
      #expect(try ids(db, !name.like("%r%")) == [4])
    }
  }

  @Test("TableAlias.exists tests the rowid's column, and its negation is IS NULL, as GRDB writes them")
  func aliasExists() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(
        sql: """
          CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
          CREATE TABLE editor (code TEXT PRIMARY KEY, name TEXT);
          CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id),
            editorCode TEXT REFERENCES editor(code));
          INSERT INTO author VALUES (1, 'Ann');
          INSERT INTO editor VALUES ('e', 'Ed');
          INSERT INTO book VALUES (1, 1, NULL), (2, NULL, 'e');
          """)
      let author = TableAlias(name: "a")
      let editor = TableAlias(name: "e")
      let books = Table("book")
        .joining(optional: Table("book").belongsTo(Table("author")).aliased(author))
        .joining(optional: Table("book").belongsTo(Table("editor")).aliased(editor))
        .select(Column("id"), as: Int64.self).order(Column("id"))
      func run(_ predicate: SQLExpression) throws -> (String, [Int64]) {
        var result: [Int64] = []
        let sql = try capturedSQL(db) { result = try books.filter(predicate).fetchAll(db) }
        return (String(try #require(sql.last?.split(separator: " WHERE ").last)), result)
      }
      #expect(try run(author.exists) == (#""a"."id" IS NOT NULL ORDER BY "book"."id""#, [1]))
      #expect(try run(!author.exists) == (#""a"."id" IS NULL ORDER BY "book"."id""#, [2]))
      #expect(try run(!(!author.exists)) == (#""a"."id" IS NOT NULL ORDER BY "book"."id""#, [1]))
      // A table whose primary key is not the rowid is tested by its rowid.
      #expect(try run(!editor.exists) == (#""e"."rowid" IS NULL ORDER BY "book"."id""#, [1]))
      #expect(
        try run(author.exists && editor.exists)
          == (#"("a"."id" IS NOT NULL) AND ("e"."rowid" IS NOT NULL) ORDER BY "book"."id""#, []))
    }
  }

  @Test("Arithmetic + - * / and unary minus")
  func arithmetic() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let values = try Player.filter(id == 1).select(
        score + 1, score - 1, score * 2, score / 3, -score, id + score * 2
      ).asRequest(of: Row.self).fetchOne(db)
      let row = try #require(values)
      #expect(row[0] == 101)
      #expect(row[1] == 99)
      #expect(row[2] == 200)
      #expect(row[3] == 33)
      #expect(row[4] == -100)
      #expect(row[5] == 201)
      #expect(try ids(db, -score > 0) == [4])
    }
  }

  @Test("like, collection contains, range contains and between")
  func membership() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try ids(db, name.like("%a%")) == [1, 2, 3, 4])
      #expect(try ids(db, name.like("B%")) == [2])
      #expect(try ids(db, [1, 3, 5].contains(id)) == [1, 3, 5])
      #expect(try ids(db, ["red", "green"].contains(team)) == [1, 3, 5])
      #expect(try ids(db, [Int]().contains(id)) == [])
      #expect(try ids(db, (100...200).contains(score)) == [1, 2, 5])
      #expect(try ids(db, (100..<200).contains(score)) == [1])
      #expect(try ids(db, score.between(-100, and: 100)) == [1, 4])
    }
  }

  @Test("?? is COALESCE")
  func coalesce() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let names = try Player.order(id).select(nickname ?? name, as: String.self).fetchAll(db)
      #expect(names == ["Art", "barbara", "Cr", "Diana", "E"])
      let scores = try Player.order(id).select(score ?? 0, as: Int.self).fetchAll(db)
      #expect(scores == [100, 200, 0, -50, 200])
    }
  }

  @Test("length, abs, lowercased, uppercased, cast")
  func functions() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.filter(id == 4).select(abs(score), as: Int.self).fetchOne(db) == 50)
      #expect(try Player.filter(id == 1).select(length(name), as: Int.self).fetchOne(db) == 6)
      #expect(try Player.filter(id == 1).select(name.uppercased, as: String.self).fetchOne(db) == "ARTHUR")
      #expect(try Player.filter(id == 1).select(name.lowercased, as: String.self).fetchOne(db) == "arthur")
      #expect(try ids(db, name.lowercased == "barbara") == [2])
      let text = try Player.filter(id == 1).select(cast(score, as: .text), as: String.self).fetchOne(db)
      #expect(text == "100")
      let typeName = try Player.filter(id == 1).select(
        SQLExpression(literal: "typeof(\(cast(score, as: .real)))"), as: String.self
      ).fetchOne(db)
      #expect(typeName == "real")
    }
  }

  @Test("collating changes comparisons and orderings")
  func collating() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try ids(db, name == "BARBARA") == [])
      #expect(try ids(db, name.collating(.nocase) == "BARBARA") == [2])
      let binary = try Player.filter(id <= 4).order(name).select(name, as: String.self).fetchAll(db)
      #expect(binary == ["Arthur", "Craig", "Diana", "barbara"])
      let nocase = try Player.filter(id <= 4).order(name.collating(.nocase)).select(name, as: String.self)
        .fetchAll(db)
      #expect(nocase == ["Arthur", "barbara", "Craig", "Diana"])
    }
  }

  @Test("forKey and aliased name a selected expression")
  func forKeyAndAliased() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let row = try #require(
        try Player.filter(id == 1).select((score * 2).forKey("double"), name.aliased("who")).asRequest(
          of: Row.self
        ).fetchOne(db))
      #expect(row.columnNames == ["double", "who"])
      #expect(row["double"] == 200)
      #expect(row["who"] == "Arthur")
    }
  }

  @Test("Aggregates: count, count(distinct:), sum, total, average, min, max")
  func aggregates() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let row = try #require(
        try Player.select(
          count(score), count(distinct: score), sum(score), total(score), average(score), min(score),
          max(score)
        ).asRequest(of: Row.self).fetchOne(db))
      #expect(row[0] == 4)
      #expect(row[1] == 3)
      #expect(row[2] == 450)
      #expect(row[3] == 450.0)
      #expect(row[4] == 112.5)
      #expect(row[5] == -50)
      #expect(row[6] == 200)
      let empty = try #require(
        try Player.filter(id > 100).select(sum(score), total(score), count(score)).asRequest(of: Row.self)
          .fetchOne(db))
      #expect(empty[0] == nil)
      #expect(empty[1] == 0.0)
      #expect(empty[2] == 0)
    }
  }

  @Test("Expressions bind their values as arguments: the SQL has placeholders, not values")
  func valuesAreBound() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      var statements: [String] = []
      db.trace { event in
        if case .statement(let statement) = event { statements.append(statement.sql) }
      }
      _ = try Player.filter(name == "Arthur' OR 1=1 --" && score > 12345).fetchAll(db)
      db.trace(nil)
      let select = try #require(statements.first { $0.hasPrefix("SELECT") && $0.contains("player") })
      #expect(!select.contains("Arthur"))
      #expect(!select.contains("12345"))
      #expect(select.contains("?"))
    }
  }
}
