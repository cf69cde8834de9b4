/// The SELECT of each request shape a connection ran (see ``RequestShape``):
/// a request of a known shape binds its values to the SQL generated the
/// first time, instead of generating it again. Generating the SQL of a
/// small request costs more than running it.
///
/// Forgotten when the schema changes, since the SQL of some shapes reads it
/// (a reversed request without ordering orders by the primary key).
final class RequestSQLCache: ConnectionState {
  /// SELECTs by shape key. A loop running one request shape again and again
  /// compares the key its request wrote with the last one, and makes no key
  /// nor hashes one.
  @exclusivity(unchecked) private var selectByShape = LastHitDictionary<RequestShapeKey, CachedSelect>()
  /// The SQL of DELETE and UPDATE statements by shape key (`deleteAll`,
  /// `updateAll`): run by `execute(sql:arguments:)`, which keeps their
  /// statements.
  @exclusivity(unchecked) private var writeSQLByShape = LastHitDictionary<RequestShapeKey, String>()
  /// Where each request writes the key of its shape. Unchecked exclusivity:
  /// the connection runs one request at a time.
  @exclusivity(unchecked) var keyBuffer = ShapeKeyBuffer()
  /// Shapes kept at most: a program that builds ever new shapes (an `IN`
  /// list of every length) starts again from empty.
  static let capacity = 512

  static func make(for db: Database) -> RequestSQLCache { RequestSQLCache() }

  func schemaDidChange() {
    selectByShape.removeAll()
    writeSQLByShape.removeAll()
  }

  /// What the cache knows of the shape whose key is in ``keyBuffer``: its
  /// SELECT if it ran before, or else its key, for ``store(_:for:)``.
  enum Lookup {
    case select(CachedSelect)
    case unknown(RequestShapeKey)
  }

  /// The SELECT of the shape whose key is in ``keyBuffer``, if it ran before.
  func lookUpWrittenShape() -> Lookup {
    let found = selectByShape.value(
      recognizing: { $0.isWritten(in: keyBuffer) }, makeKey: { RequestShapeKey(keyBuffer) })
    if let select = found.value { return .select(select) }
    return .unknown(found.missedKey!)
  }

  func store(_ select: CachedSelect, for key: RequestShapeKey) {
    if selectByShape.count >= RequestSQLCache.capacity { selectByShape.removeAll() }
    selectByShape.set(select, for: key)
  }

  /// The SQL of the write whose shape key is in ``keyBuffer``, if it ran
  /// before; else its key, for ``storeWrite(_:for:)``.
  func lookUpWrittenWriteShape() -> (sql: String?, missedKey: RequestShapeKey?) {
    let found = writeSQLByShape.value(
      recognizing: { $0.isWritten(in: keyBuffer) }, makeKey: { RequestShapeKey(keyBuffer) })
    return (found.value, found.missedKey)
  }

  func storeWrite(_ sql: String, for key: RequestShapeKey) {
    if writeSQLByShape.count >= RequestSQLCache.capacity { writeSQLByShape.removeAll() }
    writeSQLByShape.set(sql, for: key)
  }
}

/// The SELECT of one request shape, and the statement of its last run: the
/// next request of the shape runs that statement again without hashing its
/// SQL to find it in the statement cache, as long as the cache keeps it and
/// no cursor iterates it (see `Database.isIdleCachedStatement`).
final class CachedSelect {
  let sql: String
  private var statement: Statement?
  /// The generation of the statement cache `statement` was fetched at.
  private var statementGeneration = 0

  init(sql: String) {
    self.sql = sql
  }

  /// The statement of the SQL, as `Database.fetchStatement(sql:)` gives it.
  func fetchStatement(_ db: Database) throws -> Statement {
    if let statement, db.isIdleCachedStatement(statement, generation: statementGeneration) {
      return statement
    }
    let fetched = try db.fetchStatement(sql: sql)
    // Kept even when prepared apart, because a cursor iterates the cached
    // one: like the cached statements, it is let go whenever the statement
    // cache changes (a schema change empties it).
    statement = fetched
    statementGeneration = db.statementCacheGeneration
    return fetched
  }
}

