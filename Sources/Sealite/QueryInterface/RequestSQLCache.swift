/// The SELECT of each request shape a connection ran (see ``RequestShape``):
/// a request of a known shape binds its values to the SQL generated the
/// first time, instead of generating it again. Generating the SQL of a
/// small request costs more than running it.
///
/// Forgotten when the schema changes, since the SQL of some shapes reads it
/// (a reversed request without ordering orders by the primary key).
final class RequestSQLCache: ConnectionState {
  /// SELECTs by shape key. A loop running one request shape again and again
  /// compares its key with the last one instead of hashing it.
  @exclusivity(unchecked) private var sqlByShape = LastHitDictionary<RequestShapeKey, String>()
  /// Shapes kept at most: a program that builds ever new shapes (an `IN`
  /// list of every length) starts again from empty.
  static let capacity = 512

  static func make(for db: Database) -> RequestSQLCache { RequestSQLCache() }

  func schemaDidChange() { sqlByShape.removeAll() }

  /// The SELECT of a shape that ran before.
  func sql(for key: RequestShapeKey) -> String? { sqlByShape.value(for: key) }

  func store(_ sql: String, for key: RequestShapeKey) {
    if sqlByShape.count >= RequestSQLCache.capacity { sqlByShape.removeAll() }
    sqlByShape.set(sql, for: key)
  }
}

extension SQLRelation {
  /// The SELECT of this resolved relation and its arguments: from the cache
  /// of the connection when a request of the same shape ran before.
  func cachedSelectSQL(_ db: Database, singleResult: Bool) throws -> (
    sql: String, arguments: StatementArguments
  ) {
    guard let shape = RequestShape(self, singleResult: singleResult) else {
      return try renderedSelectSQL(db, singleResult: singleResult)
    }
    db.validateSchemaFacts()
    // Borrowed, not retained (see withState(for:_:)).
    return try db.withState(for: RequestSQLCache.self) { cache in
      if let sql = cache.sql(for: shape.key) {
        var arguments = StatementArguments()
        arguments.values = shape.values
        assert(
          {
            let rendered = try? renderedSelectSQL(db, singleResult: singleResult)
            return rendered?.sql == sql && rendered?.arguments.values == shape.values
          }(), "a request shape has the SQL and the values of its rendering")
        return (sql, arguments)
      }
      let rendered = try renderedSelectSQL(db, singleResult: singleResult)
      // The shape lists its values in the order of the text: if ever it did
      // not for some shape, that shape is rendered each time, not cached.
      assert(rendered.arguments.values == shape.values, "a request shape lists its values in binding order")
      if rendered.arguments.values == shape.values && rendered.arguments.namedValues.isEmpty {
        cache.store(rendered.sql, for: shape.key)
      }
      return rendered
    }
  }

  private func renderedSelectSQL(_ db: Database, singleResult: Bool) throws
    -> (sql: String, arguments: StatementArguments)
  {
    let context = SQLGenerationContext(db: db)
    let sql = try selectSQL(db, context, singleResult: singleResult)
    return (sql, context.arguments ?? StatementArguments())
  }
}
