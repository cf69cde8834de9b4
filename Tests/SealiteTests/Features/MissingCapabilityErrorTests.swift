import Foundation
import Testing

// @testable: the test reads the internal missingCapability of an error.
@testable import Sealite

/// Statements that use one capability each, run on a table t(a, b).
private let statements: [(SQLiteFeatures.Capability, String)] = [
  (.windowFunctions, "SELECT a, sum(b) OVER (ORDER BY a) FROM t"),
  (.returning, "DELETE FROM t WHERE a = 1 RETURNING b"),
  (.upsert, "INSERT INTO t(a, b) VALUES (1, 2) ON CONFLICT(a) DO UPDATE SET b = excluded.b"),
  (.jsonFunctions, "SELECT json_extract('{\"x\": 1}', '$.x')"),
  (.jsonArrowOperators, "SELECT '{\"x\": 1}' ->> '$.x'"),
  (.mathFunctions, "SELECT sqrt(b) FROM t"),
  (.renameColumn, "ALTER TABLE t RENAME COLUMN b TO c"),
  (.dropColumn, "ALTER TABLE t DROP COLUMN b"),
  (.strictTables, "CREATE TABLE s(x INTEGER) STRICT"),
  (.generatedColumns, "CREATE TABLE g(x, y AS (x * 2))"),
]

@Suite("Statements that need a newer SQLite")
struct MissingCapabilityErrorTests {
  @Test(
    "run where the linked SQLite has the capability, else fail with an error naming it and both versions",
    arguments: statements.map { $0.0.rawValue })
  func statementNeedingCapability(capabilityName: String) throws {
    let (capability, sql) = try #require(statements.first { $0.0.rawValue == capabilityName })
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t(a INTEGER PRIMARY KEY, b INTEGER); INSERT INTO t VALUES (1, 4)")
    }
    let features = SQLiteFeatures.linked
    if features.supports(capability) {
      try dbQueue.write { db in _ = try Row.fetchAll(db, sql: sql) }
    } else {
      let error = try #require(throws: SQLiteFeatureError.self) {
        try dbQueue.write { db in _ = try Row.fetchAll(db, sql: sql) }
      }
      #expect(error.capability == capability)
      #expect(error.description.contains(capability.minimumSQLiteVersion))
      #expect(error.description.contains(features.sqliteVersion))
      #expect(error.description.contains(capability.name))
      // Through execute(sql:) too.
      #expect(throws: SQLiteFeatureError.self) {
        try dbQueue.write { db in try db.execute(sql: sql) }
      }
    }
  }

  @Test("a plain syntax error stays SQLite's error, even on old SQLite")
  func plainSyntaxError() throws {
    let dbQueue = try DatabaseQueue()
    let error = try #require(throws: DatabaseError.self) {
      try dbQueue.write { db in try db.execute(sql: "SELEC 1") }
    }
    #expect(error.resultCode == .SQLITE_ERROR)
  }

  @Test("syntax inside string literals is not mistaken for a capability")
  func stringLiteralsAreIgnored() throws {
    let features = SQLiteFeatures.linked
    #expect(features.missingCapability(usedBy: "SELECT 'a RETURNING b OVER (x)' FROM t") == nil)
  }
}
