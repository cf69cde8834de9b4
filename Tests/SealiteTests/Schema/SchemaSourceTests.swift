import Foundation
import Sealite
import Testing

/// Gives the view `playerView` the primary key `id`, and says nothing else.
private struct PlayerViewKey: DatabaseSchemaSource {
  func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
    view.name == "playerView" ? ["ID"] : nil
  }
}

/// Gives every view the primary key `score`: asked after another source.
private struct ScoreKey: DatabaseSchemaSource {
  func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
    ["score"]
  }
}

private struct LoggingSource: DatabaseSchemaSource {
  let log: Locked<[DatabaseObjectID]>
  func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
    log.withLock { $0.append(view) }
    return nil
  }
}

private struct ViewPlayer: Codable, FetchableRecord, TableRecord, Identifiable, Equatable {
  static let databaseTableName = "playerView"
  var id: Int64
  var name: String
  var score: Int
}

private func makeSchema(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
      CREATE VIEW playerView AS SELECT id, name, score FROM player;
      CREATE VIEW otherView AS SELECT name FROM player;
      INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 50);
      """)
}

/// Writers whose configuration carries a schema source.
enum SchemaSourceWriter: String, CaseIterable, Sendable {
  case queue
  case encryptedPool

  func make(_ directory: TemporaryDirectory, source: (any DatabaseSchemaSource)?) throws -> any DatabaseWriter
  {
    switch self {
    case .queue:
      var configuration = Configuration()
      configuration.schemaSource = source
      return try DatabaseQueue(path: directory.path(), configuration: configuration)
    case .encryptedPool:
      var configuration = rawKeyConfiguration()
      configuration.schemaSource = source
      return try DatabasePool(path: directory.path(), configuration: configuration)
    }
  }
}

@Suite("Schema sources")
struct SchemaSourceTests {
  @Test("A view has no primary key unless a schema source gives one", arguments: SchemaSourceWriter.allCases)
  func viewPrimaryKey(writer kind: SchemaSourceWriter) throws {
    let directory = TemporaryDirectory()
    let plain = try kind.make(directory, source: nil)
    try plain.write(makeSchema)
    try plain.read { db in
      #expect(db.schemaSource == nil)
      let error = #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
      #expect(error?.message == "database view playerView has no primary key")
    }
    try plain.close()

    let keyed = try kind.make(directory, source: PlayerViewKey())
    try keyed.read { db in
      #expect(db.schemaSource is PlayerViewKey)
      let primaryKey = try db.primaryKey("playerView")
      // Spelled as the view spells it, not as the source does.
      #expect(primaryKey.columns == ["id"])
      #expect(primaryKey.rowIDColumn == nil)
      #expect(!primaryKey.tableHasRowID)
      #expect(try db.table("playerView", hasUniqueKey: ["id", "name"]))
      #expect(try !db.table("playerView", hasUniqueKey: ["name"]))
      // The source does not say for this view, and tables are SQLite's.
      #expect(throws: DatabaseError.self) { try db.primaryKey("otherView") }
      #expect(try db.primaryKey("player").rowIDColumn == "id")
    }
  }

  @Test(
    "Records backed by a view are fetched by id and ordered by the source's key",
    arguments: SchemaSourceWriter.allCases)
  func recordsOnViews(writer kind: SchemaSourceWriter) throws {
    let directory = TemporaryDirectory()
    let writer = try kind.make(directory, source: PlayerViewKey())
    try writer.write(makeSchema)
    try writer.read { (db: Database) throws in
      #expect(try ViewPlayer.fetchOne(db, id: 2) == ViewPlayer(id: 2, name: "Barbara", score: 50))
      #expect(try ViewPlayer.exists(db, id: 1))
      #expect(try ViewPlayer.orderByPrimaryKey().fetchAll(db).map(\.id) == [1, 2])
      #expect(try ViewPlayer.all().orderByPrimaryKey().reversed().fetchAll(db).map(\.id) == [2, 1])
    }
  }

  @Test("withSchemaSource changes the source for its closure alone")
  func withSchemaSource() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeSchema(db)
      #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
      let key = try db.withSchemaSource(PlayerViewKey()) { try db.primaryKey("playerView").columns }
      #expect(key == ["id"])
      // What was learned inside is forgotten outside.
      #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
      #expect(db.schemaSource == nil)
    }
  }

  @Test("then(_:) asks the first source, then the second for what the first does not say")
  func chainedSources() throws {
    var configuration = Configuration()
    configuration.schemaSource = PlayerViewKey().then(ScoreKey())
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.write { db in
      try makeSchema(db)
      try db.execute(sql: "CREATE VIEW scoreView AS SELECT score, name FROM player")
      #expect(try db.primaryKey("playerView").columns == ["id"])
      #expect(try db.primaryKey("scoreView").columns == ["score"])
      // otherView has no score column: the second source names a missing column.
      let error = #expect(throws: DatabaseError.self) { try db.primaryKey("otherView") }
      #expect(error?.message?.contains("view otherView: score") == true)
    }
  }

  @Test("A source is asked about views only, with the schema that holds them")
  func questions() throws {
    let log = Locked<[DatabaseObjectID]>([])
    var configuration = Configuration()
    configuration.schemaSource = LoggingSource(log: log)
    let dbQueue = try DatabaseQueue(configuration: configuration)
    try dbQueue.write { db in
      try makeSchema(db)
      try db.execute(sql: "CREATE TEMPORARY VIEW tempView AS SELECT 1 AS one")
      _ = try db.primaryKey("player")
      _ = try? db.primaryKey("playerView")
      _ = try? db.primaryKey("tempView")
    }
    #expect(
      log.value == [
        DatabaseObjectID(name: "playerView", schemaID: .main),
        DatabaseObjectID(name: "tempView", schemaID: .temp),
      ])
  }

  @Test("Migrations see the schema as SQLite has it, without the source")
  func migrationsIgnoreTheSource() throws {
    var configuration = Configuration()
    configuration.schemaSource = PlayerViewKey()
    let dbQueue = try DatabaseQueue(configuration: configuration)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try makeSchema(db)
      #expect(db.schemaSource == nil)
      #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
    }
    try migrator.migrate(dbQueue)
    try dbQueue.read { (db: Database) throws in #expect(try db.primaryKey("playerView").columns == ["id"]) }
  }

  @Test("Schema identifiers name their schema and its table of objects")
  func schemaIdentifiers() {
    #expect(DatabaseSchemaID.main.name == "main")
    #expect(DatabaseSchemaID.temp.name == "temp")
    #expect(DatabaseSchemaID.attached("aux").name == "aux")
    #expect(DatabaseSchemaID.main.schemaTableName == "sqlite_master")
    #expect(DatabaseSchemaID.temp.schemaTableName == "sqlite_temp_master")
    #expect(DatabaseSchemaID.attached("aux").schemaTableName == "aux.sqlite_master")
    #expect(DatabaseSchemaID.attached("aux") != .main)
    let id = DatabaseObjectID(name: "player", schemaID: .main)
    #expect(id.name == "player" && id.schemaID == .main)
  }
}