extension SQLRelation {
  /// The statement of this resolved relation's SELECT, as
  /// `Database.fetchStatement(sql:)` gives it, and its arguments: from the
  /// cache of the connection when a request of the same shape ran before.
  func cachedSelectStatement(_ db: Database, singleResult: Bool) throws -> (
    statement: Statement, arguments: StatementArguments
  ) {
    db.validateSchemaFacts()
    // Borrowed, not retained (see withState(for:_:)).
    return try db.withState(for: RequestSQLCache.self) { cache in
      guard let shape = RequestShape(self, singleResult: singleResult, key: &cache.keyBuffer) else {
        let rendered = try renderedSelectSQL(db, singleResult: singleResult)
        return (try db.fetchStatement(sql: rendered.sql), rendered.arguments)
      }
      let lookup = cache.lookUpWrittenShape()
      if case .select(let select) = lookup {
        var arguments = StatementArguments()
        arguments.values = shape.values
        assert(
          {
            let rendered = try? renderedSelectSQL(db, singleResult: singleResult)
            guard let rendered else { return false }
            return rendered.sql == select.sql
              && RequestShape.sameValues(rendered.arguments.values, shape.values)
          }(), "a request shape has the SQL and the values of its rendering")
        return (try select.fetchStatement(db), arguments)
      }
      // The key was copied out of the buffer, which another request could
      // write while this one renders (reading the schema, for instance).
      guard case .unknown(let key) = lookup else { preconditionFailure("a shape not found has its key") }
      let rendered = try renderedSelectSQL(db, singleResult: singleResult)
      // The shape lists its values in the order of the text: if ever it did
      // not for some shape, that shape is rendered each time, not cached.
      let listsValuesInOrder = RequestShape.sameValues(rendered.arguments.values, shape.values)
      assert(listsValuesInOrder, "a request shape lists its values in binding order")
      guard listsValuesInOrder && rendered.arguments.namedValues.isEmpty else {
        return (try db.fetchStatement(sql: rendered.sql), rendered.arguments)
      }
      let select = CachedSelect(sql: rendered.sql)
      cache.store(select, for: key)
      return (try select.fetchStatement(db), rendered.arguments)
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

extension SQLRelation {
  /// The SQL of this resolved relation's DELETE or UPDATE, and its
  /// arguments: from the cache of the connection when a write of the same
  /// shape ran before, else rendered by `render`.
  func cachedWriteSQL(
    _ db: Database, _ write: ShapedWrite, render: (SQLGenerationContext) throws -> String
  ) throws -> (sql: String, arguments: StatementArguments) {
    func rendered() throws -> (sql: String, arguments: StatementArguments) {
      let context = SQLGenerationContext(db: db)
      let sql = try render(context)
      return (sql, context.arguments ?? StatementArguments())
    }
    db.validateSchemaFacts()
    return try db.withState(for: RequestSQLCache.self) { cache in
      guard let shape = RequestShape(self, writing: write, key: &cache.keyBuffer) else {
        return try rendered()
      }
      let lookup = cache.lookUpWrittenWriteShape()
      if let sql = lookup.sql {
        var arguments = StatementArguments()
        arguments.values = shape.values
        assert(
          {
            guard let rendered = try? rendered() else { return false }
            return rendered.sql == sql && RequestShape.sameValues(rendered.arguments.values, shape.values)
          }(), "a write shape has the SQL and the values of its rendering")
        return (sql, arguments)
      }
      // The key was copied out of the buffer, which the rendering may write.
      guard let key = lookup.missedKey else { preconditionFailure("a shape not found has its key") }
      let written = try rendered()
      let listsValuesInOrder = RequestShape.sameValues(written.arguments.values, shape.values)
      assert(listsValuesInOrder, "a write shape lists its values in binding order")
      if listsValuesInOrder && written.arguments.namedValues.isEmpty {
        cache.storeWrite(written.sql, for: key)
      }
      return written
    }
  }
}
