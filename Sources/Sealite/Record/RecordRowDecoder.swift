import Foundation

/// The Decoder that builds a Decodable record from a row: each key reads the
/// column of the same name (after the record's column strategy).
///
/// A class: handed to `init(from:)` as `any Decoder` and copied into every
/// keyed container, it then costs one reference instead of a boxed struct
/// whose fields are all retained on each copy.
final class RecordRowDecoder: Decoder {
  /// The row decoded. A decoder a statement keeps for its record cursors
  /// (``RecordDecoderReuse/attach(to:)``) reads the live row of each cursor
  /// in turn.
  @exclusivity(unchecked) private(set) var row: Row
  let recordType: any FetchableRecord.Type
  let columnCache: ColumnLookupCache?
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

  init(
    row: Row, recordType: any FetchableRecord.Type, columnCache: ColumnLookupCache?,
    codingPath: [any CodingKey] = []
  ) {
    self.row = row
    unmanagedRow = Unmanaged.passUnretained(row)
    self.recordType = recordType
    self.columnCache = columnCache
    unmanagedColumnCache = columnCache.map { Unmanaged.passUnretained($0) }
    self.codingPath = codingPath
  }

  /// `columnCache`, for the per-column lookups: the strong reference above keeps
  /// it alive as long as this decoder, so reading it needs no retain.
  private let unmanagedColumnCache: Unmanaged<ColumnLookupCache>?
  /// `row`, for the per-column reads, which would otherwise retain and release
  /// the row around the SQLite calls of each column; `row` keeps it alive.
  @exclusivity(unchecked) private(set) var unmanagedRow: Unmanaged<Row>

  /// Decodes `row` from now on.
  func read(_ row: Row) {
    self.row = row
    unmanagedRow = Unmanaged.passUnretained(row)
  }

  /// What a decoder kept between cursors reads: no statement's row, so that
  /// the statement that keeps the decoder is not kept alive by it.
  static let detachedRow = Row()

  /// Whether a cursor reuses this decoder for each of its rows (its live row is
  /// the same object at each step): the keyed container is then kept too.
  @exclusivity(unchecked) var isReused = false
  /// The container of the last `container(keyedBy:)` call, kept by a reused
  /// decoder: whoever reuses the decoder calls `releaseCachedContainer()`.
  @exclusivity(unchecked) private var keptContainer = KeptKeyedContainer()

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    assert(keptContainer.isEmpty || isReused, "only a reused decoder keeps its container")
    return keptContainer.container(for: Key.self, keeping: isReused) {
      KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(decoder: self))
    }
  }

  /// Breaks the cycle between this decoder and its kept container, for good:
  /// a decoder a record kept (and calls again) no longer keeps containers, so
  /// nothing would break the cycle again.
  func releaseCachedContainer() {
    keptContainer.removeAll()
    isReused = false
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "a database row is not an array: \(row)"))
  }

  /// At the top of a record, the whole row (`decode(Model.self)` decodes
  /// another record from the same row, GRDB issue 1572; a plain value reads
  /// the first column). Below a key, the column of that key.
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    guard let key = codingPath.last else { return RowSingleValueDecodingContainer(decoder: self) }
    guard let index = row.index(forColumn: key.stringValue) else {
      throw RowDecodingError(
        kind: .columnNotFound(key.stringValue), column: key.stringValue, row: row.description,
        sql: row.statementSQL)
    }
    return ColumnDecoder(
      dbValue: row.databaseValue(atUncheckedIndex: index), column: row.columnNames[index],
      recordType: recordType, codingPath: codingPath)
  }

  /// Decodes a record from another row (a scope) or from this row.
  func decodeNested<T: Decodable>(_ type: T.Type, from row: Row, key: some CodingKey) throws -> T {
    if let record = T.self as? any FetchableRecord.Type {
      return try record.init(row: row) as! T
    }
    let nested = RecordRowDecoder(
      row: row, recordType: recordType, columnCache: nil, codingPath: codingPath + [key])
    return try T(from: nested)
  }

  /// The index of the column a key reads.
  @inline(__always)
  func columnIndex<Key: CodingKey>(forKey key: Key) -> Int? {
    let name = key.stringValue
    guard let cache = unmanagedColumnCache else { return resolveColumnIndex(forKey: name) }
    return cache._withUnsafeGuaranteedRef { $0.index(forName: name, resolve: resolveColumnIndex) }
  }

  private func resolveColumnIndex(forKey name: String) -> Int? {
    switch recordType.databaseColumnDecodingStrategy {
    case .useDefaultKeys:
      return row.index(forColumn: name)
    case let strategy:
      return row.columnNames.firstIndex { strategy.keyName(forColumn: $0) == name }
    }
  }
}

