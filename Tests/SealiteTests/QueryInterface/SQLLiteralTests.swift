import Foundation
import Sealite
import Testing

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
  var id: Int64
  var name: String
  var score: Int
}

private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
        INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
        """)
  }
  return dbQueue
}

/// Strings that would change an SQL statement if they reached its text.
private let hostileStrings = [
  "x'); DROP TABLE player; --",
  "' OR '1'='1",
  "\"; DELETE FROM player; --",
  "Robert'); DELETE FROM player WHERE ('1' = '1",
  "semi;colon -- comment /* block */",
  "quote\"double\"",
]

private func tableCount(_ db: Database) throws -> Int {
  try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? -1
}

@Suite("SQL literals and interpolation")
struct SQLLiteralTests {
  @Test("An interpolated value becomes a bound argument, never SQL text")
  func valueIsArgument() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let name = "Arthur"
      let literal: SQL = "SELECT * FROM player WHERE name = \(name) AND score > \(50)"
      let (sql, arguments) = try literal.build(db)
      #expect(sql == "SELECT * FROM player WHERE name = ? AND score > ?")
      #expect(arguments.values == ["Arthur".databaseValue, 50.databaseValue])
      #expect(try Player.fetchAll(db, SQLRequest<Player>(literal: literal)).map(\.id) == [1])
    }
  }

  @Test("SQLRequest<T> from an interpolated string fetches records, rows and values")
  func sqlRequest() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let minimum = 150
      let players: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(minimum)"
      #expect(try players.fetchAll(db) == [Player(id: 2, name: "Barbara", score: 200)])
      #expect(try players.fetchCount(db) == 1)
      let names: SQLRequest<String> = "SELECT name FROM player ORDER BY \(Column("name")) DESC"
      #expect(try names.fetchAll(db) == ["Barbara", "Arthur"])
      let id: Int64 = 1
      #expect(try Row.fetchAll(db, SQLRequest<Row>("SELECT * FROM player WHERE id = \(id)")).count == 1)
      let ids = [1, 2, 3]
      let inList: SQLRequest<Int> = "SELECT id FROM player WHERE id IN \(ids) ORDER BY id"
      #expect(try inList.fetchAll(db) == [1, 2])
      let none: String? = nil
      let nullRequest: SQLRequest<Int> = "SELECT \(none) IS NULL"
      #expect(try nullRequest.fetchOne(db) == 1)
    }
  }

  @Test("An interpolated column is a quoted identifier")
  func columnIsIdentifier() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let literal: SQL = "SELECT \(Column("name")) FROM player WHERE \(Column("score") + 1) > \(150)"
      let (sql, _) = try literal.build(db)
      #expect(sql == #"SELECT "name" FROM player WHERE "score" + ? > ?"#)
      #expect(try String.fetchAll(db, SQLRequest<String>(literal: literal)) == ["Barbara"])
    }
  }

  @Test("Raw SQL goes in only where named: \\(sql:) and \\(literal:)")
  func rawInsertion() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      let condition: SQL = "score > \(150)"
      let request = SQLRequest<Player>(literal: "SELECT * FROM player WHERE \(literal: condition)")
      #expect(try request.fetchAll(db).map(\.id) == [2])
      let raw = SQLRequest<Player>(
        literal: "SELECT * FROM \(sql: "player") WHERE \(sql: "id = ?", arguments: [1])")
      #expect(try raw.fetchAll(db).map(\.id) == [1])
      var combined: SQL = "SELECT id FROM player"
      combined += " WHERE name = \("Barbara")"
      combined.append(sql: " AND score = ?", arguments: [200])
      #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: combined)) == [2])
      let joined = [SQL("id = \(1)"), SQL("id = \(2)")].joined(separator: " OR ")
      #expect(
        try Int.fetchAll(db, SQLRequest<Int>(literal: "SELECT id FROM player WHERE \(literal: joined)")) == [
          1, 2,
        ])
    }
  }

  @Test("db.execute(literal:) runs interpolated statements with bound values")
  func executeLiteral() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let name = "O'Brien"
      try db.execute(literal: "INSERT INTO player (id, name, score) VALUES (\(3), \(name), \(0))")
      try db.execute(literal: "UPDATE player SET score = \(7) WHERE name = \(name)")
      #expect(try Player.fetchOne(db, key: 3) == Player(id: 3, name: "O'Brien", score: 7))
    }
  }

  @Test("Query interface filters, orderings and selections accept literals")
  func literalsInRequests() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { (db: Database) throws in
      #expect(try Player.filter(literal: "name = \("Arthur")").fetchAll(db).map(\.id) == [1])
      #expect(try Player.all().order(literal: "\(Column("score")) DESC").fetchAll(db).map(\.id) == [2, 1])
    }
  }

  @Test("Injection through values never changes the statement: the value round-trips exactly")
  func injectionThroughValues() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.write { (db: Database) throws in
      let tables = try tableCount(db)
      for (offset, hostile) in hostileStrings.enumerated() {
        let id = Int64(100 + offset)
        try db.execute(literal: "INSERT INTO player (id, name, score) VALUES (\(id), \(hostile), \(0))")
        #expect(
          try String.fetchOne(db, SQLRequest<String>("SELECT name FROM player WHERE id = \(id)")) == hostile)
        let matches: SQLRequest<Int64> = "SELECT id FROM player WHERE name = \(hostile)"
        #expect(try matches.fetchAll(db) == [id])
        #expect(try Player.filter(Column("name") == hostile).fetchAll(db).map(\.id) == [id])
        var record = Player(id: id, name: hostile, score: 1)
        try record.update(db)
        record.name = hostile + hostile
        try record.update(db)
        #expect(try Player.fetchOne(db, key: id)?.name == hostile + hostile)
      }
      #expect(try tableCount(db) == tables)
      #expect(try Player.fetchCount(db) == 2 + hostileStrings.count)
      #expect(try Player.filter(Column("name") == "' OR '1'='1").fetchCount(db) == 0)
    }
  }

  @Test("Injection through identifiers never changes the statement: odd names are quoted")
  func injectionThroughIdentifiers() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      let column = "na\"me; DROP TABLE victim; --"
      let table = "we\"ird; DROP TABLE victim; -- table"
      try db.execute(sql: "CREATE TABLE victim (id INTEGER)")
      try db.execute(sql: "INSERT INTO victim VALUES (1)")
      try db.execute(
        sql:
          "CREATE TABLE \(table.quotedDatabaseIdentifier) (id INTEGER PRIMARY KEY, \(column.quotedDatabaseIdentifier) TEXT)"
      )
      let weird = Table(table)
      try db.execute(
        literal: "INSERT INTO \(identifier: table) (id, \(Column(column))) VALUES (\(1), \(column))")
      #expect(try weird.fetchCount(db) == 1)
      #expect(try weird.filter(Column(column) == column).fetchCount(db) == 1)
      #expect(try weird.select(Column(column), as: String.self).fetchOne(db) == column)
      #expect(try weird.order(Column(column).desc).fetchOne(db)?[column] == column)
      #expect(try weird.all().filter(key: 1).updateAll(db, Column(column).set(to: "changed")) == 1)
      #expect(try weird.select(Column(column), as: String.self).fetchOne(db) == "changed")
      let literal: SQL = "SELECT \(Column(column)) FROM \(identifier: table)"
      #expect(try String.fetchOne(db, SQLRequest<String>(literal: literal)) == "changed")
      #expect(try weird.deleteAll(db) == 1)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM victim") == 1)
    }
  }

  @Test("A record whose table and column names need quoting persists and fetches")
  func recordWithOddNames() throws {
    struct Odd: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
      static let databaseTableName = "order; DROP TABLE victim; --"
      var id: Int64
      var value: String
      enum CodingKeys: String, CodingKey {
        case id
        case value = "select \"value\" --"
      }
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE victim (id INTEGER)")
      try db.execute(
        sql: """
          CREATE TABLE "order; DROP TABLE victim; --" (id INTEGER PRIMARY KEY, "select ""value"" --" TEXT)
          """)
      var odd = Odd(id: 1, value: "v")
      try odd.insert(db)
      odd.value = "w"
      try odd.update(db)
      #expect(try Odd.fetchOne(db, key: 1) == odd)
      #expect(try Odd.filter(Column(Odd.CodingKeys.value) == "w").fetchCount(db) == 1)
      _ = try odd.upsertAndFetch(db)
      #expect(try odd.delete(db))
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM victim") == 0)
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'victim'") == 1)
    }
  }
}
