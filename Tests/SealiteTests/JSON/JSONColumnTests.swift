import Foundation
import Sealite
import Testing

// JSONColumn and the -> / ->> operators over nested Codable properties, which Sealite stores
// as JSON text: fetched, filtered, ordered and indexed. The operators need SQLite 3.38; on
// the legacy leg (3.15, no JSON at all) each statement that uses them throws the
// SQLiteFeatureError that names the capability.

private struct Address: Codable, Hashable {
  var street: String
  var city: String
  var country: String
}

private struct Player: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var name: String
  var address: Address

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let name = Column(CodingKeys.name)
    static let address = JSONColumn(CodingKeys.address)
  }
}

private func makePlayers(_ store: RequestProtocolStore, _ directory: TemporaryDirectory) throws
  -> any DatabaseWriter
{
  let writer = try store.makeWriter(directory)
  try writer.write { db in
    try db.create(table: "player") { t in
      t.primaryKey("id", .integer)
      t.column("name", .text).notNull()
      t.column("address", .jsonText).notNull()
    }
    try Player(id: 1, name: "Arthur", address: Address(street: "Rue Lepic", city: "Paris", country: "FR"))
      .insert(db)
    try Player(
      id: 2, name: "Barbara", address: Address(street: "Unter den Linden", city: "Berlin", country: "DE")
    )
    .insert(db)
    try Player(
      id: 3, name: "Craig", address: Address(street: "Kastanienallee", city: "Berlin", country: "DE")
    )
    .insert(db)
    try Player(id: 4, name: "Diane", address: Address(street: "Cours Mirabeau", city: "Aix", country: "FR"))
      .insert(db)
  }
  return writer
}

/// What `body` returns where the linked SQLite has the JSON operators; elsewhere, checks that
/// `body` throws the error that names them, and returns nil.
func withJSONOperators<T>(_ body: () throws -> T) throws -> T? {
  guard SQLiteFeatures.linked.supports(.jsonArrowOperators) else {
    let error = #expect(throws: SQLiteFeatureError.self) { _ = try body() }
    #expect(error?.capability == .jsonArrowOperators)
    return nil
  }
  return try body()
}

@Suite("JSONColumn: querying nested Codable properties stored as JSON")
struct JSONColumnTests {
  @Test(
    "A nested Codable property is selected, filtered and ordered by a key of its JSON",
    arguments: RequestProtocolStore.allCases)
  func filterAndOrder(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.read { db in
      let address = Player.Columns.address
      let cities = try withJSONOperators {
        try Player.select(address["city"], as: String.self).distinct().order(address["city"]).fetchAll(db)
      }
      guard let cities else { return }
      #expect(cities == ["Aix", "Berlin", "Paris"])

      let germans = try Player.filter(address["country"] == "DE").order(Player.Columns.name.desc).fetchAll(db)
      #expect(germans.map(\.name) == ["Craig", "Barbara"])
      #expect(germans.first?.address.street == "Kastanienallee")

      // The closure form of filter reaches the JSON column through the record's columns.
      let parisians = try Player.filter { $0.address["city"] == "Paris" }.fetchAll(db)
      #expect(parisians.map(\.id) == [1])

      // ->> gives SQL values; -> gives JSON (a string stays quoted).
      let row = try #require(
        try Row.fetchOne(
          db, Player.filter(key: 1).select(address["city"], address.jsonRepresentation(atPath: "city"))))
      #expect(row[0] == "Paris")
      #expect(row[1] == "\"Paris\"")
      #expect(
        try Player.filter(key: 2).select(address.jsonExtract(atPath: "$.street"), as: String.self).fetchOne(
          db)
          == "Unter den Linden")
    }
  }

  @Test("A JSON path given as a value is written as an SQL literal, so that it matches an index on that path")
  func pathIsLiteral() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.create(table: "player") { t in
        t.primaryKey("id", .integer)
        t.column("address", .jsonText)
      }
      let sql = try capturedSQL(db) {
        _ = try withJSONOperators {
          try Row.fetchAll(db, Table("player").filter(JSONColumn("address")["country"] == "FR"))
        }
      }
      guard SQLiteFeatures.linked.supports(.jsonArrowOperators) else { return }
      #expect(sql.contains { $0.contains(#""address" ->> 'country')"#) }, "\(sql)")
    }
  }

  @Test(
    "An index on a JSON path is created and used by a request that filters on the path",
    arguments: RequestProtocolStore.allCases)
  func indexOnJSONPath(store: RequestProtocolStore) throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(store, directory)
    try writer.write { db in
      let created: Void? = try withJSONOperators {
        try db.create(
          index: "player_on_country", on: "player", expressions: [Player.Columns.address["country"]])
      }
      guard created != nil else {
        #expect(try db.indexes(on: "player").isEmpty)
        return
      }
      let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player_on_country'")
      #expect(sql == #"CREATE INDEX "player_on_country" ON "player"("address" ->> 'country')"#)

      let request = Player.filter(Player.Columns.address["country"] == "DE")
      let statement = try request.makePreparedRequest(db).statement
      let plan = try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments
      ).map { $0["detail"] as String }
      #expect(plan.contains { $0.contains("USING INDEX player_on_country") }, "\(plan)")
      #expect(try request.fetchAll(db).map(\.id).sorted() == [2, 3])

      // A unique index on expressions refuses a duplicate.
      try db.create(
        index: "player_on_street", on: "player", expressions: [Player.Columns.address["street"]],
        options: .unique)
      var duplicate = try #require(try Player.fetchOne(db, key: 1))
      duplicate.id = 5
      #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
    }
  }

  @Test("A generated column computed from a JSON path can be indexed and queried like any column")
  func generatedColumnFromJSON() throws {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      func create() throws {
        try db.create(table: "player") { t in
          t.primaryKey("id", .integer)
          t.column("address", .jsonText).notNull()
          t.column("country", .text).generatedAs(JSONColumn("address")["country"]).indexed()
        }
      }
      // SQLite 3.15 lacks both: the generated column is refused first.
      guard SQLiteFeatures.linked.supports(.generatedColumns) else {
        let error = #expect(throws: SQLiteFeatureError.self) { try create() }
        #expect(error?.capability == .generatedColumns)
        #expect(try !db.tableExists("player"))
        return
      }
      let created: Void? = try withJSONOperators { try create() }
      guard created != nil else {
        #expect(try !db.tableExists("player"))
        return
      }
      try db.execute(
        sql: "INSERT INTO player (id, address) VALUES (1, ?), (2, ?)",
        arguments: [#"{"country":"FR"}"#, #"{"country":"DE"}"#])
      #expect(
        try Int64.fetchAll(db, Table("player").select(Column("id")).filter(Column("country") == "DE")) == [2])
    }
  }

  @Test("A JSON column seen through a table alias keeps its JSON accessors")
  func tableAlias() throws {
    let directory = TemporaryDirectory()
    let writer = try makePlayers(.queue, directory)
    try writer.read { db in
      let alias = TableAlias<Player>(name: "p")
      let names = try withJSONOperators {
        try Player.aliased(alias).filter(alias[Player.Columns.address]["city"] == "Berlin")
          .order(alias.name).select(alias.name, as: String.self).fetchAll(db)
      }
      guard let names else { return }
      #expect(names == ["Barbara", "Craig"])
      let viaMember = try Player.aliased(alias).filter(alias.address["country"] == "FR").fetchCount(db)
      #expect(viaMember == 2)
    }
  }
}
