import Foundation
import Sealite
import Testing

/// Tables, indexes, a trigger and a view, whose names differ in case.
private func createMixedCaseSchema(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE Zebra(a);
      CREATE TABLE apple(a);
      CREATE INDEX zebra_b ON Zebra(a);
      CREATE INDEX Zebra_a ON Zebra(a);
      CREATE TRIGGER apple_insert AFTER INSERT ON apple BEGIN DELETE FROM Zebra; END;
      CREATE VIEW Mango AS SELECT a FROM apple;
      INSERT INTO Zebra VALUES (1);
      """)
}

private let mixedCaseSchema = """
  sqlite_master
  CREATE TABLE apple(a);
  CREATE TRIGGER apple_insert AFTER INSERT ON apple BEGIN DELETE FROM Zebra; END;
  CREATE VIEW Mango AS SELECT a FROM apple;
  CREATE TABLE Zebra(a);
  CREATE INDEX Zebra_a ON Zebra(a);
  CREATE INDEX zebra_b ON Zebra(a);

  """

@Suite("Dump of the schema and content")
struct DumpSchemaTests {
  @Test("The schema is grouped by table, ignoring case: the table, its indexes, its triggers")
  func schemaOrder() throws {
    let dbQueue = try makeQueue(createMixedCaseSchema)
    try dbQueue.read { db throws in
      #expect(try dumped { try db.dumpSchema(to: $0) } == mixedCaseSchema)
      // Every table, views left out, under its name even when empty.
      #expect(try dumped { try db.dumpContent(to: $0) } == mixedCaseSchema + "\napple\n\nZebra\n1\n")
    }
  }

  @Test("An empty database prints the sqlite_master line alone")
  func emptyDatabase() throws {
    try DatabaseQueue().read { db throws in
      #expect(try dumped { try db.dumpSchema(to: $0) } == "sqlite_master\n")
      #expect(try dumped { try db.dumpContent(to: $0) } == "sqlite_master\n")
    }
  }

  @Test("Content prints the schema, a blank line, then each table in the chosen format")
  func content() throws {
    try makeQueue(createLibrary).read { db throws in
      #expect(
        try dumped { try db.dumpContent(format: .json(), to: $0) } == librarySchema + """

          author
          [{"id":1,"name":"Octavia Butler"},
          {"id":2,"name":"Ursula K. Le Guin"}]

          book
          [{"id":1,"authorId":2,"title":"The Dispossessed"},
          {"id":2,"authorId":null,"title":"Anonymous Tales"},
          {"id":3,"authorId":1,"title":"Kindred"}]

          country
          [{"code":"DE","name":"Germany"},
          {"code":"FR","name":"France"}]

          """)
    }
  }

  @Test("GRDB's migrations table and Sealite's change journal are left out")
  func libraryTables() throws {
    let directory = TemporaryDirectory()
    var config = Configuration()
    config.publishesChangedTables = true
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: config)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
      try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur')")
    }
    try migrator.migrate(dbQueue)
    try dbQueue.read { db throws in
      #expect(try db.tableExists("grdb_migrations") && db.tableExists("sealite_change_journal"))
      #expect(
        try dumped { try db.dumpContent(to: $0) } == """
          sqlite_master
          CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT);

          player
          1|Arthur

          """)
    }
  }

  @Test(
    "The shadow tables of a virtual table are left out",
    .enabled(if: SQLiteFeatures.linked.supports(.fts4)))
  func shadowTables() throws {
    let directory = TemporaryDirectory()
    try DatabaseQueue(path: directory.path()).write { db throws in
      try db.execute(
        sql: "CREATE VIRTUAL TABLE document USING fts4(body); INSERT INTO document VALUES ('hello')")
    }
    // A connection that has not used the virtual table knows its shadow tables too.
    try DatabaseQueue(path: directory.path()).read { db throws in
      #expect(
        try dumped { try db.dumpContent(to: $0) } == """
          sqlite_master
          CREATE VIRTUAL TABLE document USING fts4(body);

          document
          hello

          """)
    }
  }
}
