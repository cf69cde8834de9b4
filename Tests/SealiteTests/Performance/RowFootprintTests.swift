import Foundation
import Sealite
import Testing

/// glibc's `malloc_usable_size` (in <malloc.h>, which Glibc's module leaves out).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int

// Row.fetchAll allocates one row object per row (Row is a class in GRDB's
// API), so the size of that object is most of the memory a large fetch takes
// beyond its values: it must stay in malloc's 48-byte size class (40 usable
// bytes), where five stored words put it in the 64-byte one.
@Suite("The heap footprint of fetched rows")
struct RowFootprintTests {
  private func usableBytes(_ row: Row) -> Int {
    mallocUsableSize(Unmanaged.passUnretained(row).toOpaque())
  }

  @Test("a fetched row is one object of malloc's 48-byte class, whatever its width, scopes included")
  func rowObjectSize() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT 1 AS id, 'a' AS name, 2.5, NULL, x'00' UNION ALL SELECT 2, 'b', 3.5, NULL, x'01'")
      #expect(rows.count == 2)
      for row in rows {
        #expect(usableBytes(row) <= 40, "\(usableBytes(row)) bytes")
      }
      // A row with the rows of a scope keeps them beside its owner, not in a
      // property every row would pay for: same size, and the scope is there.
      let adapter = ScopeAdapter(["named": SuffixRowAdapter(fromIndex: 1)])
      let scoped = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, 'a' AS name", adapter: adapter))
      #expect(usableBytes(scoped) <= 40, "\(usableBytes(scoped)) bytes")
      #expect(scoped.scopes["named"] == ["name": "a"])
      #expect(scoped.unscoped == ["id": 1, "name": "a"])
    }
  }
}
