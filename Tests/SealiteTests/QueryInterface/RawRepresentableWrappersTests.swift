import Foundation
import Sealite
import Testing

/// Wraps any SQL value or expression, and stands for it.
private struct Wrapper<RawValue>: RawRepresentable {
  var rawValue: RawValue
}

extension Wrapper: SQLExpressible where RawValue: SQLExpressible {}
extension Wrapper: StatementBinding where RawValue: StatementBinding {}
extension Wrapper: DatabaseValueConvertible where RawValue: DatabaseValueConvertible {}
extension Wrapper: SQLSelectable where RawValue: SQLSelectable {}
extension Wrapper: SQLOrderingTerm where RawValue: SQLOrderingTerm {}
extension Wrapper: SQLSpecificExpressible where RawValue: SQLSpecificExpressible {}

@Suite("Raw-representable wrappers of SQL values and expressions")
struct RawRepresentableWrappersTests {
  @Test(
    "A wrapper of a value binds and reads as its raw value; a wrapper of a column selects and orders as it")
  func wrappers() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t(a INTEGER, b TEXT)")
      try db.execute(
        sql: "INSERT INTO t VALUES (?, ?)", arguments: [Wrapper(rawValue: 2), Wrapper(rawValue: "two")])
      try db.execute(sql: "INSERT INTO t VALUES (1, 'one')")
      let column = Wrapper(rawValue: Column("b"))
      #expect(
        try String.fetchAll(db, Table("t").select(column).order(Wrapper(rawValue: Column("a")))) == [
          "one", "two",
        ])
      #expect(
        try Table("t").filter(Wrapper(rawValue: Column("a")) == Wrapper(rawValue: 2)).fetchCount(db) == 1)
      #expect(try Wrapper<Int>.fetchAll(db, sql: "SELECT a FROM t ORDER BY a").map(\.rawValue) == [1, 2])
    }
  }

  @Test("A request makes its prepared statement without saying it is for a single result")
  func preparedRequestDefault() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE t(a INTEGER)")
      let queryInterface = try Table("t").all().makePreparedRequest(db).statement.sql
      #expect(queryInterface == #"SELECT * FROM "t""#)
      let sql = try SQLRequest<Row>(sql: "SELECT a FROM t").makePreparedRequest(db).statement.sql
      #expect(sql == "SELECT a FROM t")
      let adapted = try SQLRequest<Row>(sql: "SELECT a FROM t").adapted { _ in SuffixRowAdapter(fromIndex: 0)
      }
      .makePreparedRequest(db).statement.sql
      #expect(adapted == "SELECT a FROM t")
    }
  }

  @Test(
    "A Table takes arrays of selections (fetched as a type too) and orderings, and deletes by dictionaries of keys"
  )
  func tableArrays() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score INTEGER)")
      try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 20), (3, 'Craig', 30)")
      let player = Table("player")
      let rows = try player.select([Column("name"), Column("score")]).order([Column("score").desc]).fetchAll(
        db)
      #expect(rows.map { $0["name"] as String } == ["Craig", "Barbara", "Arthur"])
      #expect(rows.first?.count == 2)
      let annotated = try player.annotated(with: [(Column("score") * 2).forKey("double")]).order(Column("id"))
        .fetchAll(db)
      #expect(annotated.map { $0["double"] as Int } == [20, 40, 60])
      #expect(try player.deleteAll(db, keys: [["name": "Arthur"], ["name": "Craig"]]) == 2)
      #expect(try String.fetchAll(db, player.select(Column("name"))) == ["Barbara"])
      // An array of selections fetched as a type, given or inferred.
      #expect(try player.select([Column("name")], as: String.self).fetchOne(db) == "Barbara")
      let score: Int? = try player.select([Column("score")]).fetchOne(db)
      #expect(score == 20)
    }
  }
}
