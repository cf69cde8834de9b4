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

  /// The statement, decoding and row of the last lookups (a
  /// `PreparedPrimaryKeyLookup` of the record type), while the statement
  /// cache keeps the statement.
  var prepared: AnyObject?

  init(sql: String?, rowIDTable: String?) {
    self.sql = sql
    self.rowIDTable = rowIDTable
  }
}

/// What a lookup of `Record` runs again: the statement, the generation of the
/// statement cache it was fetched at, the decoding of its rows, and the row
/// object handed to the decoder. A lookup reuses them without hashing the
/// SQL, and resolves no column name again. All constants, so that a lookup
/// reads them without retaining them (a variable could change during a call,
/// and each read of one retains what it holds). The statement is kept, so
/// that another statement (after the statement cache let this one go) is
/// never taken for it.
final class PreparedPrimaryKeyLookup<Record: FetchableRecord> {
  let statement: Statement
  let statementGeneration: Int
  let decoding: RecordDecoding<Record>
  /// The same row object at each lookup, so that the decoder keeps its keyed
  /// container. The statement's own row, not a cursor's: the decoder keeps it
  /// from one lookup to the next without keeping the statement busy.
  let row: Row
  /// See ``PrimaryKeyLookupSQL/rowIDTable``.
  let rowIDTable: String?

  init(statement: Statement, statementGeneration: Int, rowIDTable: String?) {
    self.statement = statement
    self.statementGeneration = statementGeneration
    self.rowIDTable = rowIDTable
    decoding = RecordDecoding()
    row = Row(statement: statement)
  }

  /// Whether the lookup can run: the statement cache still keeps its
  /// statement, and no cursor is iterating it. A method, so that the
  /// statement is read from this object without a retain.
  func isCurrent(in db: Database) -> Bool {
    db.isIdleCachedStatement(statement, generation: statementGeneration)
  }

  /// The record whose primary key is `value`, if any.
  func fetch(_ db: Database, value: DatabaseValue) throws -> Record? {
    try statement.setArgument(value)
    // What the general path tells observations: this lookup reads one rowid.
    var restriction: RowIDRestriction?
    if db.wantsRowIDRestrictions, let table = rowIDTable, case .int64(let rowID) = value.storage {
      restriction = RowIDRestriction(table: table, rowIDs: [rowID])
    }
    return try statement.withFirstRow(
      in: db, restriction: restriction, reusing: row, decoding.decode)
  }
}

extension FetchableRecord where Self: TableRecord {
  /// `fetchOne(db, key:)` through the SQL remembered for this record type.
  static func fetchOneByPrimaryKey(_ db: Database, value: DatabaseValue) throws -> Self? {
    try db.withRecordStatements { cache in
      let type = ObjectIdentifier(Self.self)
      // A loop of lookups of one record type finds its prepared lookup with a
      // comparison, where the dictionary of lookups retains and releases two
      // objects more.
      if let last = cache.lastPrimaryKeyLookup, last.recordType == type {
        // Kept for this very record type.
        let prepared = unsafeDowncast(last.prepared, to: PreparedPrimaryKeyLookup<Self>.self)
        if prepared.isCurrent(in: db) { return try prepared.fetch(db, value: value) }
      }
      guard let prepared = try preparedLookup(db, cache: cache, value: value) else {
        return try filter(key: value).fetchOne(db)
      }
      cache.lastPrimaryKeyLookup = (type, prepared)
      return try prepared.fetch(db, value: value)
    }
  }

  /// The prepared lookup of this record type, made again if the statement
  /// cache let its statement go; nil when the lookup's SQL is not plain, and
  /// every lookup takes the general path.
  private static func preparedLookup(_ db: Database, cache: RecordStatementCache, value: DatabaseValue) throws
    -> PreparedPrimaryKeyLookup<Self>?
  {
    let type = ObjectIdentifier(Self.self)
    let lookup: PrimaryKeyLookupSQL
    if let cached = cache.primaryKeyLookups.value(for: type) {
      lookup = cached
    } else {
      lookup = try makeLookupSQL(db, value: value)
      cache.primaryKeyLookups.set(lookup, for: type)
    }
    if let kept = lookup.prepared {
      // The lookup is keyed by this record type: the prepared lookup is of
      // this type (and there is one only when the SQL is plain).
      let prepared = unsafeDowncast(kept, to: PreparedPrimaryKeyLookup<Self>.self)
      if prepared.isCurrent(in: db) { return prepared }
    }
    guard let sql = lookup.sql else { return nil }
    let prepared = PreparedPrimaryKeyLookup<Self>(
      statement: try db.fetchStatement(sql: sql), statementGeneration: db.statementCacheGeneration,
      rowIDTable: lookup.rowIDTable)
    lookup.prepared = prepared
    return prepared
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
