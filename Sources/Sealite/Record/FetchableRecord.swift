import Foundation

/// A type that can be built from a database row.
///
///     struct Player: FetchableRecord, Decodable {
///       var id: Int64
///       var name: String
///     }
///     let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
///
/// Decodable types get `init(row:)` for free: each coding key reads the column
/// of the same name (see ``databaseColumnDecodingStrategy``), nested Codable
/// values read JSON text.
public protocol FetchableRecord {
  /// Builds a record from a row.
  init(row: Row) throws

  /// User info given to the decoder of Decodable records, and to the JSON
  /// decoder of their nested values (through the default
  /// ``databaseJSONDecoder(for:)``).
  static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

  /// The JSON decoder of nested Codable values stored in the column of the
  /// coding key `column`.
  static func databaseJSONDecoder(for column: String) -> JSONDecoder

  /// How `Data` values are read from `column`. Default: blobs, or the bytes of text.
  static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

  /// How dates are read from `column`. Default: SQLite date text or Unix timestamps.
  static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

  /// How coding keys map to columns. Default: same name.
  static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

extension FetchableRecord {
  /// No user info.
  public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

  /// A JSON decoder with base64 data, dates in milliseconds since 1970, and
  /// the record's ``databaseDecodingUserInfo``.
  public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dataDecodingStrategy = .base64
    decoder.dateDecodingStrategy = .millisecondsSince1970
    decoder.nonConformingFloatDecodingStrategy = .throw
    decoder.userInfo = databaseDecodingUserInfo
    return decoder
  }

  /// Blobs, or the bytes of text.
  public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
    .deferredToData
  }

  /// SQLite date text or Unix timestamps.
  public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    .deferredToDate
  }

  /// Coding keys have the names of the columns.
  public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

extension FetchableRecord where Self: Decodable {
  /// Decodes the record from the row's columns.
  public init(row: Row) throws {
    // A cursor of this type that is decoding its rows lends its decoder,
    // which knows the columns already.
    self = try Self.decode(row, reuse: RecordDecoderReuse.take(for: Self.self))
  }

  /// Decodes `row` with the decoder of `reuse`, or with a decoder of its own.
  @inline(__always)
  static func decode(_ row: Row, reuse: RecordDecoderReuse?) throws -> Self {
    guard let reuse else {
      return try Self(from: RecordRowDecoder(row: row, recordType: Self.self, columnCache: nil))
    }
    return try reuse.decoder(for: row, recordType: Self.self)._withUnsafeGuaranteedRef { try Self(from: $0) }
  }
}

/// A cursor over records decoded from the rows of a statement.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
  /// The statement being iterated.
  public let statement: Statement
  private let rows: RowCursor
  private let decoding: RecordDecoding<Record>
  /// `decoding.decode`, read at each step without going through `decoding`.
  private let decode: (Row) throws -> Record

  init(
    statement: Statement, arguments: StatementArguments? = nil, adapter: (@Sendable (Row) -> Row)? = nil,
    restriction: RowIDRestriction? = nil
  ) throws {
    self.statement = statement
    rows = try RowCursor(
      statement: statement, arguments: arguments, adapter: adapter, restriction: restriction)
    // Adapted rows have the adapter's columns, which the next cursor of the
    // statement may not share: only plain rows reuse the statement's decoding.
    decoding = adapter == nil ? statement.recordDecoding(of: Record.self) : RecordDecoding()
    decoding.reuse?.attach(to: rows.liveRow)
    decode = decoding.decode
  }

  deinit {
    decoding.reuse?.detach()
  }

  public func next() throws -> Record? {
    try rows.withNextRow(decode)
  }
}

/// How the records of one statement's rows are decoded: with the record's
/// `init(row:)`, the record's own if it has one; for the default `init(row:)`
/// of a Decodable record, with a decoder kept from row to row, which
/// remembers which column each coding key reads (`reuse`).
///
/// A statement keeps one for its record cursors, from one cursor to the next
/// (``Statement/recordDecoding(of:)``): a request run again decodes with the
/// decoder and keyed container of the previous run, without the cast, the
/// allocations and the generic metadata lookups of new ones.
final class RecordDecoding<Record: FetchableRecord> {
  let decode: (Row) throws -> Record
  let reuse: RecordDecoderReuse?

