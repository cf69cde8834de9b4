import Foundation
import Sealite
import Testing

/// The first row of `sql`, copied out of a fresh in-memory database.
private func fetchRow(_ sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row {
  try DatabaseQueue().read { db in try #require(try Row.fetchAll(db, sql: sql, arguments: arguments).first) }
}

/// Fails the test (instead of letting a non-optional subscript stop the whole
/// test process) when a row that should hold values has a NULL.
private func requireNoNull(_ row: Row, sourceLocation: SourceLocation = #_sourceLocation) throws {
  try #require(!row.hasNull, "unexpected NULL in \(row)", sourceLocation: sourceLocation)
}

@Suite("Rows")
struct RowTests {
  // MARK: Subscripts

  @Test("Columns are found by name, case-insensitively")
  func caseInsensitiveNames() throws {
    let row = try fetchRow("SELECT 1 AS Id, 'Arthur' AS name")
    try requireNoNull(row)
    let lower: Int = row["id"]
    let upper: Int = row["ID"]
    let exact: Int = row["Id"]
    let name: String = row["NAME"]
    #expect(lower == 1 && upper == 1 && exact == 1)
    #expect(name == "Arthur")
    #expect(row.hasColumn("iD"))
    #expect(!row.hasColumn("score"))
    #expect(row.index(forColumn: "NAME") == 1)
  }

  @Test("With duplicate column names, the leftmost wins")
  func leftmostDuplicate() throws {
    let row = try fetchRow("SELECT 1 AS a, 2 AS A, 3 AS a")
    try requireNoNull(row)
    let value: Int = row["a"]
    #expect(value == 1)
    #expect(try row.decode(Int.self, forColumn: "A") == 1)
    #expect(row.index(forColumn: "a") == 0)
    let literal: Row = ["x": 1, "X": 2]
    let literalValue: Int = literal["x"]
    #expect(literalValue == 1)
    // Also when read straight from a cursor's live row.
    let live = try DatabaseQueue().read { db -> Int in
      let cursor = try Row.fetchCursor(db, sql: "SELECT 10 AS b, 20 AS B")
      let row = try #require(try cursor.next())
      return row["B"]
    }
    #expect(live == 10)
  }

  @Test("Long, non-ASCII and computed names find their columns, from a cursor and from a copy")
  func namesOfEveryShape() throws {
    let long = "a_column_name_longer_than_fifteen_bytes"
    let sql = "SELECT 1 AS \(long), 2 AS \"prénom\", 3 AS short, 4 AS \"Ünïcode\""
    func check(_ row: Row) {
      let computed = String(["sh", "ort"].joined())
      // SQLite folds the case of ASCII letters only: "PRéNOM" is "prénom",
      // "PRÉNOM" is another name.
      let values: [Int?] = [
        row[long], row[long.uppercased()], row["prénom"], row["PRéNOM"], row[computed], row["ÜNïCODE"],
        row["missing"], row["PRÉNOM"], row["ünïcode"],
      ]
      #expect(values == [1, 1, 2, 2, 3, 4, nil, nil, nil])
    }
    try DatabaseQueue().read { db in
      let cursor = try Row.fetchCursor(db, sql: sql)
      let row = try #require(try cursor.next())
      check(row)
      check(row.copy())
    }
  }

  @Test("In a row of 60 columns, each is found by its name in any case, and the leftmost of duplicates wins")
  func manyColumns() throws {
    // More columns than a linear scan covers: the lookup table probes past
    // collisions, and a name it misses (another case) still finds its column.
    let names = (0..<50).map { "c\($0)" } + (0..<10).map { "C\($0)" }
    let sql = "SELECT " + names.enumerated().map { "\($0.offset) AS \($0.element)" }.joined(separator: ", ")
    try DatabaseQueue().read { db in
      let cursor = try Row.fetchCursor(db, sql: sql)
      let row = try #require(try cursor.next())
      for (index, name) in names.enumerated() {
        let expected = index < 50 ? index : Int(name.dropFirst())!
        #expect(row[name] as Int? == expected, "\(name)")
        #expect(row[name.lowercased()] as Int? == expected, "\(name)")
        #expect(row.index(forColumn: name.uppercased()) == expected, "\(name)")
      }
      #expect(row["c50"] as Int? == nil)
      #expect(!row.hasColumn("c"))
    }
  }

  @Test("Columns are found by index")
  func byIndex() throws {
    let row = try fetchRow("SELECT 1, 'two', 3.5, x'04', NULL")
    try #require(row.databaseValues.prefix(4).allSatisfy { !$0.isNull }, "unexpected NULL in \(row)")
    let first: Int = row[0]
    let second: String = row[1]
    let third: Double = row[2]
    let fourth: Data = row[3]
    let fifth: Int? = row[4]
    #expect(first == 1 && second == "two" && third == 3.5 && fourth == Data([4]) && fifth == nil)
    // The untyped subscript returns SQLite's natural Swift type.
    #expect(row[0] as? Int64 == 1)
    #expect(row[1] as? String == "two")
    #expect(row[2] as? Double == 3.5)
    #expect(row[3] as? Data == Data([4]))
    #expect(row[4] == nil)
  }

  @Test("Typed reads convert to the requested type")
  func typedReads() throws {
    let row = try fetchRow(
      "SELECT 42 AS i, 1 AS flag, 2.5 AS r, 'Arthur' AS s, ? AS d, ? AS u",
      arguments: [Date(timeIntervalSince1970: 0), UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!])
    try requireNoNull(row)
    let int: Int = row["i"]
    let int8: Int8 = row["i"]
    let uint: UInt64 = row["i"]
    let double: Double = row["i"]
    let flag: Bool = row["flag"]
    let real: Double = row["r"]
    let string: String = row["s"]
    let date: Date = row["d"]
    let uuid: UUID = row["u"]
    #expect(int == 42 && int8 == 42 && uint == 42 && double == 42)
    #expect(flag)
    #expect(real == 2.5)
    #expect(string == "Arthur")
    #expect(date == Date(timeIntervalSince1970: 0))
    #expect(uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
  }

  @Test("A non-optional subscript that can not convert stops the program, naming the column and type")
  func trappingSubscriptMismatch() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let row: Row = ["id": 1, "name": "Arthur"]
      let value: Int = row["name"]
      print(value)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("name"))
    #expect(message.contains("Arthur"))
    #expect(message.contains("Int"))
  }

  @Test("A non-optional subscript on a missing column stops the program, naming the column")
  func trappingSubscriptMissingColumn() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let row: Row = ["id": 1]
      let value: Int = row["score"]
      print(value)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("score"))
  }

  @Test("Optional reads give nil for NULL and for a missing column")
  func optionalReads() throws {
    let row = try fetchRow("SELECT NULL AS a, 5 AS b")
    let null: Int? = row["a"]
    let missing: Int? = row["nope"]
    let present: Int? = row["b"]
    let nullString: String? = row[0]
    #expect(null == nil)
    #expect(missing == nil)
    #expect(present == 5)
    #expect(nullString == nil)
    #expect(row["nope"] == nil)
    #expect(row["a"] == nil)
  }

  // MARK: Throwing decoding

  @Test("decode(_:atIndex:) reads the value and throws for an index out of range")
  func decodeAtIndex() throws {
    let row = try fetchRow("SELECT 7 AS a")
    #expect(try row.decode(Int.self, atIndex: 0) == 7)
    #expect(try row.decode(Int?.self, atIndex: 0) == 7)
    #expect(throws: RowDecodingError.self) { try row.decode(String?.self, atIndex: 0) }
    let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 3) }
    #expect(error?.kind == .indexOutOfRange(3))
    #expect(error?.description.contains("3") == true)
    #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: -1) }
  }

  @Test("decode(_:forColumn:) throws an error that names a missing column")
  func decodeMissingColumn() throws {
    let row = try fetchRow("SELECT 7 AS a")
    let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "score") }
    #expect(error?.kind == .columnNotFound("score"))
    #expect(error?.description.contains("score") == true)
  }

  @Test("A value of the wrong type is an error naming the column, its index, the value, the row and the type")
  func decodeMismatch() throws {
    let row = try fetchRow("SELECT 1 AS id, 'Arthur' AS name")
    let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "name") }
    let text = error?.description ?? ""
    #expect(
      text.hasPrefix(
        #"could not decode Int from database value "Arthur" - column: "name", column index: 1, "#))
    #expect(text.contains(#"row: [id:1 name:"Arthur"]"#))
    #expect(error?.column == "name")
    if case .valueMismatch(let type, let value) = error?.kind {
      #expect(type == "Int")
      #expect(value == "Arthur")
    } else {
      Issue.record("expected a value mismatch, got \(String(describing: error?.kind))")
    }
    let byIndex = #expect(throws: RowDecodingError.self) { try row.decode(Data.self, atIndex: 0) }
    #expect(
      byIndex?.description.hasPrefix(
        #"could not decode Data from database value 1 - column: "id", column index: 0"#) == true)
  }

  @Test("Decoding NULL as a non-optional type is an error; as an optional it is nil")
  func decodeNull() throws {
    let row = try fetchRow("SELECT NULL AS score")
    let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "score") }
    #expect(error?.description.contains("NULL") == true)
    #expect(error?.description.contains("score") == true)
    #expect(try row.decode(Int?.self, forColumn: "score") == nil)
    #expect(throws: RowDecodingError.self) { try row.decode(Date.self, atIndex: 0) }
  }

  @Test("decodeIfPresent gives nil for NULL and a missing column, and throws for a wrong type")
  func decodeIfPresent() throws {
    let row = try fetchRow("SELECT NULL AS a, 'x' AS b, 3 AS c")
    #expect(try row.decodeIfPresent(Int.self, forColumn: "a") == nil)
    #expect(try row.decodeIfPresent(Int.self, forColumn: "missing") == nil)
    #expect(try row.decodeIfPresent(Int.self, forColumn: "C") == 3)
    #expect(try row.decodeIfPresent(Int.self, atIndex: 0) == nil)
    #expect(try row.decodeIfPresent(String.self, atIndex: 1) == "x")
    let error = #expect(throws: RowDecodingError.self) { try row.decodeIfPresent(Int.self, forColumn: "b") }
    #expect(error?.description.contains("b") == true)
    #expect(throws: RowDecodingError.self) { try row.decodeIfPresent(Int.self, atIndex: 9) }
  }

  @Test("A live cursor row decodes with SQLite's conversions, a copied row with its values' (GRDB's rules)")
  func liveRowDecoding() throws {
    try DatabaseQueue().read { db in
      let cursor = try Row.fetchCursor(db, sql: "SELECT 'abc' AS name, NULL AS n, 300 AS big")
      let row = try #require(try cursor.next())
      #expect(try row.decode(Int.self, forColumn: "name") == 0)
      let error = #expect(throws: RowDecodingError.self) {
        try row.copy().decode(Int.self, forColumn: "name")
      }
      #expect(error?.description.contains("name") == true)
      #expect(error?.description.contains("abc") == true)
      #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "n") }
      #expect(throws: RowDecodingError.self) { try row.decode(Int8.self, forColumn: "big") }
      #expect(try row.decode(Int16.self, forColumn: "big") == 300)
      #expect(try row.decodeIfPresent(Int.self, forColumn: "n") == nil)
    }
  }

  // MARK: Shape

  @Test("columnNames, databaseValues, count and hasNull describe the row")
  func shape() throws {
    let row = try fetchRow("SELECT 1 AS a, 'x' AS b, NULL AS c")
    #expect(row.columnNames == ["a", "b", "c"])
    #expect(row.databaseValues == [1, "x", .null])
    #expect(row.count == 3)
    #expect(row.hasNull)
    #expect(!(try fetchRow("SELECT 1 AS a, '' AS b")).hasNull)
    #expect(Row().count == 0)
    #expect(!Row().hasNull)
  }

  @Test("Iterating a row gives its (name, value) pairs in order")
  func iteration() throws {
    let row = try fetchRow("SELECT 1 AS a, 'x' AS b, NULL AS a")
    var pairs: [String] = []
    for (name, value) in row { pairs.append("\(name)=\(value)") }
    #expect(pairs == ["a=1", #"b="x""#, "a=NULL"])
    #expect(row.map(\.0) == ["a", "b", "a"])
  }

  // MARK: Equality, hashing, description

  @Test("Rows are equal when their names and values are equal, in order")
  func equality() throws {
    let fetched = try fetchRow("SELECT 1 AS id, 'a' AS name")
    #expect(fetched == ["id": 1, "name": "a"])
    #expect(fetched != ["name": "a", "id": 1])
    #expect(fetched != ["id": 2, "name": "a"])
    #expect(fetched != ["id": 1, "title": "a"])
    #expect(fetched != ["id": 1])
    #expect(fetched != ["id": 1, "name": "a", "extra": nil])
    #expect(try fetchRow("SELECT NULL AS x") == ["x": nil])
  }

  @Test("Equal rows hash equally, so fetchSet and Set remove duplicates")
  func hashing() throws {
    let a: Row = ["id": 1, "name": "a"]
    let b = try fetchRow("SELECT 1 AS id, 'a' AS name")
    #expect(a.hashValue == b.hashValue)
    #expect(Set([a, b]).count == 1)
    let set = try DatabaseQueue().read { db in
      try Row.fetchSet(db, sql: "SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 1 UNION ALL SELECT NULL")
    }
    #expect(set == [["x": 1], ["x": 2], ["x": nil]])
  }

  @Test("The description lists name:value pairs, texts quoted and NULL spelled out")
  func description() throws {
    let row = try fetchRow("SELECT 1 AS id, 'a' AS name, NULL AS score, 1.5 AS ratio")
    #expect(row.description == #"[id:1 name:"a" score:NULL ratio:1.5]"#)
    #expect(Row().description == "[]")
    let quote = try fetchRow(#"SELECT 'say "hi"' AS s"#)
    #expect(quote.description == #"[s:"say \"hi\""]"#)
  }

  @Test("A dictionary literal keeps its order; a dictionary is ordered by name")
  func literalInit() throws {
    let literal: Row = ["b": 2, "a": nil, "c": "x"]
    #expect(literal.columnNames == ["b", "a", "c"])
    #expect(literal.databaseValues == [2, .null, "x"])
    let fromDictionary = Row(["b": 2, "a": 1])
    #expect(fromDictionary.columnNames == ["a", "b"])
    let b: Int = fromDictionary["B"]
    #expect(b == 2)
  }

  // MARK: copy

  @Test("copy() of a fetched row is an independent snapshot equal to it")
  func copyIsSnapshot() throws {
    let (snapshot, afterNext) = try DatabaseQueue().read { db -> (Row, Row) in
      let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS x UNION ALL SELECT 2")
      let live = try #require(try cursor.next())
      let snapshot = live.copy()
      #expect(snapshot == live)
      _ = try cursor.next()
      return (snapshot, live.copy())
    }
    #expect(snapshot == ["x": 1])
    #expect(afterNext == ["x": 2])
    let literal: Row = ["a": 1]
    #expect(literal.copy() == literal)
  }
}