/// The single value container of a whole row.
struct RowSingleValueDecodingContainer: SingleValueDecodingContainer {
  let decoder: RecordRowDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  /// The first column: what a plain value reads.
  private func firstColumn() throws -> ColumnDecoder {
    let row = decoder.row
    guard row.count > 0 else {
      throw DecodingError.valueNotFound(
        Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "the row has no column"))
    }
    return ColumnDecoder(
      dbValue: row.databaseValue(atUncheckedIndex: 0), column: row.columnNames[0],
      recordType: decoder.recordType, codingPath: codingPath)
  }

  func decodeNil() -> Bool { (try? firstColumn().decodeNil()) ?? true }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if let record = T.self as? any FetchableRecord.Type {
      // A record reads the row its own way (FetchableRecord wins over Decodable).
      return try record.init(row: decoder.row) as! T
    }
    if T.self is any DatabaseValueConvertible.Type {
      return try firstColumn().decode(type)
    }
    return try T(
      from: RecordRowDecoder(
        row: decoder.row, recordType: decoder.recordType, columnCache: nil, codingPath: codingPath))
  }
}

/// Hands the same ``RecordRowDecoder`` out for each row of a cursor whose rows
/// are one live row object, so that decoding a row allocates nothing.
final class RecordDecoderReuse {
  let columnCache = ColumnLookupCache()
  /// The record type whose decoding this object speeds up: the default
  /// `init(row:)` of another type ignores it (see `RecordDecoderReuse.take`).
  let recordType: ObjectIdentifier
  /// True once the default `init(row:)` of the record type took this object:
  /// the record type has no `init(row:)` of its own.
  @exclusivity(unchecked) var isTakenByDefaultInitializer = false

  init(recordType: any FetchableRecord.Type) {
    self.recordType = ObjectIdentifier(recordType)
  }
  @exclusivity(unchecked) private var decoder: RecordRowDecoder?

  /// A decoder of `row`: the previous one if it decodes the same row object,
  /// or another row of the same layout (the rows a persistence method
  /// returns; see `Database.decodeReturnedRow`), whose columns are the ones
  /// `columnCache` recorded. Unmanaged, because this object keeps it alive
  /// until the next row: a record is decoded without a retain and a release
  /// of its decoder.
  @inline(__always)
  func decoder(for row: Row, recordType: any FetchableRecord.Type) -> Unmanaged<RecordRowDecoder> {
    assert(
      unmanagedDecoder?.toOpaque() == decoder.map { Unmanaged.passUnretained($0).toOpaque() },
      "the unretained decoder is the one the lease keeps")
    columnCache.startRow()
    // The same row object (a cursor's live row) has the same layout. The
    // decoder keeps the row it reads, and the row its layout: the layout
    // compared is alive.
    if let decoder = unmanagedDecoder,
      decoder._withUnsafeGuaranteedRef({ $0.unmanagedRow._withUnsafeGuaranteedRef { $0._layout.toOpaque() } })
        == row._layout.toOpaque()
    {
      // Second row and later: keep the keyed container from now on.
      decoder._withUnsafeGuaranteedRef {
        if $0.unmanagedRow.toOpaque() != Unmanaged.passUnretained(row).toOpaque() { $0.read(row) }
        $0.isReused = true
      }
      return decoder
    }
    decoder?.releaseCachedContainer()
    let fresh = RecordRowDecoder(row: row, recordType: recordType, columnCache: columnCache)
    decoder = fresh
    unmanagedDecoder = Unmanaged.passUnretained(fresh)
    return Unmanaged.passUnretained(fresh)
  }

  /// `decoder`, read without a retain.
  @exclusivity(unchecked) private var unmanagedDecoder: Unmanaged<RecordRowDecoder>?

  /// Points the decoder, and its kept keyed container, at the live row of a
  /// new cursor of the same statement, whose rows have the same columns: the
  /// column of each coding key stays what `columnCache` recorded.
  func attach(to row: Row) {
    decoder?.read(row)
  }

  /// Lets go of the row of a cursor that ended: a statement keeps this
  /// object, and a cursor's row keeps the cursor's statement alive.
  func detach() {
    decoder?.read(RecordRowDecoder.detachedRow)
  }

  /// Room for one record of the record type, uninitialized between rows; see
  /// `makeRecordSlot(of:)`.
  private var recordSlot: UnsafeMutableRawPointer?

  /// Room for one record of `type`, which lives as long as this object: the
  /// decoding of a Decodable record moves each record through it, from the
  /// record type to the type its decoding returns (the same type, which the
  /// compiler does not know).
  func makeRecordSlot<Record>(of type: Record.Type) -> UnsafeMutableRawPointer {
    assert(recordSlot == nil, "one slot per decoding")
    let slot = UnsafeMutableRawPointer.allocate(
      byteCount: Swift.max(MemoryLayout<Record>.size, 1), alignment: MemoryLayout<Record>.alignment)
    recordSlot = slot
    return slot
  }