  init() {
    guard let decodable = Record.self as? any (FetchableRecord & Decodable).Type else {
      decode = { row in try Record(row: row) }
      reuse = nil
      return
    }
    let reuse = RecordDecoderReuse(recordType: Record.self)
    decode = decodable.makeDecoder(as: Record.self, reuse: reuse)
    self.reuse = reuse
  }
}

extension Statement {
  /// The decoding this statement keeps for its cursors of `Record`, or a new
  /// one it keeps from now on (in place of another record type's).
  func recordDecoding<Record: FetchableRecord>(of type: Record.Type) -> RecordDecoding<Record> {
    if let kept = keptRecordDecoding, keptRecordType == ObjectIdentifier(Record.self) {
      // Kept for this very record type.
      return unsafeDowncast(kept, to: RecordDecoding<Record>.self)
    }
    let decoding = RecordDecoding<Record>()
    keptRecordDecoding = decoding
    keptRecordType = ObjectIdentifier(Record.self)
    return decoding
  }
}

extension Statement {
  /// Runs the statement and hands `body` each row decoded as a `Record`, with
  /// the decoding the statement keeps for that type; see `forEachStep`.
  func forEachRecord<Record: FetchableRecord>(
    of type: Record.Type, in db: Database, restriction: RowIDRestriction?, _ body: (Record) throws -> Void
  ) throws {
    try withKeptDecoding(of: Record.self) { decoding, row in
      try forEachStep(in: db, restriction: restriction) { try body(decoding.decode(row)) }
    }
  }

  /// Runs the statement to its first row and decodes it as a `Record`, with
  /// the decoding the statement keeps for that type: a `fetchOne` of a
  /// Decodable record reuses the decoder and keyed container of the previous
  /// one. Nil when the statement has no row.
  func withFirstRecord<Record: FetchableRecord>(
    of type: Record.Type, in db: Database, restriction: RowIDRestriction?
  ) throws -> Record? {
    try withKeptDecoding(of: Record.self) { decoding, row in
      try withFirstRow(in: db, restriction: restriction, reusing: row, decoding.decode)
    }
  }

  /// Lends `body` the decoding this statement keeps for `Record`, attached to
  /// a new row of this statement until `body` returns. Lent, not returned:
  /// the release build then passes both without a retain (a fetchOne makes 40
  /// atomic reference operations so, 44 with a returned pair or the same
  /// lines written in place).
  @inline(__always)
  private func withKeptDecoding<Record: FetchableRecord, T>(
    of type: Record.Type, _ body: (RecordDecoding<Record>, Row) throws -> T
  ) rethrows -> T {
    let decoding = recordDecoding(of: Record.self)
    let row = Row(statement: self)
    decoding.reuse?.attach(to: row)
    // The statement keeps its decoding, and the row keeps the statement.
    defer { decoding.reuse?.detach() }
    return try body(decoding, row)
  }
}

extension FetchableRecord where Self: Decodable {
  /// A closure that decodes `Record` (which is `Self`) with its `init(row:)`,
  /// lending it the decoder of `reuse`; once the default `init(row:)` took
  /// that decoder, the record's `init(row:)` is known to be the default one,
  /// and later rows are decoded with it directly, without the call through
  /// the protocol and this thread's slot. The existential is opened once per
  /// cursor, the record is not boxed in one, and a row is one closure call.
  static func makeDecoder<Record: FetchableRecord>(as recordType: Record.Type, reuse: RecordDecoderReuse)
    -> (Row) throws -> Record
  {
    assert(Self.self == Record.self, "a decoded record is moved out as a Record")
    let slot = reuse.makeRecordSlot(of: Self.self)
    return { row in
      if reuse.isTakenByDefaultInitializer {
        // Self and Record are the same type. The record is moved into the slot
        // and out of it as a Record: a cast would be a runtime call per row,
        // and `unsafeBitCast` a copy (retaining what the record holds) and a
        // destroy. Nothing runs between the two moves.
        slot.initializeMemory(as: Self.self, to: try decode(row, reuse: reuse))
        return slot.assumingMemoryBound(to: Record.self).move()
      }
      return try reuse.lend { try Record(row: row) }
    }
  }
}

