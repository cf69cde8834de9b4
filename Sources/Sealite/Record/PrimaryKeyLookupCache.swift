/// The SQL of `Record.fetchOne(db, key:)` for one record type, built once per
/// connection (and again after a schema change) instead of once per lookup:
/// generating the SELECT through the query interface costs more than running it.
final class PrimaryKeyLookupSQL {
  /// The SELECT, whose only argument is the key; nil when the record type's
  /// request takes other arguments or joins, and every lookup takes the
  /// general path.
  let sql: String?
  /// The table whose rowid the key is, for observation regions; nil when the
  /// primary key is not the rowid.
  let rowIDTable: String?

  /// The statement of the last lookup, the generation of the statement cache
  /// it was fetched at, and the decoding of its rows (a `RecordDecoding` of
  /// the record type): while the cache keeps the statement, a lookup reuses
  /// it without hashing its SQL, and resolves no column name again. The
  /// statement is kept, so that another statement (after the statement cache
  /// let this one go) is never taken for it.
  var statement: Statement?
  var statementGeneration = 0
  var decoder: AnyObject?
  /// The row object each lookup with `statement` hands to the decoder: the
  /// same object each time, so that the decoder keeps its keyed container.
  var row: Row?

  init(sql: String?, rowIDTable: String?) {
    self.sql = sql
    self.rowIDTable = rowIDTable
  }
}

extension FetchableRecord where Self: TableRecord {
  /// `fetchOne(db, key:)` through the SQL remembered for this record type.
  static func fetchOneByPrimaryKey(_ db: Database, value: DatabaseValue) throws -> Self? {
    let cache = db.recordStatements
    let type = ObjectIdentifier(Self.self)
    let lookup: PrimaryKeyLookupSQL
    if let cached = cache.primaryKeyLookups.value(for: type) {
      lookup = cached
    } else {
      lookup = try makeLookupSQL(db, value: value)
      cache.primaryKeyLookups.set(lookup, for: type)
    }
    guard let sql = lookup.sql else { return try filter(key: value).fetchOne(db) }
    let statement: Statement
    let decoding: RecordDecoding<Self>
    let row: Row
    if let kept = lookup.statement, let decoder = lookup.decoder, let keptRow = lookup.row,
      db.isIdleCachedStatement(kept, generation: lookup.statementGeneration)
    {
      statement = kept
      // The lookup is keyed by this record type: the decoding is of this type.
      decoding = unsafeDowncast(decoder, to: RecordDecoding<Self>.self)
      row = keptRow
    } else {
      statement = try db.fetchStatement(sql: sql)
      decoding = RecordDecoding()
      row = Row(statement: statement)
      lookup.statement = statement
      lookup.statementGeneration = db.statementCacheGeneration
      lookup.decoder = decoding
      lookup.row = row
    }
    try statement.setArgument(value)
    // What the general path tells observations: this lookup reads one rowid.
    var restriction: RowIDRestriction?
    if db.wantsRowIDRestrictions, let table = lookup.rowIDTable, case .int64(let rowID) = value.storage {
      restriction = RowIDRestriction(table: table, rowIDs: [rowID])
    }
    // The row is the statement's own, not a cursor's: the decoder keeps it
    // (and its keyed container) from one lookup to the next without keeping
    // the statement busy.
    return try statement.withFirstRow(restriction: restriction, reusing: row, decoding.decode)
  }

  /// The SQL the query interface builds for a lookup of `value`, if `value` is
  /// its only argument.
  private static func makeLookupSQL(_ db: Database, value: DatabaseValue) throws -> PrimaryKeyLookupSQL {
    let relation = filter(key: value).relation
    let context = SQLGenerationContext(db: db)
    let sql = try relation.selectSQL(db, context, singleResult: true)
    let hasScopes = try relation.scopeLayout(db) != nil
    let isPlain =
      !relation.hasJoins && !relation.hasPrefetches && !hasScopes
      && context.arguments?.values == [value] && context.arguments?.namedValues.isEmpty == true
    let rowIDTable = try db.primaryKey(databaseTableName).rowIDColumn == nil ? nil : relation.tableName
    return PrimaryKeyLookupSQL(sql: isPlain ? sql : nil, rowIDTable: rowIDTable)
  }
}
