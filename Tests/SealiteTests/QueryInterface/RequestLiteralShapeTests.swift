import Foundation
import Sealite
import Testing

// Requests with raw SQL (`filter(sql:arguments:)`, `order(sql:)`,
// `select(sql:)`, `filter(literal:)`) are found by their shape, as requests of
// expressions are: the text is the shape, the arguments its values. These
// tests show that each call binds its own arguments in their places, with
// the SQL GRDB writes, and that literals the shape cannot hold (named
// arguments, SQL generated when the request renders) still run right.

private typealias Book = ShapeTestBook

@Suite("Requests of SQL literals found by their shape")
struct RequestLiteralShapeTests {
  @Test("filter(sql:arguments:) binds the arguments of each call, with one SELECT as GRDB writes it")
  func filterArgumentsOfEachCall() throws {
    try withShapeTestBooks { db in
      var titles: [String?] = []
      let statements = try capturedSQL(db) {
        for id in [1, 2, 3, 4] {
          titles.append(try Book.filter(sql: "id = ?", arguments: [id]).fetchOne(db)?.title)
        }
      }
      #expect(titles == ["Emma", "Persuasion", "Sanditon", nil])
      #expect(Set(statements) == ["SELECT * FROM \"book\" WHERE id = ? LIMIT 1"], "\(statements)")
      #expect(statements.count == 4)
    }
  }

  @Test("arguments of the selection, the filters and the ordering each go to their own place")
  func argumentsInTheirPlaces() throws {
    try withShapeTestBooks { db throws in
      for (shift, low, first) in [(10, 0, 2), (20, 1, 3), (30, 0, 1)] {
        let rows = try Book.select(sql: "id + ? AS shifted, title", arguments: [shift])
          .filter(Column("id") > low)
          .filter(sql: "title <> ?", arguments: ["Sanditon"])
          .order(sql: "id = ? DESC, id", arguments: [first])
          .asRequest(of: Row.self)
          .fetchAll(db)
        let expected = [1, 2].filter { $0 > low }.sorted { ($0 == first ? 0 : $0) < ($1 == first ? 0 : $1) }
        #expect(rows.map { $0["shifted"] as Int } == expected.map { $0 + shift }, "shift \(shift)")
        #expect(rows.map { $0["title"] as String } == expected.map { ["", "Emma", "Persuasion"][$0] })
      }
    }
  }

  @Test("values interpolated in filter(literal:), and the table of a record type, follow each call")
  func interpolatedLiterals() throws {
    try withShapeTestBooks { db throws in
      for (title, id) in [("Emma", 1), ("Sanditon", 3), ("Lady Susan", nil)] {
        let request = Book.filter(
          literal: "id IN (SELECT id FROM \(Book.self) WHERE title = \(title)) AND \(Column("id")) > \(0)")
        #expect(try request.fetchOne(db)?.id == id.map(Int64.init), "\(title)")
        #expect(try request.fetchCount(db) == (id == nil ? 0 : 1))
      }
    }
  }

  @Test("the same text with another number of arguments fails to bind, as it does the first time")
  func argumentCountChecked() throws {
    try withShapeTestBooks { db throws in
      for _ in 0..<2 {
        #expect(try Book.filter(sql: "id = ?", arguments: [2]).fetchOne(db)?.title == "Persuasion")
        #expect(throws: DatabaseError.self) {
          try Book.filter(sql: "id = ?", arguments: [2, 3]).fetchOne(db)
        }
        #expect(throws: DatabaseError.self) {
          try Book.filter(sql: "id = ?").fetchOne(db)
        }
      }
      #expect(try Book.filter(sql: "id = ?", arguments: [3]).fetchOne(db)?.title == "Sanditon")
    }
  }

  @Test("named arguments, and subqueries interpolated in a literal, bind the values of each call")
  func literalsWithoutShape() throws {
    try withShapeTestBooks { db throws in
      for id in [1, 3, 2] {
        #expect(try Book.filter(sql: "id = :id", arguments: ["id": id]).fetchOne(db)?.id == Int64(id))
        let subquery = Book.select(Column("id")).filter(Column("id") == id)
        #expect(try Book.filter(literal: "id IN (\(subquery))").fetchOne(db)?.id == Int64(id))
      }
    }
  }

  @Test("a reversed request ordered by raw SQL throws each time")
  func reversedLiteralOrdering() throws {
    try withShapeTestBooks { db throws in
      for _ in 0..<2 {
        #expect(throws: DatabaseError.self) {
          try Book.order(sql: "title").reversed().fetchAll(db)
        }
        #expect(try Book.order(sql: "title DESC").fetchAll(db).map(\.id) == [3, 2, 1])
      }
    }
  }
}