  deinit {
    decoder?.releaseCachedContainer()
    recordSlot?.deallocate()
  }
}

struct RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: RecordRowDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }
  var row: Row { decoder.row }

  var allKeys: [Key] {
    row.columnNames.compactMap {
      Key(stringValue: decoder.recordType.databaseColumnDecodingStrategy.keyName(forColumn: $0))
    }
  }

  func contains(_ key: Key) -> Bool {
    decoder.columnIndex(forKey: key) != nil || row.scopesTree[key.stringValue] != nil
      || row.prefetchedRows[key.stringValue] != nil
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    if let index = decoder.columnIndex(forKey: key) { return row.isNull(atUncheckedIndex: index) }
    if let scope = row.scopesTree[key.stringValue] { return scope.isEmptyScope }
    return row.prefetchedRows[key.stringValue] == nil
  }

  /// Inlined in each decode method, where a call would save and restore the
  /// registers of the key's lookup for every column; the error is built out
  /// of line.
  @inline(__always)
  private func index(_ key: Key) throws -> Int {
    if let index = decoder.columnIndex(forKey: key) { return index }
    throw columnNotFound(key)
  }

  @inline(never)
  private func columnNotFound(_ key: Key) -> RowDecodingError {
    RowDecodingError(
      kind: .columnNotFound(key.stringValue), column: key.stringValue, row: row.description,
      sql: row.statementSQL)
  }

  @inline(__always)
  private func fast<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, _ key: Key)
    throws -> T
  {
    let index = try index(key)
    if let value = decoder.unmanagedRow._withUnsafeGuaranteedRef({ $0._fastValue(T.self, at: index) }) {
      return value
    }
    // NULL, or a value that does not convert: the error names them.
    return try row.decode(T.self, atIndex: index)
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try fast(type, key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try fast(type, key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try fast(type, key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try fast(type, key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try fast(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try fast(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try fast(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try fast(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try fast(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try fast(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try fast(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try fast(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try fast(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try fast(type, key) }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    if let index = decoder.columnIndex(forKey: key) { return try decodeValue(type, atIndex: index, key: key) }
    if let associated = try decodeAssociated(type, key: key) { return associated }
    if !(T.self is any DatabaseValueConvertible.Type) {
      // A record that is not a column nor an association decodes from the same
      // row: `struct BookInfo: Decodable { var book: Book; var author: Author }`.
      return try decoder.decodeNested(T.self, from: row, key: key)
    }
    return try decodeValue(type, atIndex: index(key), key: key)
  }

  /// Decodes an included association (scope) or prefetched rows, if the key names one.
  private func decodeAssociated<T: Decodable>(_ type: T.Type, key: Key) throws -> T? {
    if let scope = row.scopesTree[key.stringValue] {
      return try decoder.decodeNested(T.self, from: scope, key: key)
    }
    if let rows = row.prefetchedRows[key.stringValue] {
      let rowsDecoder = PrefetchedRowsDecoder(rows: rows, parent: decoder, codingPath: codingPath + [key])
      return try T(from: rowsDecoder)
    }
    return nil
  }

  // Missing columns and NULL both decode as nil.
  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type, key) }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type, key) }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type, key) }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type, key) }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type, key) }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type, key) }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type, key) }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type, key) }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    if let index = decoder.columnIndex(forKey: key) {
      if row.isNull(atUncheckedIndex: index) { return nil }
      return try decodeValue(type, atIndex: index, key: key)
    }
    if let scope = row.scopesTree[key.stringValue], scope.isEmptyScope { return nil }
    return try decodeAssociated(type, key: key)
  }

  @inline(__always)
  private func present<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, _ key: Key)
    throws
    -> T?
  {
    guard let index = decoder.columnIndex(forKey: key), !row.isNull(atUncheckedIndex: index) else {
      return nil
    }
    return try row.decode(T.self, atIndex: index)
  }

  /// Decodes any Decodable from a column: dates by the record's strategy,
  /// database values by their conversion, anything else from JSON text.
  private func decodeValue<T: Decodable>(_ type: T.Type, atIndex index: Int, key: Key) throws -> T {
    if T.self == Data.self {
      let dbValue = row.databaseValue(atUncheckedIndex: index)
      let strategy = decoder.recordType.databaseDataDecodingStrategy(for: row.columnNames[index])
      guard let data = strategy.decode(dbValue) else { throw row.mismatch(Data.self, atIndex: index) }
      return data as! T
    }
    if T.self == Date.self {
      let dbValue = row.databaseValue(atUncheckedIndex: index)
      let strategy = decoder.recordType.databaseDateDecodingStrategy(for: row.columnNames[index])
      guard let date = strategy.decode(dbValue) else { throw row.mismatch(Date.self, atIndex: index) }
      return date as! T
    }
    if let convertible = T.self as? any DatabaseValueConvertible.Type {
      let dbValue = row.databaseValue(atUncheckedIndex: index)
      guard let value = convertible.fromDatabaseValue(dbValue) else {
        throw row.mismatch(T.self, atIndex: index)
      }
      return value as! T
    }
    let dbValue = row.databaseValue(atUncheckedIndex: index)
    do {
      return try T(
        from: ColumnDecoder(
          dbValue: dbValue, column: row.columnNames[index], recordType: decoder.recordType,
          codingPath: codingPath + [key]))
    } catch is NeedsJSONContainer {
      // Nested Codable values (arrays, dictionaries, structs) are stored as JSON.
    } catch {
      throw RowDecodingError(
        kind: .valueMismatch(type: "\(T.self)", value: dbValue), column: row.columnNames[index],
        row: row.description, sql: row.statementSQL)
    }
    guard let data = Data.fromDatabaseValue(dbValue) else { throw row.mismatch(T.self, atIndex: index) }
    do {
      // The JSON decoder is chosen by coding key, as GRDB does.
      return try decoder.recordType.databaseJSONDecoder(for: key.stringValue).decode(T.self, from: data)
    } catch {
      throw RowDecodingError(
        kind: .valueMismatch(type: "\(T.self) (JSON: \(error))", value: dbValue),
        column: row.columnNames[index],
        row: row.description, sql: row.statementSQL)
    }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    throw DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: codingPath + [key], debugDescription: "nested containers are not read from database rows")
    )
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      DecodingError.Context(
        codingPath: codingPath + [key], debugDescription: "nested containers are not read from database rows")
    )
  }

  func superDecoder() throws -> any Decoder { decoder }
  func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

