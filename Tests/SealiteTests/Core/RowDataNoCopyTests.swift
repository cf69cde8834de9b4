import Foundation
import Sealite
import Testing

// dataNoCopy is deprecated in GRDB, and here too; the tests call it on
// purpose, for the code that still does.

@Suite("Row.dataNoCopy reads bytes without copying them (deprecated, as in GRDB)")
struct RowDataNoCopyTests {
  @Test("dataNoCopy(atIndex:), (named:) and (_:) read blobs, the bytes of texts, and nil for NULL")
  @available(*, deprecated)
  func dataNoCopy() throws {
    let directory = TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: directory.path(), configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t (b BLOB, s TEXT, n)")
      try db.execute(sql: "INSERT INTO t VALUES (x'010203', 'é', NULL)")
      // A live row, read while the cursor stands on it.
      let cursor = try Row.fetchCursor(db, sql: "SELECT b, s, n FROM t")
      let row = try #require(try cursor.next())
      #expect(row.dataNoCopy(atIndex: 0) == Data([1, 2, 3]))
      #expect(row.dataNoCopy(named: "S") == Data("é".utf8))
      #expect(row.dataNoCopy(Column("n")) == nil)
      #expect(row.dataNoCopy(named: "missing") == nil)
      // A copied row.
      let copy = try #require(try Row.fetchOne(db, sql: "SELECT b, s FROM t"))
      #expect(copy.dataNoCopy(atIndex: 0) == Data([1, 2, 3]))
      #expect(copy.dataNoCopy(Column("s")) == Data("é".utf8))
    }
  }
}
