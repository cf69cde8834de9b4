import Foundation
import Sealite
import Testing

private final class NotAValue {}

@Suite("Untyped values")
struct UntypedValuesTests {
  @Test("DatabaseValue(value:) converts what is convertible, and nothing else")
  func databaseValue() {
    #expect(DatabaseValue(value: "foo") == "foo".databaseValue)
    #expect(DatabaseValue(value: 1 as Int) == 1.databaseValue)
    #expect(DatabaseValue(value: NSNull()) == .null)
    #expect(DatabaseValue(value: NotAValue()) == nil)
  }

  @Test(
    "Arguments from untyped arrays and dictionaries bind their values, or fail on one that does not convert")
  func arguments() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE person(name TEXT, age INTEGER)")
      let positional = try #require(StatementArguments(["Arthur", 41] as [Any]))
      try db.execute(sql: "INSERT INTO person VALUES (?, ?)", arguments: positional)
      let named = try #require(StatementArguments(["name": "Barbara", "age": 38] as [AnyHashable: Any]))
      try db.execute(sql: "INSERT INTO person VALUES (:name, :age)", arguments: named)
      let rows = try Row.fetchAll(db, sql: "SELECT name, age FROM person ORDER BY name")
      #expect(rows == [["name": "Arthur", "age": 41], ["name": "Barbara", "age": 38]])
    }
    #expect(StatementArguments(["Arthur", NotAValue()] as [Any]) == nil)
    #expect(StatementArguments(["name": NotAValue()] as [AnyHashable: Any]) == nil)
    #expect(StatementArguments([1: "Arthur"] as [AnyHashable: Any]) == nil)
  }

  @Test("A row from an untyped dictionary holds its values, or is nil")
  func rows() throws {
    let row = try #require(Row(["a": "foo", "b": 1, "c": NSNull()] as [AnyHashable: Any]))
    #expect(row.count == 3)
    #expect(row["a"] as String == "foo")
    #expect(row["b"] as Int == 1)
    #expect(row["c"] as Int? == nil)
    #expect(Row(["a": NotAValue()] as [AnyHashable: Any]) == nil)
    #expect(Row([NSNumber(value: 1): "bar"] as [AnyHashable: Any]) == nil)
  }
}
