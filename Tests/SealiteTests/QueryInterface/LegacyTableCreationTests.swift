import Foundation
import Sealite
import Testing

// GRDB's legacy `create(table:temporary:ifNotExists:withoutRowID:body:)`,
// kept so that GRDB migrations compile and run unchanged.

@Suite("create(table:) with GRDB's legacy flags")
struct LegacyTableCreationTests {
  @Test("The flags make a temporary, WITHOUT ROWID, if-not-exists table as the options would")
  func flags() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.create(table: "tag", ifNotExists: true, withoutRowID: true) { t in
        t.primaryKey("name", .text)
      }
      // A second creation is skipped, not an error.
      try db.create(table: "tag", ifNotExists: true) { t in t.column("other") }
      #expect(try db.columns(in: "tag").map(\.name) == ["name"])
      #expect(throws: DatabaseError.self) {
        try db.execute(sql: "SELECT rowid FROM tag")
      }
      try db.create(table: "scratch", temporary: true) { t in t.column("value") }
      #expect(
        try Bool.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_temp_master WHERE name = 'scratch'") == true)
      #expect(throws: DatabaseError.self) {
        try db.create(table: "tag", temporary: false) { t in t.column("other") }
      }
      // The options form still wins for calls that name neither.
      try db.create(table: "plain") { t in t.column("value") }
      #expect(try db.tableExists("plain"))
    }
  }
}
