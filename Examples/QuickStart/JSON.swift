import Foundation
import Sealite

// README:begin json-records
struct Address: Codable {
  var street: String
  var city: String
  var country: String
}

struct Customer: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var name: String
  var address: Address  // stored as JSON text: {"city":"Paris","country":"FR",…}
  var tags: [String]  // stored as JSON text too: ["vip","newsletter"]

  enum Columns {
    static let name = Column(CodingKeys.name)
    static let address = JSONColumn(CodingKeys.address)
    static let tags = JSONColumn(CodingKeys.tags)
  }
}
// README:end json-records

/// The DocC article "JSON": nested Codable properties queried, indexed and built with the
/// JSON functions, on a database of its own in `directory`. Needs SQLite 3.38 (the `->>`
/// operator): on older SQLite it checks the error instead.
func jsonExamples(in directory: URL) throws {
  let dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("customers.sqlite").path)
  guard SQLiteFeatures.linked.supports(.jsonArrowOperators) else {
    // README:begin json-unsupported
    do {
      _ = try dbQueue.read { db in
        try Customer.filter(Customer.Columns.address["country"] == "FR").fetchAll(db)
      }
    } catch let error as SQLiteFeatureError {
      print(error)  // JSON -> and ->> operators needs SQLite 3.38.0 or later; …
    }
    // README:end json-unsupported
    check(hasPrinted(containing: "3.38.0"), "no clear error for JSON operators")
    return
  }

  // README:begin json-schema
  try dbQueue.write { db in
    try db.create(table: "customer") { t in
      t.primaryKey("id", .integer)
      t.column("name", .text).notNull()
      t.column("address", .jsonText).notNull()
      t.column("tags", .jsonText).notNull()
    }
    // CREATE INDEX customer_on_country ON customer(address ->> 'country')
    try db.create(
      index: "customer_on_country", on: "customer",
      expressions: [Customer.Columns.address["country"]])

    try Customer(
      id: 1, name: "Arthur", address: Address(street: "Rue Lepic", city: "Paris", country: "FR"),
      tags: ["vip"]
    ).insert(db)
    try Customer(
      id: 2, name: "Barbara", address: Address(street: "Torstraße", city: "Berlin", country: "DE"),
      tags: []
    ).insert(db)
    try Customer(
      id: 3, name: "Craig", address: Address(street: "Cours Mirabeau", city: "Aix", country: "FR"),
      tags: ["vip", "newsletter"]
    ).insert(db)
  }
  // README:end json-schema

  // README:begin json-query
  let (french, cities, plan) = try dbQueue.read { db in
    // WHERE "address" ->> 'country' = ?: the path is written as a literal, so the index applies
    let request = Customer.filter(Customer.Columns.address["country"] == "FR")
      .order(Customer.Columns.address["city"])
    let french = try request.fetchAll(db)

    let cities = try Customer.select(Customer.Columns.address["city"], as: String.self)
      .order(Customer.Columns.name)
      .fetchAll(db)

    let statement = try request.makePreparedRequest(db).statement
    let plan = try db.explainQueryPlan(sql: statement.sql, arguments: statement.arguments)
    return (french, cities, plan)
  }
  print(french.map(\.name))  // ["Craig", "Arthur"]
  print(cities)  // ["Paris", "Berlin", "Aix"]
  print(plan)  // SEARCH customer USING INDEX customer_on_country (<expr>=?), then the ORDER BY
  // README:end json-query
  check(french.map(\.name) == ["Craig", "Arthur"], "French customers: \(french.map(\.name))")
  check(cities == ["Paris", "Berlin", "Aix"], "cities: \(cities)")
  check(plan.usesIndex("customer_on_country"), "plan: \(plan)")

  // README:begin json-build
  let (vipCount, summary, byCountry) = try dbQueue.write { db in
    // Rows whose JSON array contains a value, with a subquery over json_each
    let vipCount = try Customer.filter(
      sql: "EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)", arguments: ["vip"]
    ).fetchCount(db)

    // Edit the stored JSON in place
    try Customer.filter(key: 2).updateAll(
      db, Customer.Columns.tags.set(to: Database.jsonInsert(Customer.Columns.tags, ["$[#]": "newsletter"])))

    // Build JSON: an object per customer, embedding the address as JSON, not as a string
    let summary = try String.fetchOne(
      db,
      Customer.filter(key: 1).select(
        Database.jsonObject(
          [
            (key: "name", value: Customer.Columns.name),
            (key: "address", value: Customer.Columns.address),
          ] as [(key: String, value: any SQLExpressible)])))

    // Aggregate into JSON: the names of the customers of each country
    let byCountry = try Row.fetchAll(
      db,
      Customer.select(
        Customer.Columns.address["country"].forKey("country"),
        Database.jsonGroupArray(Customer.Columns.name).forKey("names")
      )
      .group(Customer.Columns.address["country"])
      .order(Customer.Columns.address["country"])
    ).map { "\($0["country"] as String): \($0["names"] as String)" }
    return (vipCount, summary, byCountry)
  }
  print(vipCount)  // 2
  print(summary!)  // {"name":"Arthur","address":{"city":"Paris","country":"FR","street":"Rue Lepic"}}
  print(byCountry)  // ["DE: [\"Barbara\"]", "FR: [\"Arthur\",\"Craig\"]"]
  // README:end json-build
  check(vipCount == 2, "vip: \(vipCount)")
  check(
    summary == #"{"name":"Arthur","address":{"city":"Paris","country":"FR","street":"Rue Lepic"}}"#,
    "summary: \(summary ?? "nil")")
  check(byCountry == [#"DE: ["Barbara"]"#, #"FR: ["Arthur","Craig"]"#], "by country: \(byCountry)")
  let barbaraTags = try dbQueue.read { db in try Customer.fetchOne(db, key: 2)!.tags }
  check(barbaraTags == ["newsletter"], "tags: \(barbaraTags)")
  try dbQueue.close()
}