// MARK: - Fetching

extension FetchableRecord {
  /// A cursor over records decoded from a prepared statement.
  public static func fetchCursor(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws
    -> RecordCursor<Self>
  {
    try RecordCursor(
      statement: statement, arguments: arguments, adapter: adapter?.rowTransform(for: statement))
  }

  /// All records decoded from a prepared statement.
  @inlinable
  public static func fetchAll(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> [Self] {
    if let adapter { return try Array(fetchCursor(statement, arguments: arguments, adapter: adapter)) }
    var records: [Self] = []
    try _forEachRecord(of: statement, arguments: arguments) { records.append($0) }
    return records
  }

  /// Runs `statement` with `arguments` (or those bound already) and hands
  /// each decoded record to `body`, without a cursor object.
  @usableFromInline
  static func _forEachRecord(
    of statement: Statement, arguments: StatementArguments?, _ body: (Self) throws -> Void
  ) throws {
    let db = try statement.requireDatabase()
    if let arguments { try statement.setArguments(arguments) }
    try statement.forEachRecord(of: Self.self, in: db, restriction: nil, body)
  }

  /// The first record decoded from a prepared statement.
  public static func fetchOne(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Self? {
    let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
    return try cursor.next()
  }

  /// A cursor over records decoded from an SQL query.
  public static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> RecordCursor<Self>
  {
    try fetchCursor(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// All records decoded from an SQL query.
  public static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> [Self]
  {
    try fetchAll(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// The first record decoded from an SQL query.
  public static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Self?
  {
    try fetchOne(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// A cursor over records decoded from a request.
  public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
    let prepared = try request.makePreparedRequest(db, forSingleResult: false)
    guard prepared.supplementaryFetch == nil else {
      throw DatabaseError.misuse(
        "a request that includes to-many associations can not be iterated with a cursor")
    }
    return try RecordCursor(
      statement: prepared.statement, adapter: prepared.rowTransform(), restriction: prepared.restriction)
  }

  /// All records decoded from a request.
  // Inlinable down to the loop that collects the records, so that it is
  // specialized for the record type in the caller's module (see Array(_:)).
  @inlinable
  public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
    var records: [Self] = []
    // Here, where the array's type is known: the generic function would
    // look up the metadata of [Self] in the runtime's cache on each call.
    try _forEachRecord(
      db, request, reservingCapacity: { records.reserveCapacity($0) }, body: { records.append($0) })
    return records
  }

  /// Decodes the records of `request` and hands each to `body`, after giving
  /// `reserve` the number of records to make room for. No cursor object: a
  /// small request spent more on allocating and freeing its cursor, row
  /// cursor and stepper than on stepping its rows.
  @usableFromInline
  static func _forEachRecord(
    _ db: Database, _ request: some FetchRequest, reservingCapacity reserve: (Int) -> Void,
    body: (Self) throws -> Void
  ) throws {
    let prepared = try request.makePreparedRequest(db, forSingleResult: false)
    if prepared.supplementaryFetch != nil || prepared.adapter != nil {
      // Included to-many associations and adapted rows: a plain run of the
      // statement can not decode them.
      for row in try prepared.fetchRows(db) { try body(Self(row: row)) }
      return
    }
    reserve(prepared.expectedRowCapacity)
    try prepared.statement.forEachRecord(of: Self.self, in: db, restriction: prepared.restriction, body)
  }

  /// The first record decoded from a request.
  public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
    let prepared = try request.makePreparedRequest(db, forSingleResult: true)
    if prepared.supplementaryFetch != nil || prepared.adapter != nil {
      return try prepared.fetchFirstRow(db).map { try Self(row: $0) }
    }
    return try prepared.statement.withFirstRecord(of: Self.self, in: db, restriction: prepared.restriction)
  }
}

extension FetchableRecord where Self: Hashable {
  /// The distinct records decoded from a prepared statement.
  public static func fetchSet(
    _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
  ) throws -> Set<
    Self
  > {
    try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
  }

  /// The distinct records decoded from an SQL query.
  public static func fetchSet(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
    adapter: (any RowAdapter)? = nil
  )
    throws -> Set<Self>
  {
    try fetchSet(db.fetchStatement(sql: sql), arguments: arguments, adapter: adapter)
  }

  /// The distinct records decoded from a request.
  public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
    try Set(fetchAll(db, request))
  }
}

extension FetchableRecord where Self: TableRecord {
  /// A cursor over every record of the table.
  public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> { try all().fetchCursor(db) }

  /// Every record of the table.
  @inlinable
  public static func fetchAll(_ db: Database) throws -> [Self] { try all().fetchAll(db) }

  /// The first record of the table.
  public static func fetchOne(_ db: Database) throws -> Self? { try all().fetchOne(db) }

  /// The record with the single-column primary key `key`, or nil.
  public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
    let value = try PrimaryKeyEncoding.value(db, key, recordType: Self.self, tableName: databaseTableName)
    if value.isNull { return nil }
    return try fetchOneByPrimaryKey(db, value: value)
  }

  /// The record with the given key values, or nil.
  public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self?
  {
    try filter(key: key).fetchOne(db)
  }

  /// The records with the given primary keys.
  public static func fetchAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> [Self]
  where Keys.Element: DatabaseValueConvertible {
    try filter(keys: keys).fetchAll(db)
  }

  /// The records with the given key values.
  public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
    -> [Self]
  {
    try filter(keys: keys).fetchAll(db)
  }

  /// The record with the single-column primary key `key`; throws
  /// ``RecordError/recordNotFound(databaseTableName:key:)`` if there is none.
  public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
    guard let record = try fetchOne(db, key: key) else {
      throw RecordError.recordNotFound(
        databaseTableName: databaseTableName, key: try keyDescription(db, value: key.databaseValue))
    }
    return record
  }

  /// The record with the given key values; throws
  /// ``RecordError/recordNotFound(databaseTableName:key:)`` if there is none.
  public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
    guard let record = try fetchOne(db, key: key) else {
      throw RecordError.recordNotFound(
        databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }
    return record
  }

  static func keyDescription(_ db: Database, value: DatabaseValue) throws -> [String: DatabaseValue] {
    let primaryKey = try db.recordPrimaryKey(databaseTableName)
    return [primaryKey.columns.first ?? "rowid": value]
  }
}

extension FetchableRecord where Self: TableRecord & Hashable {
  /// The distinct records of the table.
  public static func fetchSet(_ db: Database) throws -> Set<Self> { try all().fetchSet(db) }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
  /// The record with primary key `id`, or nil.
  public static func fetchOne(_ db: Database, id: ID) throws -> Self? { try fetchOne(db, key: id) }

  /// The records with the given primary keys.
  public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
    try fetchAll(db, keys: ids)
  }

  /// The record with primary key `id`; throws
  /// ``RecordError/recordNotFound(databaseTableName:key:)`` if there is none.
  public static func find(_ db: Database, id: ID) throws -> Self { try find(db, key: id) }
}

extension FetchRequest where RowDecoder: FetchableRecord {
  /// A cursor over the fetched records.
  public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
    try RowDecoder.fetchCursor(db, self)
  }

  /// All fetched records.
  @inlinable
  public func fetchAll(_ db: Database) throws -> [RowDecoder] {
    try RowDecoder.fetchAll(db, self)
  }

  /// The first fetched record.
  public func fetchOne(_ db: Database) throws -> RowDecoder? {
    try RowDecoder.fetchOne(db, self)
  }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
  /// The distinct fetched records.
  public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
    try RowDecoder.fetchSet(db, self)
  }
}
