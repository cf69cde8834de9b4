import Foundation
import Sealite
import Testing

private struct Team: FetchableRecord, Decodable, Hashable, TableRecord {
  static let databaseTableName = "team"
  var id: Int64
  var name: String
}

private struct Player: FetchableRecord, Decodable, TableRecord {
  static let databaseTableName = "player"
  static let team = belongsTo(Team.self)
  var id: Int64
  var name: String
}

extension Team {
  static let players = hasMany(Player.self)
}

@Suite("Row: NULL tests, coalesce, unsafe data, records by key")
struct RowNullsTests {
  @Test("containsNonNullValue and hasNull(atIndex:) read the row and its scopes")
  func nulls() throws {
    try DatabaseQueue().read { db in
      let row = try Row.fetchOne(db, sql: "SELECT NULL AS a, 1 AS b")!
      #expect(row.containsNonNullValue)
      #expect(row.hasNull(atIndex: 0))
      #expect(!row.hasNull(atIndex: 1))
      let nulls = try Row.fetchOne(db, sql: "SELECT NULL, NULL")!
      #expect(!nulls.containsNonNullValue)
      let scoped = try Row.fetchOne(
        db, sql: "SELECT NULL AS a, 2 AS b", adapter: ScopeAdapter(["inner": SuffixRowAdapter(fromIndex: 1)]))!
      #expect(scoped.containsNonNullValue)
      #expect(scoped.unscoped.containsNonNullValue)
    }
  }

  @Test("coalesce(_:) returns the first value that is not NULL, by name or by column")
  func coalesce() throws {
    try DatabaseQueue().read { db in
      let row = try Row.fetchOne(db, sql: "SELECT NULL AS a, 'b' AS b, 'c' AS c")!
      #expect(row.coalesce(["a", "b", "c"]) as String? == "b")
      #expect(row.coalesce([Column("missing"), Column("c")]) as String? == "c")
      #expect(row.coalesce(["a"]) as String? == nil)
    }
  }

  @Test("withUnsafeData gives blobs and text as bytes, and NULL as nil, on live and copied rows")
  func unsafeData() throws {
    try DatabaseQueue().read { db in
      let sql = "SELECT x'0102' AS blob, 'hé' AS text, NULL AS absent, x'' AS empty"
      let cursor = try Row.fetchCursor(db, sql: sql)
      while let row = try cursor.next() {
        for candidate in [row, row.copy()] {
          #expect(candidate.withUnsafeData(atIndex: 0) { $0 } == Data([1, 2]))
          #expect(candidate.withUnsafeData(named: "text") { $0 } == Data("hé".utf8))
          #expect(candidate.withUnsafeData(at: Column("absent")) { $0 } == nil)
          #expect(candidate.withUnsafeData(named: "empty") { $0 } == Data())
          #expect(candidate.withUnsafeData(named: "missing") { $0 } == nil)
        }
      }
    }
  }

