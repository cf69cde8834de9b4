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

  /// The statement of the last lookup, and the decoder of its rows (a
  /// `RecordDecoderBox` of the record type): a lookup with the same statement
  /// reuses it, and resolves no column name again. The statement is kept, so
  /// that another statement (after the statement cache let this one go) is
  /// never taken for it.
  var statement: Statement?
  var decoder: AnyObject?

  init(sql: String?, rowIDTable: String?) {
    self.sql = sql
    self.rowIDTable = rowIDTable
  }
}

/// A record decoder, kept in a ``PrimaryKeyLookupSQL`` whose type is erased.
final class RecordDecoderBox<Record: FetchableRecord> {
  let reuse: RecordDecoderReuse
  let decode: (Row) throws -> Record

  init() {
    let reuse = RecordDecoderReuse()
    self.reuse = reuse
    decode = RecordCursor<Record>.decoder(reuse: reuse)
  }
}

extension FetchableRecord where Self: TableRecord {
  /// `fetchOne(db, key:)` through the SQL remembered for this record type.
  static func fetchOneByPrimaryKey(_ db: Database, value: DatabaseValue) throws -> Self? {
    let cache = db.recordStatements
    let type = ObjectIdentifier(Self.self)
    let lookup: PrimaryKeyLookupSQL
    if let cached = cache.primaryKeyLookups[type] {
      lookup = cached
    } else {
      lookup = try makeLookupSQL(db, value: value)
      cache.primaryKeyLookups[type] = lookup
    }
    guard let sql = lookup.sql else { return try filter(key: value).fetchOne(db) }
    let statement = try db.fetchStatement(sql: sql)
    var arguments = StatementArguments()
    arguments.values = [value]
    try statement.setArguments(arguments)
    // What the general path tells observations: this lookup reads one rowid.
    var restriction: RowIDRestriction?
    if let table = lookup.rowIDTable, case .int64(let rowID) = value.storage {
      restriction = RowIDRestriction(table: table, rowIDs: [rowID])
    }
    let box: RecordDecoderBox<Self>
    if lookup.statement === statement, let decoder = lookup.decoder {
      // The lookup is keyed by this record type: the box is of this type.
      box = unsafeDowncast(decoder, to: RecordDecoderBox<Self>.self)
    } else {
      box = RecordDecoderBox()
      lookup.statement = statement
      lookup.decoder = box
    }
    // The row read keeps its cursor, and the cursor its statement busy: the
    // decoder lets it go once the record is decoded.
    defer { box.reuse.forgetRow() }
    return try RecordCursor<Self>(statement: statement, restriction: restriction, decoder: box.decode).next()
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
