import Foundation
import Sealite
import Testing

/// The statements a schema change runs, as the trace reports them.
private func statements(_ db: Database, _ change: () throws -> Void) throws -> [String] {
  try capturedSQL(db, change).filter { $0.hasPrefix("CREATE") }
}

/// Destination tables of every kind of primary key, named in singular and plural.
private func makeDestinations(_ db: Database) throws {
  try db.create(table: "parent") { t in t.column("name", .text) }
  try db.create(table: "teams") { t in t.primaryKey("code", .text) }
  try db.create(table: "people") { t in t.autoIncrementedPrimaryKey("id") }
  try db.create(table: "pairs") { t in
    t.primaryKey {
      t.column("left", .text)
      t.column("right")
    }
  }
}

@Suite("Schema: belongsTo resolves and writes foreign keys as GRDB does")
struct SchemaBelongsToTests {
  @Test("belongsTo finds the table by its name, else its plural, whatever the case")
  func destinationResolution() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeDestinations(db)
      let sql = try statements(db) {
        try db.create(table: "child") { t in
          t.column("a")
          t.belongsTo("PARENT")
          t.belongsTo("team")
          t.belongsTo("people")
          t.belongsTo("custom", inTable: "teams")
        }
      }
      #expect(
        sql == [
          #"CREATE TABLE "child" ("a", "PARENTId" INTEGER REFERENCES "PARENT"("rowid"), "#
            + #""teamCode" TEXT REFERENCES "teams"("code"), "peopleId" INTEGER REFERENCES "people"("id"), "#
            + #""customCode" TEXT REFERENCES "teams"("code"))"#,
          #"CREATE INDEX "child_on_PARENTId" ON "child"("PARENTId")"#,
          #"CREATE INDEX "child_on_teamCode" ON "child"("teamCode")"#,
          #"CREATE INDEX "child_on_peopleId" ON "child"("peopleId")"#,
          #"CREATE INDEX "child_on_customCode" ON "child"("customCode")"#,
        ])
      let keys = try db.foreignKeys(on: "child")
      #expect(Set(keys.map(\.destinationTable)) == ["PARENT", "teams", "people"])
    }
  }

  @Test("belongsTo a table that exists neither in singular nor in plural throws no such table")
  func missingDestination() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      let error = try #require(throws: DatabaseError.self) {
        try db.create(table: "child") { t in t.belongsTo("team") }
      }
      #expect(error.resultCode == .SQLITE_ERROR)
      #expect(error.message == "no such table: team")
      #expect(try !db.tableExists("child"))
      #expect(throws: DatabaseError.self) {
        try db.create(table: "child") { t in t.belongsTo("captain", inTable: "player") }
      }
    }
  }

  @Test("A composite key is a table constraint with an index over all its columns")
  func compositeKey() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeDestinations(db)
      let sql = try statements(db) {
        try db.create(table: "child") { t in
          t.belongsTo("pair", onDelete: .cascade).notNull()
          t.belongsTo("other", inTable: "pairs").unique()
          t.column("score", .integer).indexed()
        }
      }
      #expect(
        sql == [
          #"CREATE TABLE "child" ("pairLeft" TEXT NOT NULL, "pairRight" NOT NULL, "otherLeft" TEXT, "#
            + #""otherRight", "score" INTEGER, "#
            + #"FOREIGN KEY ("pairLeft", "pairRight") REFERENCES "pairs"("left", "right") ON DELETE CASCADE, "#
            + #"FOREIGN KEY ("otherLeft", "otherRight") REFERENCES "pairs"("left", "right"))"#,
          #"CREATE INDEX "index_child_on_pairLeft_pairRight" ON "child"("pairLeft", "pairRight")"#,
          #"CREATE UNIQUE INDEX "index_child_on_otherLeft_otherRight" ON "child"("otherLeft", "otherRight")"#,
          #"CREATE INDEX "child_on_score" ON "child"("score")"#,
        ])
    }
  }

  @Test("A table belongs to itself under its singular or plural name, or named with inTable")
  func selfReference() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      let sql = try statements(db) {
        try db.create(table: "employees") { t in
          t.autoIncrementedPrimaryKey("id")
          t.belongsTo("employee", onDelete: .setNull)
          t.belongsTo("manager", inTable: "employees")
        }
        try db.create(table: "node") { t in
          t.column("name")
          t.belongsTo("node", indexed: false)
        }
      }
      #expect(
        sql == [
          #"CREATE TABLE "employees" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
            + #""employeeId" INTEGER REFERENCES "employees"("id") ON DELETE SET NULL, "#
            + #""managerId" INTEGER REFERENCES "employees"("id"))"#,
          #"CREATE INDEX "employees_on_employeeId" ON "employees"("employeeId")"#,
          #"CREATE INDEX "employees_on_managerId" ON "employees"("managerId")"#,
          #"CREATE TABLE "node" ("name", "nodeId" INTEGER REFERENCES "node"("rowid"))"#,
        ])
      try db.execute(
        sql: "INSERT INTO employees (id) VALUES (1); INSERT INTO employees (employeeId) VALUES (1)")
      #expect(try Array(db.foreignKeyViolations(in: "employees")).isEmpty)
    }
  }

  @Test("Foreign keys in the primary key are NOT NULL and take no index of their own")
  func foreignKeysInPrimaryKey() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try makeDestinations(db)
      let sql = try statements(db) {
        try db.create(table: "membership") { t in
          t.primaryKey {
            t.belongsTo("pair")
            t.belongsTo("people")
            t.column("since", .date)
          }
        }
      }
      #expect(
        sql == [
          #"CREATE TABLE "membership" ("pairLeft" TEXT NOT NULL, "pairRight" NOT NULL, "#
            + #""peopleId" INTEGER NOT NULL REFERENCES "people"("id"), "since" DATE NOT NULL, "#
            + #"PRIMARY KEY ("pairLeft", "pairRight", "peopleId", "since"), "#
            + #"FOREIGN KEY ("pairLeft", "pairRight") REFERENCES "pairs"("left", "right"))"#
        ])
      // A table can not belong to itself through its own primary key.
      #expect(throws: DatabaseError.self) {
        try db.create(table: "loop") { t in t.primaryKey { t.belongsTo("loop") } }
      }
    }
  }

  @Test("An indexed column's index is named <table>_on_<column>, and a unique column needs none")
  func columnIndexNames() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player", options: .ifNotExists) { t in
        t.column("email", .text).indexed()
        t.column("code", .text).indexed().unique()
      }
      try db.alter(table: "player") { t in t.add(column: "score", .integer).indexed() }
      #expect(Set(try db.indexes(on: "player").map(\.name)).contains("player_on_email"))
      #expect(Set(try db.indexes(on: "player").map(\.name)).contains("player_on_score"))
      #expect(!Set(try db.indexes(on: "player").map(\.name)).contains("player_on_code"))
      // A GRDB migration drops the index by the name GRDB gave it.
      try db.drop(index: "player_on_email")
    }
  }

  @Test("create(index:on:columns:unique:ifNotExists:condition:) creates the index GRDB's guide shows")
  func legacyIndexCreation() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player") { t in
        t.column("email", .text)
        t.column("isActive", .boolean)
      }
      try db.create(index: "byEmail", on: "player", columns: ["email"], unique: true)
      try db.create(
        index: "byEmail", on: "player", columns: ["email"], unique: true, ifNotExists: true,
        condition: Column("isActive") == true)
      try db.create(index: "activeByEmail", on: "player", columns: ["email"], condition: Column("isActive"))
      let indexes = try db.indexes(on: "player")
      #expect(indexes.first { $0.name == "byEmail" }?.isUnique == true)
      #expect(indexes.first { $0.name == "activeByEmail" }?.isUnique == false)
      try db.execute(sql: "INSERT INTO player VALUES ('a', 1)")
      #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player VALUES ('a', 0)") }
      #expect(throws: DatabaseError.self) {
        try db.create(index: "byEmail", on: "player", columns: ["email"], unique: false, ifNotExists: false)
      }
    }
  }
}