  @Test("decode(_:forKey:) reads scopes and prefetched rows, and throws where the subscripts stop")
  func recordsByKey() throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id));
          INSERT INTO team VALUES (1, 'Reds');
          INSERT INTO player VALUES (1, 'Arthur', 1), (2, 'Barbara', NULL);
          """)
      let rows = try Row.fetchAll(db, Player.including(optional: Player.team).order(Column("id")))
      #expect(try rows[0].decode(Team.self, forKey: "team") == Team(id: 1, name: "Reds"))
      #expect(try rows[0].decodeIfPresent(Team.self, forKey: "team") == Team(id: 1, name: "Reds"))
      #expect(try rows[1].decodeIfPresent(Team.self, forKey: "team") == nil)
      #expect(throws: RowDecodingError.self) { try rows[1].decode(Team.self, forKey: "team") }
      #expect(throws: RowDecodingError.self) { try rows[0].decode(Team.self, forKey: "nosuchscope") }
      #expect(try rows[0].decodeIfPresent(Team.self, forKey: "nosuchscope") == nil)

      let team = try Row.fetchOne(db, Team.including(all: Team.players))!
      #expect(try team.decode([Player].self, forKey: "players").map(\.name) == ["Arthur"])
      #expect(throws: RowDecodingError.self) { try team.decode([Player].self, forKey: "nosuchkey") }
    }
  }
}

@Suite("Storage classes, storage values, trace descriptions")
struct SmallCoreAPITests {
  @Test("cast(_:as:) takes a storage class or a column type; a storage's value is its payload")
  func castsAndStorage() throws {
    try DatabaseQueue().read { db in
      let text = try String.fetchOne(
        db, SQLRequest<String>(literal: "SELECT \(cast(1.5.sqlExpression, as: .text))"))
      #expect(text == "1.5")
      let integer = try Int.fetchOne(
        db, SQLRequest<Int>(literal: "SELECT \(cast("12".sqlExpression, as: .integer))"))
      #expect(integer == 12)
      let real = try Double.fetchOne(
        db, SQLRequest<Double>(literal: "SELECT \(cast("2".sqlExpression, as: .double))"))
      #expect(real == 2)
      #expect(Database.StorageClass.blob.rawValue == "BLOB")
      #expect(Database.ColumnType.jsonb.rawValue == "BLOB")
      let row = try Row.fetchOne(db, sql: "SELECT 1, 2.5, 'a', x'01', NULL")!
      #expect(
        row.databaseValues.map { $0.storage.value.map { "\($0)" } } == ["1", "2.5", "a", "1 bytes", nil])
      #expect(row.prefetchedRows.isEmpty)
    }
  }

  @Test("expandedDescription of a trace event shows the arguments, and never a key")
  func expandedTraceDescription() throws {
    let events = Shared<[(String, String)]>([])
    try DatabaseQueue().write { db in
      db.trace { event in events.update { $0.append((event.description, event.expandedDescription)) } }
      try db.execute(sql: "SELECT ?", arguments: ["secret-argument"])
      try db.execute(sql: "PRAGMA key = 'zz-secret-zz'")
      db.trace(nil)
    }
    let traced = events.value
    #expect(traced.contains { $0.0 == "SELECT ?" && $0.1 == "SELECT 'secret-argument'" })
    #expect(!traced.contains { $0.0.contains("zz-secret-zz") || $0.1.contains("zz-secret-zz") })
  }
}

@Suite("Schema introspection in a named schema, unique keys")
struct SchemaNameIntrospectionTests {
  @Test("columns, primaryKey, indexes, foreignKeys and the foreign key checks take a schema name")
  func namedSchemas() throws {
    let directory = TemporaryDirectory()
    var unchecked = Configuration()
    unchecked.foreignKeysEnabled = false
    try DatabaseQueue(path: directory.path("other.sqlite"), configuration: unchecked).write { db in
      try db.execute(
        sql: """
          CREATE TABLE parent(id INTEGER PRIMARY KEY);
          CREATE TABLE item(id INTEGER PRIMARY KEY, code TEXT, parentId INTEGER REFERENCES parent(id));
          CREATE UNIQUE INDEX item_code ON item(code);
          INSERT INTO item VALUES (1, 'a', 42);
          """)
    }
    try DatabaseQueue().writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE item(name TEXT)")
      try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [directory.path("other.sqlite")])
      #expect(try db.columns(in: "item").map(\.name) == ["name"])
      #expect(try db.columns(in: "item", in: "other").map(\.name) == ["id", "code", "parentId"])
      #expect(try db.primaryKey("item", in: "other").columns == ["id"])
      #expect(try db.indexes(on: "item", in: "other").map(\.name) == ["item_code"])
      #expect(try db.indexes(on: "item").isEmpty)
      #expect(try db.foreignKeys(on: "item", in: "other").map(\.destinationTable) == ["parent"])
      #expect(try db.foreignKeyViolations(in: "item", in: "other").next()?.originRowID == 1)
      #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "item", in: "other") }
      try db.checkForeignKeys(in: "item", in: "main")
      #expect(throws: DatabaseError.self) { try db.columns(in: "item", in: "nosuchschema") }
    }
  }

  @Test(
    "table(_:hasUniqueKey:) is true for the primary key or a unique index, not a partial or expression one")
  func uniqueKeys() throws {
    try DatabaseQueue().write { db in
      try db.execute(
        sql: """
          CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c, d);
          CREATE UNIQUE INDEX t_ab ON t(a, b);
          CREATE UNIQUE INDEX t_c ON t(c) WHERE c > 0;
          CREATE UNIQUE INDEX t_d ON t(d, lower(a));
          """)
      #expect(try db.table("t", hasUniqueKey: ["id"]))
      #expect(try db.table("t", hasUniqueKey: ["B", "a"]))
      #expect(try db.table("t", hasUniqueKey: ["id", "c"]))
      #expect(try !db.table("t", hasUniqueKey: ["a"]))
      #expect(try !db.table("t", hasUniqueKey: ["c"]))
      #expect(try !db.table("t", hasUniqueKey: ["d"]))
      #expect(try db.indexes(on: "t").map(\.name).sorted() == ["t_ab", "t_c"])
    }
  }
}

@Suite("Small utilities: question marks, the migrator's list")
struct SmallUtilityTests {
  @Test("databaseQuestionMarks(count:) makes placeholders; migrations lists the registered identifiers")
  func utilities() throws {
    #expect(databaseQuestionMarks(count: 0) == "")
    #expect(databaseQuestionMarks(count: 3) == "?,?,?")
    let ids = [1, 3]
    let found = try DatabaseQueue().read { db in
      try Int.fetchAll(
        db,
        sql:
          "SELECT value FROM (SELECT 1 AS value UNION SELECT 2 UNION SELECT 3) WHERE value IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY value",
        arguments: StatementArguments(ids))
    }
    #expect(found == [1, 3])
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { _ in }
    migrator.registerMigration("v2") { _ in }
    #expect(migrator.migrations == ["v1", "v2"])
    func requiresMetatype<T: GRDBSendableMetatype>(_: T.Type) -> Bool { true }
    #expect(requiresMetatype(Int.self))
  }
}