extension Row {
  /// True for the scope of an optional association that matched no row: all
  /// its values, and those of its own scopes, are NULL (GRDB's rule: the
  /// scope of a pivot selects no column, and its scopes say whether it is
  /// there).
  var isEmptyScope: Bool { !containsNonNullValue }
}

/// Decodes an array (or set) of records from prefetched rows.
struct PrefetchedRowsDecoder: Decoder {
  let rows: [Row]
  let parent: RecordRowDecoder
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { parent.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw DecodingError.typeMismatch(
      [String: Any].self,
      DecodingError.Context(codingPath: codingPath, debugDescription: "prefetched rows decode as an array"))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    PrefetchedRowsContainer(rows: rows, parent: parent, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw DecodingError.typeMismatch(
      Any.self,
      DecodingError.Context(codingPath: codingPath, debugDescription: "prefetched rows decode as an array"))
  }
}

struct PrefetchedRowsContainer: UnkeyedDecodingContainer {
  let rows: [Row]
  let parent: RecordRowDecoder
  var codingPath: [any CodingKey]
  var currentIndex = 0
  var count: Int? { rows.count }
  var isAtEnd: Bool { currentIndex >= rows.count }

  init(rows: [Row], parent: RecordRowDecoder, codingPath: [any CodingKey]) {
    self.rows = rows
    self.parent = parent
    self.codingPath = codingPath
  }

  mutating func decodeNil() throws -> Bool { false }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more prefetched rows"))
    }
    let row = rows[currentIndex]
    currentIndex += 1
    if let record = T.self as? any FetchableRecord.Type {
      return try record.init(row: row) as! T
    }
    if T.self is any DatabaseValueConvertible.Type {
      // A single selected column decodes as values: `var bookTitles: [String]`.
      return try row.decode(atIndex: 0, as: T.self)
    }
    return try T(from: RecordRowDecoder(row: row, recordType: parent.recordType, columnCache: nil))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let row = rows[currentIndex]
    currentIndex += 1
    return try RecordRowDecoder(row: row, recordType: parent.recordType, columnCache: nil).container(
      keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      DecodingError.Context(codingPath: codingPath, debugDescription: "a prefetched row is not an array"))
  }

  mutating func superDecoder() throws -> any Decoder { parent }
}

extension Row {
  /// The value at `index` as a Decodable that is also a database value.
  func decode<T: Decodable>(atIndex index: Int, as type: T.Type) throws -> T {
    let index = try checkedIndex(index)
    guard let convertible = T.self as? any DatabaseValueConvertible.Type,
      let value = convertible.fromDatabaseValue(databaseValue(atUncheckedIndex: index))
    else { throw mismatch(T.self, atIndex: index) }
    return value as! T
  }
}
