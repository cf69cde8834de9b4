import Sealite
import Testing

extension ObservationTests {
  @Suite("DatabaseEvent.databaseName: the schema of the changed table")
  struct DatabaseEventDatabaseNameTests {
    @Test("events of the main, temporary and attached databases name their schema")
    func databaseNames() throws {
      let directory = TemporaryDirectory()
      let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
      try dbQueue.writeWithoutTransaction { db in
        try db.execute(
          sql: """
            CREATE TABLE player (id INTEGER PRIMARY KEY);
            CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY);
            ATTACH DATABASE ':memory:' AS archive;
            CREATE TABLE archive.old (id INTEGER PRIMARY KEY);
            """)
      }
      let observer = RecordingObserver()
      dbQueue.add(transactionObserver: observer)
      try dbQueue.write { db in
        try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        try db.execute(sql: "INSERT INTO scratch (id) VALUES (2)")
        try db.execute(sql: "INSERT INTO archive.old (id) VALUES (3)")
      }
      let names = observer.events.map { "\($0.databaseName).\($0.tableName) \($0.rowID)" }
      #expect(names == ["main.player 1", "temp.scratch 2", "archive.old 3"])
    }
  }
}
