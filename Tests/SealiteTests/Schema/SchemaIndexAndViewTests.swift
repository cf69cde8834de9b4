import Foundation
import Sealite
import Testing

@Suite("Schema: indexes, views, dropping and renaming")
struct SchemaIndexAndViewTests {
  @Test("create(index:) makes plain, unique and partial indexes; drop(index:) removes them")
  func indexes() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("email", .text)
        t.column("name", .text)
        t.column("team", .text)
      }
      try db.create(index: "player_on_email", on: "player", columns: ["email"], options: .unique)
      try db.create(
        index: "player_on_email", on: "player", columns: ["email"], options: [.unique, .ifNotExists])
      try db.create(
        index: "red_player_name", on: "player", columns: ["name"], options: .unique,
        condition: Column("team") == "red".sqlExpression)
      try db.create(indexOn: "player", columns: ["team", "name"])

      let indexes = Dictionary(uniqueKeysWithValues: try db.indexes(on: "player").map { ($0.name, $0) })
      #expect(indexes["player_on_email"]?.isUnique == true)
      #expect(indexes["red_player_name"]?.isPartial == true)
      #expect(indexes["index_player_on_team_name"]?.columns == ["team", "name"])
      let partialSQL = try String.fetchOne(
        db, sql: "SELECT sql FROM sqlite_master WHERE name = 'red_player_name'")
      #expect(partialSQL?.hasSuffix("WHERE \"team\" = 'red'") == true)

      // The partial index is unique among red players only.
      try db.execute(
        sql: """
          INSERT INTO player (name, team) VALUES ('Arthur', 'red'), ('Arthur', 'blue'), ('Arthur', 'blue')
          """)
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "INSERT INTO player (name, team) VALUES ('Arthur', 'red')")
      }

      try db.drop(index: "player_on_email")
      try db.drop(indexOn: "player", columns: ["team", "name"])
      #expect(try db.indexes(on: "player").map(\.name) == ["red_player_name"])
      #expect(try !db.indexExists("player_on_email"))
    }
  }

  @Test("drop(indexOn:columns:) drops the one index on those columns, whatever its name, as GRDB does")
  func dropIndexOnColumns() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "test") { t in
        t.primaryKey("id", .integer)
        t.column("a", .text)
        t.column("b", .text)
        t.column("c", .text)
      }
      try db.create(index: "custom_a", on: "test", columns: ["a"])
      try db.create(index: "custom_ab", on: "test", columns: ["a", "b"])
      try db.create(indexOn: "test", columns: ["c"])
      let statements = try capturedSQL(db) {
        try db.drop(indexOn: "test", columns: ["a"])
        // Table and column names are compared without case.
        try db.drop(indexOn: "TEST", columns: ["A", "B"])
        try db.drop(indexOn: "test", columns: ["c"])
      }
      #expect(
        statements.filter { $0.hasPrefix("DROP") }
          == [#"DROP INDEX "custom_a""#, #"DROP INDEX "custom_ab""#, #"DROP INDEX "index_test_on_c""#])
      #expect(try db.indexes(on: "test").isEmpty)
      // No index on those columns: nothing is dropped, and nothing is thrown.
      try db.drop(indexOn: "test", columns: ["b"])
      // No such table: an error, as GRDB's, where SQLite lists no index.
      let error = #expect(throws: DatabaseError.self) { try db.drop(indexOn: "missing", columns: ["a"]) }
      #expect(error?.message == "no such table: missing")
      #expect(throws: DatabaseError.self) { try db.indexes(on: "missing") }
      #expect(try db.indexes(on: "test", in: "main").isEmpty)
    }
  }

  @Test("Tables are renamed and dropped")
  func renameAndDropTable() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "old") { t in t.column("a") }
      try db.execute(sql: "INSERT INTO old VALUES (1)")
      try db.rename(table: "old", to: "new")
      #expect(try !db.tableExists("old"))
      #expect(try Int.fetchOne(db, sql: "SELECT a FROM new") == 1)
      try db.drop(table: "new")
      #expect(try !db.tableExists("new"))
      #expect(throws: DatabaseError.self) { try db.drop(table: "new") }
    }
  }

  @Test("Views are created from SQL with values inlined, and dropped")
  func views() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player") { t in
        t.column("name", .text)
        t.column("score", .integer)
      }
      try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 1500), ('Barbara', 900)")
      let threshold = 1000
      try db.create(view: "hallOfFame", as: "SELECT name FROM player WHERE score > \(threshold)")
      try db.create(view: "hallOfFame", options: .ifNotExists, as: "SELECT 1")
      let created = try capturedSQL(db) {
        try db.create(
          view: "ranked", options: .temporary, columns: ["who", "points"],
          asLiteral: "SELECT name, score FROM player WHERE name <> \("O'Brien")")
      }
      #expect(
        created.last
          == #"CREATE TEMPORARY VIEW "ranked" ("who", "points") AS SELECT name, score FROM player WHERE name <> 'O''Brien'"#
      )
      #expect(try db.viewExists("hallOfFame"))
      #expect(try !db.tableExists("hallOfFame"))
      #expect(try String.fetchAll(db, sql: "SELECT name FROM hallOfFame") == ["Arthur"])
      #expect(try db.columns(in: "ranked").map(\.name) == ["who", "points"])
      #expect(try db.viewExists("ranked", in: "temp"))
      try db.drop(view: "hallOfFame")
      #expect(try !db.viewExists("hallOfFame"))
    }
  }

  @Test("A view is created from a query interface request, its values written as literals")
  func viewFromRequest() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player") { t in
        t.column("name", .text)
        t.column("score", .integer)
      }
      try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 1500), ('Barbara', 900), ('O''Brien', 2000)")
      let sql = try capturedSQL(db) {
        try db.create(
          view: "hallOfFame", columns: ["who"],
          as: Table("player").select(Column("name")).filter(
            Column("score") > 1000 && Column("name") != "O'Brien"))
      }
      #expect(
        sql.last
          == #"CREATE VIEW "hallOfFame" ("who") AS SELECT "name" FROM "player" WHERE ("score" > 1000) AND ("name" <> 'O''Brien')"#
      )
      #expect(try String.fetchAll(db, sql: "SELECT who FROM hallOfFame") == ["Arthur"])

      // A request with a subquery of its own, and an SQL request, render too.
      let best = Table("player").select(max(Column("score")))
      try db.create(view: "best", as: Table("player").select(Column("name")).filter(Column("score") == best))
      #expect(try String.fetchAll(db, sql: "SELECT name FROM best") == ["O'Brien"])
      try db.create(view: "all", as: SQLRequest<Row>(sql: "SELECT name FROM player"))
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"all\"") == 3)
    }
  }
}
