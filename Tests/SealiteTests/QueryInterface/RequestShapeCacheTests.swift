import Sealite
import Testing

/// Requests of one shape (the same SQL with other values) reuse the SQL the
/// first one generated: each must still bind its own values in their places,
/// and a request of another shape must never get that SQL.
@Suite("Requests of the same shape")
struct RequestShapeCacheTests {
  private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
      for id in 1...6 {
        try db.execute(
          sql: "INSERT INTO item VALUES (?, ?, ?)", arguments: [id, "n\(id)", id % 2 == 0 ? nil : id * 10])
      }
    }
    return dbQueue
  }

  private func ids(_ rows: [Row]) -> [Int64] { rows.map { $0["id"] } }

  @Test("Each request binds its own values, wherever they are in the SQL")
  func valuesInPlace() throws {
    let dbQueue = try makeQueue()
    let item = Table("item")
    let id = Column("id")
    let score = Column("score")
    try dbQueue.read { (db: Database) throws in
      for low in 0...5 {
        let request = item.select(id, (id + low).forKey("shifted"))
          .filter(id > low && [low + 1, low + 2, 99].contains(id))
          .order(id.desc)
          .limit(5)
        let rows = try request.fetchAll(db)
        #expect(ids(rows) == [low + 2, low + 1].filter { $0 <= 6 }.map(Int64.init))
        #expect(rows.map { $0["shifted"] as Int64 } == ids(rows).map { $0 + Int64(low) })
      }
      for (low, high) in [(1, 3), (2, 5), (4, 6)] {
        let rows = try item.filter((low...high).contains(id) && score != nil).order(id).fetchAll(db)
        #expect(ids(rows) == Array(Int64(low)...Int64(high)).filter { $0 % 2 == 1 })
      }
    }
  }

  @Test("Requests that differ by more than their values get their own SQL")
  func distinctShapes() throws {
    let dbQueue = try makeQueue()
    let item = Table("item")
    let id = Column("id")
    try dbQueue.read { (db: Database) throws in
      #expect(try ids(item.filter(id == 2).fetchAll(db)) == [2])
      #expect(try ids(item.filter(id != 2).order(id).fetchAll(db)) == [1, 3, 4, 5, 6])
      #expect(try ids(item.filter(!(id == 2)).order(id).fetchAll(db)) == [1, 3, 4, 5, 6])
      #expect(try ids(item.filter(Column("score") == nil).order(id).fetchAll(db)) == [2, 4, 6])
      #expect(try ids(item.filter(Column("score") != nil).order(id).fetchAll(db)) == [1, 3, 5])
      #expect(try ids(item.filter(id == 2).order(id).limit(1, offset: 0).fetchAll(db)) == [2])
      #expect(try ids(item.order(id).limit(2).fetchAll(db)) == [1, 2])
      #expect(try ids(item.order(id).limit(2, offset: 2).fetchAll(db)) == [3, 4])
      #expect(try ids(item.order(id.desc).limit(2).fetchAll(db)) == [6, 5])
      #expect(try item.filter(id == 2).fetchOne(db)?["name"] == "n2")
      #expect(try item.filter(id == 3).fetchOne(db)?["name"] == "n3")
      #expect(try item.select(Column("name")).filter(id == 4).fetchOne(db)?.count == 1)
      #expect(try ids(item.filter(id == 2 || id == 5).order(id).fetchAll(db)) == [2, 5])
      #expect(try ids(item.filter(id == 2 && id == 5).fetchAll(db)) == [])
      #expect(try item.filter(Column("name").collating(.nocase) == "N3").fetchOne(db)?["id"] == 3)
      #expect(try item.filter(Column("name") == "N3").fetchOne(db) == nil)
    }
  }

  private struct LimitedItem: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "item"
    var id: Int64
  }

  @Test("Records of requests with a LIMIT: every row up to it, whatever the limit, shapes taken in turn")
  func recordsUpToTheLimit() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { (db: Database) throws in
      try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
      for id in 1...100 { try db.execute(sql: "INSERT INTO item VALUES (?)", arguments: [id]) }
    }
    let id = Column("id")
    try dbQueue.read { (db: Database) throws in
      // Two shapes in turn, each with its own SQL, and limits below, at and
      // above the rows there are (a negative limit is no limit, in SQLite).
      for (limit, offset, low) in [
        (0, nil, 0), (-1, nil, 0), (10, nil, 0), (70, nil, 5), (1_000, nil, 0), (5, 98, 0),
      ] {
        let limited = try LimitedItem.filter(id > low).order(id).limit(limit, offset: offset).fetchAll(db)
        var expected = Array(Int64(low + 1)...100).dropFirst(offset ?? 0)
        if limit >= 0 { expected = expected.prefix(limit) }
        #expect(limited.map(\.id) == Array(expected), "limit \(limit), offset \(offset ?? 0)")
        let unlimited = try LimitedItem.filter(id > low).order(id.desc).fetchAll(db)
        #expect(unlimited.map(\.id) == Array((Int64(low + 1)...100).reversed()))
      }
    }
  }

  @Test("Requests that differ only by a long name, or where a long name ends, get their own SQL")
  func longNames() throws {
    let dbQueue = try DatabaseQueue()
    // Names of 254, 255 and 300 bytes: around the length a shape key
    // writes in one byte, and past it. "ab" + long and "abl" + ong split the
    // same text differently between the table and the column.
    let names = [254, 255, 300].map { String(repeating: "n", count: $0) }
    try dbQueue.write { (db: Database) throws in
      for (offset, name) in names.enumerated() {
        try db.execute(sql: "CREATE TABLE t\(offset) (id INTEGER PRIMARY KEY, \(name) INTEGER)")
        try db.execute(sql: "INSERT INTO t\(offset) VALUES (1, \(offset))")
      }
      try db.execute(sql: "CREATE TABLE ab (id INTEGER PRIMARY KEY, \("l" + names[2]) INTEGER)")
      try db.execute(sql: "CREATE TABLE abl (id INTEGER PRIMARY KEY, \(names[2]) INTEGER)")
      try db.execute(sql: "INSERT INTO ab VALUES (1, 10)")
      try db.execute(sql: "INSERT INTO abl VALUES (1, 20)")
    }
    try dbQueue.read { (db: Database) throws in
      for _ in 0..<2 {
        for (offset, name) in names.enumerated() {
          let row = try Table("t\(offset)").select(Column(name)).filter(Column(name) >= 0).fetchOne(db)
          #expect(row?[0] == offset)
        }
        #expect(try Table("ab").select(Column("l" + names[2])).fetchOne(db)?[0] == 10)
        #expect(try Table("abl").select(Column(names[2])).fetchOne(db)?[0] == 20)
      }
    }
  }

  @Test("A request reversed without ordering follows the primary key after a schema change")
  func schemaChange() throws {
    let dbQueue = try makeQueue()
    try dbQueue.write { (db: Database) throws in
      let reversed = Table("item").reversed().limit(1)
      #expect(try reversed.fetchOne(db)?["id"] == 6)
      try db.execute(sql: "DROP TABLE item")
      try db.execute(sql: "CREATE TABLE item (id INTEGER, name TEXT PRIMARY KEY) WITHOUT ROWID")
      try db.execute(sql: "INSERT INTO item VALUES (1, 'b'), (2, 'c'), (3, 'a')")
      #expect(try reversed.fetchOne(db)?["name"] == "c")
    }
  }

  @Test(
    "More shapes than the connection keeps, taken in turn and again: each runs its own SQL with its values")
  func moreShapesThanKept() throws {
    let dbQueue = try makeQueue()
    let id = Column("id")
    try dbQueue.read { (db: Database) throws in
      // An IN list of every length from 1 to 600 is a shape each: the cache
      // of 512 shapes empties once on the way. The same lengths again, in
      // reverse, find their shapes anew or in the cache. The lists are
      // longer than the 256 bytes the key buffer starts with.
      for length in Array(1...600) + Array((1...600).reversed()) {
        let low = length % 6
        let list = [low + 1] + Array(repeating: 0, count: length - 1)
        let rows = try Table("item").filter(list.contains(id)).fetchAll(db)
        #expect(ids(rows) == [Int64(low + 1)], "\(length) values")
      }
    }
  }
}
