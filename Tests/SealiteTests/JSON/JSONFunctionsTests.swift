import Foundation
import Sealite
import Testing

// The Database.json… functions, on values and on columns, and how JSON builders embed JSON
// columns (as JSON, not as quoted strings). On the legacy leg (SQLite 3.15, no JSON1) each
// statement that uses them throws the SQLiteFeatureError that names the JSON functions.

private let info = JSONColumn("info")
private let name = Column("name")

private func makeDatabase(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { db in
    try db.create(table: "doc") { t in
      t.primaryKey("id", .integer)
      t.column("name", .text).notNull()
      t.column("info", .jsonText)
    }
    try db.execute(
      sql: "INSERT INTO doc VALUES (1, 'x', ?), (2, 'y', ?), (3, 'z', NULL)",
      arguments: [#"{"a":1,"b":[1,2]}"#, #"{"a":2,"b":[]}"#])
  }
  return writer
}

/// The value of `expression` for the document `id`, as text.
private func value(_ db: Database, _ expression: some SQLSpecificExpressible, id: Int64 = 1) throws -> String?
{
  try String.fetchOne(db, Table("doc").filter(key: id).select(expression))
}

/// What `body` returns where the linked SQLite has the JSON functions; elsewhere, checks
/// that `body` throws the error that names them, and returns nil.
private func withJSONFunctions<T>(_ body: () throws -> T) throws -> T? {
  guard SQLiteFeatures.linked.supports(.jsonFunctions) else {
    let error = #expect(throws: SQLiteFeatureError.self) { _ = try body() }
    #expect(error?.capability == .jsonFunctions)
    return nil
  }
  return try body()
}

@Suite("JSON functions: building, editing and inspecting JSON")
struct JSONFunctionsTests {
  @Test(
    "JSON builders embed JSON columns and asJSON values as JSON, other values as SQL values",
    arguments: RequestProtocolStore.allCases)
  func builders(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { db in
      guard let array = try withJSONFunctions({ try value(db, Database.jsonArray(1...3)) }) else { return }
      #expect(array == "[1,2,3]")
      #expect(try value(db, Database.jsonArray(["[1, 2]"])) == #"["[1, 2]"]"#)
      #expect(try value(db, Database.jsonArray(["[1, 2]".databaseValue.asJSON])) == "[[1,2]]")
      #expect(
        try value(db, Database.jsonArray([name, info, Column("info")] as [any SQLExpressible]))
          == #"["x",{"a":1,"b":[1,2]},"{\"a\":1,\"b\":[1,2]}"]"#)
      #expect(
        try value(db, Database.jsonArray([name, info] as [any SQLExpressible]), id: 3) == #"["z",null]"#)
      let object = Database.jsonObject(
        [(key: "n", value: name), (key: "i", value: info)] as [(key: String, value: any SQLExpressible)])
      #expect(try value(db, object) == #"{"n":"x","i":{"a":1,"b":[1,2]}}"#)
      #expect(try value(db, Database.json(#" { "a" : [ 1 ] } "#)) == #"{"a":[1]}"#)
      #expect(try value(db, Database.jsonQuote("x")) == #""x""#)
      #expect(try value(db, Database.jsonQuote(info)) == #"{"a":1,"b":[1,2]}"#)
    }
  }

  @Test("jsonSet, jsonInsert, jsonReplace, jsonRemove and jsonPatch edit JSON as SQLite documents")
  func editing() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.write { db in
      guard let set = try withJSONFunctions({ try value(db, Database.jsonSet(info, ["$.c": 3])) }) else {
        return
      }
      #expect(set == #"{"a":1,"b":[1,2],"c":3}"#)
      #expect(try value(db, Database.jsonInsert(info, ["$.a": 9])) == #"{"a":1,"b":[1,2]}"#)
      #expect(try value(db, Database.jsonInsert(info, ["$.d": "new"])) == #"{"a":1,"b":[1,2],"d":"new"}"#)
      #expect(try value(db, Database.jsonReplace(info, ["$.a": 9, "$.z": 0])) == #"{"a":9,"b":[1,2]}"#)
      #expect(
        try value(db, Database.jsonSet(info, ["$.b": #"[3]"#.databaseValue.asJSON])) == #"{"a":1,"b":[3]}"#)
      #expect(try value(db, Database.jsonRemove(info, atPath: "$.b")) == #"{"a":1}"#)
      #expect(try value(db, Database.jsonRemove(info, atPaths: ["$.a", "$.b[0]"])) == #"{"b":[2]}"#)
      #expect(try value(db, Database.jsonPatch(info, with: #"{"a":null,"d":4}"#)) == #"{"b":[1,2],"d":4}"#)

      // An UPDATE through the query interface edits the stored JSON.
      try Table("doc").filter(key: 2).updateAll(
        db, Column("info").set(to: Database.jsonSet(info, ["$.a": 20])))
      #expect(try value(db, info, id: 2) == #"{"a":20,"b":[]}"#)
    }
  }

  @Test("jsonType, jsonArrayLength, jsonIsValid, jsonExtract and jsonErrorPosition inspect JSON")
  func inspecting() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.encryptedPool, directory)
    try writer.read { db in
      guard let type = try withJSONFunctions({ try value(db, Database.jsonType(info)) }) else { return }
      #expect(type == "object")
      #expect(try value(db, Database.jsonType(info, atPath: "$.b")) == "array")
      #expect(try value(db, Database.jsonType(info, atPath: "$.nope")) == nil)
      #expect(
        try Int.fetchOne(
          db, Table("doc").filter(key: 1).select(Database.jsonArrayLength(info, atPath: "$.b"))) == 2)
      #expect(
        try Int.fetchOne(
          db, Table("doc").filter(key: 2).select(Database.jsonArrayLength(info, atPath: "$.b"))) == 0)
      #expect(try Int.fetchOne(db, Table("doc").filter(key: 1).select(Database.jsonArrayLength(info))) == 0)
      #expect(try Int.fetchOne(db, Table("doc").filter(key: 1).select(Database.jsonIsValid(info))) == 1)
      #expect(try Int.fetchOne(db, Table("doc").filter(key: 1).select(Database.jsonIsValid("{"))) == 0)
      #expect(try value(db, Database.jsonExtract(info, atPath: "$.a")) == "1")
      #expect(try value(db, Database.jsonExtract(info, atPaths: ["$.a", "$.b"])) == "[1,[1,2]]")
      // One path: SQLite gives the value itself, not an array of one.
      #expect(try value(db, info.jsonExtract(atPaths: ["$.b[1]"])) == "2")
      #expect(
        try value(db, Database.jsonType(Database.jsonExtract(info, atPaths: ["$.a", "$.b"]))) == "array")
      // Rows whose JSON has a key: filter with JSON_TYPE.
      #expect(
        try Int64.fetchAll(
          db,
          Table("doc").select(Column("id")).filter(Database.jsonType(info, atPath: "$.b") == "array").order(
            Column("id"))) == [1, 2])
      if SQLiteFeatures.linked.sqliteVersionNumber >= 3_042_000 {
        #expect(
          try Int.fetchOne(db, Table("doc").filter(key: 1).select(Database.jsonErrorPosition(#"{"a":}"#)))
            == 6)
      }
    }
  }

  @Test(
    "jsonGroupArray and jsonGroupObject aggregate a group into JSON, with ordering and filter",
    arguments: RequestProtocolStore.allCases)
  func aggregates(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(store, directory)
    try writer.read { db in
      let names = try withJSONFunctions {
        try String.fetchOne(db, Table("doc").select(Database.jsonGroupArray(name)).order(Column("id")))
      }
      guard let names else { return }
      #expect(names == #"["x","y","z"]"#)
      #expect(
        try String.fetchOne(db, Table("doc").select(Database.jsonGroupArray(info, filter: info != nil)))
          == #"[{"a":1,"b":[1,2]},{"a":2,"b":[]}]"#)
      #expect(
        try String.fetchOne(
          db,
          Table("doc").select(
            Database.jsonGroupObject(key: name, value: Database.jsonExtract(info, atPath: "$.a"))))
          == #"{"x":1,"y":2,"z":null}"#)
      if SQLiteFeatures.linked.supports(.aggregateOrderBy) {
        #expect(
          try String.fetchOne(db, Table("doc").select(Database.jsonGroupArray(name, orderBy: name.desc)))
            == #"["z","y","x"]"#)
      }
    }
  }

  @Test("JSONB functions give SQLite's binary JSON, which the JSON functions read back")
  func jsonb() throws {
    let directory = TemporaryDirectory()
    let writer = try makeDatabase(.queue, directory)
    try writer.read { db in
      guard SQLiteFeatures.linked.supports(.jsonb) else {
        let error = #expect(throws: SQLiteFeatureError.self) { _ = try value(db, Database.jsonb(info)) }
        #expect(error?.capability == .jsonb || error?.capability == .jsonFunctions)
        return
      }
      let blob = try DatabaseValue.fetchOne(db, Table("doc").filter(key: 1).select(Database.jsonb(info)))
      guard case .blob = blob?.storage else {
        Issue.record("JSONB(…) gave \(String(describing: blob))")
        return
      }
      #expect(try value(db, Database.json(Database.jsonb(info))) == #"{"a":1,"b":[1,2]}"#)
      #expect(try value(db, Database.json(Database.jsonbArray([1, 2]))) == "[1,2]")
      #expect(try value(db, Database.json(Database.jsonbSet(info, ["$.a": 5]))) == #"{"a":5,"b":[1,2]}"#)
      #expect(try value(db, Database.json(Database.jsonbRemove(info, atPath: "$.a"))) == #"{"b":[1,2]}"#)
      #expect(try value(db, Database.json(Database.jsonbExtract(info, atPath: "$.b"))) == "[1,2]")
      #expect(try value(db, Database.json(Database.jsonbPatch(info, with: #"{"b":null}"#))) == #"{"a":1}"#)
      #expect(try value(db, Database.json(Database.jsonbObject(["k": 1]))) == #"{"k":1}"#)
      #expect(
        try Int.fetchOne(
          db, Table("doc").filter(key: 1).select(Database.jsonIsValid(Database.jsonb(info), options: .jsonb)))
          == 1)
      #expect(
        try Int.fetchOne(db, Table("doc").filter(key: 1).select(Database.jsonIsValid(info, options: .jsonb)))
          == 0)
      // A JSONB value embedded by a builder stays JSON.
      #expect(try value(db, Database.jsonArray([Database.jsonb(info)])) == #"[{"a":1,"b":[1,2]}]"#)
    }
  }
}
