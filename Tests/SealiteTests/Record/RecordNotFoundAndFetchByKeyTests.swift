import Foundation
import Sealite
import Testing

private struct Hero: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
  var id: Int64
  var name: String
}

private struct Membership: Codable, FetchableRecord, PersistableRecord, Hashable {
  var heroId: Int64
  var guild: String
}

private struct Note: Codable, FetchableRecord, PersistableRecord, Hashable {
  var text: String
}

private struct PartialHero: FetchableRecord, TableRecord {
  static let databaseTableName = "hero"
  static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
  init(row: Row) throws {}
}

private struct ComputedHero: FetchableRecord, TableRecord {
  static let databaseTableName = "hero"
  static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column("id") + 1] }
  init(row: Row) throws {}
}

private let schema = """
  CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, power TEXT);
  CREATE TABLE membership (heroId INTEGER NOT NULL, guild TEXT NOT NULL, PRIMARY KEY (heroId, guild));
  CREATE TABLE note (text TEXT);
  INSERT INTO hero (id, name) VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
  INSERT INTO membership VALUES (1, 'red'), (2, 'blue');
  """

@Suite("GRDB 7.8 record API: recordNotFound, fetches by key, selected columns")
struct RecordNotFoundAndFetchByKeyTests {
  @Test(
    "recordNotFound(_:key:) and (_:id:) name the table and its primary key column",
    arguments: RecordAPIWriter.allCases)
  func recordNotFoundByKey(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.read { (db: Database) throws in
        let error = Hero.recordNotFound(db, key: 42)
        #expect(
          error as? RecordError == .recordNotFound(databaseTableName: "hero", key: ["id": 42.databaseValue]))
        #expect(String(describing: error) == "Key not found in table hero: [id:42]")
        let byID = Hero.recordNotFound(db, id: 7)
        #expect(
          byID as? RecordError == .recordNotFound(databaseTableName: "hero", key: ["id": 7.databaseValue]))
        // A table without primary key is keyed by its rowid.
        #expect(
          Note.recordNotFound(db, key: 3) as? RecordError
            == .recordNotFound(databaseTableName: "note", key: ["rowid": 3.databaseValue]))
        // A missing table: the schema error, not a RecordError.
        struct Missing: TableRecord {}
        #expect(Missing.recordNotFound(db, key: 1) as? DatabaseError != nil)
      }
    }
  }

  @Test("recordNotFound(key:) reports the given key values, nil as NULL")
  func recordNotFoundByKeyDictionary() {
    let error = Membership.recordNotFound(key: ["heroId": 1, "guild": nil])
    #expect(
      error
        == .recordNotFound(databaseTableName: "membership", key: ["heroId": 1.databaseValue, "guild": .null]))
    #expect(error.description == "Key not found in table membership: [guild:NULL heroId:1]")
  }

  @Test(
    "The instance recordNotFound(_:) reports the record's primary key values",
    arguments: RecordAPIWriter.allCases)
  func recordNotFoundInstance(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.read { (db: Database) throws in
        let error = Membership(heroId: 9, guild: "green").recordNotFound(db)
        #expect(
          error as? RecordError
            == .recordNotFound(
              databaseTableName: "membership",
              key: ["heroId": 9.databaseValue, "guild": "green".databaseValue]))
        #expect("\(error)".contains("table membership"))
        #expect("\(error)" == "Key not found in table membership: [guild:\"green\" heroId:9]")
      }
    }
  }

  @Test("PersistenceError is the former name of RecordError")
  @available(*, deprecated)
  func persistenceErrorAlias() {
    let error: PersistenceError = .recordNotFound(databaseTableName: "hero", key: [:])
    #expect(error == RecordError.recordNotFound(databaseTableName: "hero", key: [:]))
  }

  @Test(
    "fetchCursor and fetchSet by primary keys and ids return the matching records",
    arguments: RecordAPIWriter.allCases)
  func fetchByKeys(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.read { (db: Database) throws in
        let cursor = try Hero.fetchCursor(db, keys: [1, 3, 99])
        #expect(try Array(cursor).map(\.name).sorted() == ["Arthur", "Craig"])
        #expect(
          try Hero.fetchSet(db, keys: [2, 2, 3]) == [
            Hero(id: 2, name: "Barbara"), Hero(id: 3, name: "Craig"),
          ])
        #expect(try Array(Hero.fetchCursor(db, ids: [2])) == [Hero(id: 2, name: "Barbara")])
        #expect(try Hero.fetchSet(db, ids: [1, 2]).map(\.id).sorted() == [1, 2])
        #expect(try Array(Hero.fetchCursor(db, keys: [Int]())).isEmpty)
      }
    }
  }

  @Test("fetchSet with no key or id queries nothing")
  func fetchSetEmpty() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in try db.execute(sql: schema) }
    try dbQueue.read { (db: Database) throws in
      let statements = try capturedSQL(db) { () throws in
        #expect(try Hero.fetchSet(db, keys: [Int64]()).isEmpty)
        #expect(try Hero.fetchSet(db, ids: [Int64]()).isEmpty)
        #expect(try Membership.fetchSet(db, keys: [[String: (any DatabaseValueConvertible)?]]()).isEmpty)
      }
      #expect(statements.isEmpty)
    }
  }

  @Test(
    "fetchCursor and fetchSet by key dictionaries find rows by composite key",
    arguments: RecordAPIWriter.allCases)
  func fetchByKeyDictionaries(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.read { (db: Database) throws in
        let keys: [[String: (any DatabaseValueConvertible)?]] = [
          ["heroId": 1, "guild": "red"], ["heroId": 2, "guild": "red"], ["heroId": 2, "guild": "blue"],
        ]
        let cursor = try Membership.fetchCursor(db, keys: keys)
        #expect(try Array(cursor).map(\.guild).sorted() == ["blue", "red"])
        #expect(
          try Membership.fetchSet(db, keys: keys)
            == [Membership(heroId: 1, guild: "red"), Membership(heroId: 2, guild: "blue")])
        let statements = try capturedSQL(db) { _ = try Membership.fetchSet(db, keys: keys) }
        let queries = statements.filter { $0.hasPrefix("SELECT") && $0.contains("\"membership\"") }
        #expect(queries.count == 1)
        #expect(queries.first?.contains("\"heroId\"") == true)
      }
    }
  }

  @Test(
    "numberOfSelectedColumns counts the columns of the record's selection",
    arguments: RecordAPIWriter.allCases)
  func numberOfSelectedColumns(_ writer: RecordAPIWriter) throws {
    try writer.run(setUp: schema) { (dbWriter: any DatabaseWriter) throws in
      try dbWriter.read { (db: Database) throws in
        #expect(try Hero.numberOfSelectedColumns(db) == 3)
        #expect(try PartialHero.numberOfSelectedColumns(db) == 2)
        #expect(try ComputedHero.numberOfSelectedColumns(db) == 4)
        #expect(try Membership.numberOfSelectedColumns(db) == 2)
      }
    }
  }

  @Test("numberOfSelectedColumns throws for a missing table")
  func numberOfSelectedColumnsMissingTable() throws {
    struct Missing: TableRecord {}
    let dbQueue = try DatabaseQueue()
    try dbQueue.read { (db: Database) throws in
      _ = #expect(throws: DatabaseError.self) { try Missing.numberOfSelectedColumns(db) }
    }
  }
}
