import Sealite
import Testing

@Suite("Optional selections and orderings: the wrapped one, or NULL for nil")
struct OptionalOrderingSelectionTests {
  @Test("an optional column selects and orders as the column; nil selects NULL and orders nothing")
  func optionalTerms() throws {
    let dbQueue = try DatabaseQueue(configuration: rawKeyConfiguration())
    try dbQueue.write { db in
      try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER)")
      try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 10), ('Barbara', 30), ('Craig', 20)")
      let name: Column? = Column("name")
      let byScore: SQLOrdering? = Column("score").desc
      let names = try Table("player").select(name, as: String.self).order(byScore).fetchAll(db)
      #expect(names == ["Barbara", "Craig", "Arthur"])

      let nothing: Column? = nil
      let nulls = try Table("player").select(nothing, as: String?.self).fetchAll(db)
      #expect(nulls == [nil, nil, nil])
      let noOrdering: SQLOrdering? = nil
      let request = Table("player").select(Column("name"), as: String.self).order(noOrdering)
      #expect(try request.fetchCount(db) == 3)
      #expect(Set(try request.fetchAll(db)) == ["Arthur", "Barbara", "Craig"])
    }
  }
}
