import Foundation
import Sealite
import Testing

// A request whose filters are built when it runs (`filterWhenConnected`)
// builds them first, then finds its SQL by the shape of what they built; a
// request's `filter(key:)` and `filter(id:)` keep their values and give
// their shape with nothing built: these tests show that each builder runs
// once per fetch, that what it builds, not the request it came from, decides
// the SQL, and that filters by key find their rows call after call.

private typealias Book = ShapeTestBook

@Suite("Filters built when a request runs, then its SQL found by their shape")
struct DeferredFilterShapeTests {
  @Test("filter(key:) and filter(id:) find their row, call after call, with one SELECT each")
  func keyFilters() throws {
    try withShapeTestBooks { db in
      var titles: [String?] = []
      let statements = try capturedSQL(db) {
        for id in [1, 2, 3, 4] { titles.append(try Book.filter(key: id).fetchOne(db)?.title) }
        titles.append(try Book.filter(id: 2).fetchOne(db)?.title)
        titles.append(
          contentsOf: try Book.filter(keys: [3, 1]).order(Column("id")).fetchAll(db).map(\.title))
      }
      #expect(titles == ["Emma", "Persuasion", "Sanditon", nil, "Persuasion", "Emma", "Sanditon"])
      #expect(statements.count == 6, "\(statements)")
      #expect(statements.allSatisfy { $0.hasPrefix("SELECT") }, "\(statements)")
    }
  }

  @Test("a builder runs once per fetch, and the SQL follows what it builds each time")
  func builderRunsOncePerFetch() throws {
    try withShapeTestBooks { db throws in
      let calls = Locked(0)
      let byTitle = Locked(false)
      let request = Book.all().filterWhenConnected { _ in
        calls.withLock { $0 += 1 }
        return byTitle.withLock { $0 } ? Column("title") == "Sanditon" : Column("id") == 1
      }
      #expect(try request.fetchAll(db) == [Book(id: 1, title: "Emma")])
      #expect(try request.fetchAll(db) == [Book(id: 1, title: "Emma")])
      byTitle.withLock { $0 = true }
      #expect(try request.fetchAll(db) == [Book(id: 3, title: "Sanditon")])
      byTitle.withLock { $0 = false }
      #expect(try request.fetchOne(db) == Book(id: 1, title: "Emma"))
      #expect(calls.withLock { $0 } == 4)
    }
  }
}
