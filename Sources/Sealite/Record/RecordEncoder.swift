import Foundation

/// The Encoder that writes an Encodable record into a ``PersistenceContainer``.
final class RecordEncoder: Encoder {
  let recordType: any EncodableRecord.Type
  /// The record type's column strategy, read once per record, not per column.
  let columnStrategy: DatabaseColumnEncodingStrategy
  /// The columns written so far. Unchecked exclusivity: one encoding uses the
  /// encoder at a time, and a runtime access check on each column would cost
  /// more than writing it.
  @exclusivity(unchecked) var container: PersistenceContainer
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }
  /// The container of the last `container(keyedBy:)` call, kept from one
  /// record to the next (each thread keeps its encoder: see
  /// RecordEncoder+Reuse.swift, and `releaseCachedContainer()`).
  @exclusivity(unchecked) private var keptContainer = KeptKeyedContainer()
  /// The words of the columns that records of this type wrote, in order,
  /// each new to its container when written.
  @exclusivity(unchecked) private var recordedColumns: [StringBits] = []
  /// The same columns' names: a record that writes all of them, in order,
  /// gets this array as its container's columns, shared instead of built.
  @exclusivity(unchecked) private var recordedNames: [String] = []
  /// Storage for the values of the next record, emptied: the values array of
  /// a record whose write is done (``recycle(_:)``).
  @exclusivity(unchecked) var spareValues: [DatabaseValue] = []
  /// How many columns of the record being encoded are the first recorded
  /// ones, written in order; -1 once it wrote another.
  @exclusivity(unchecked) private var recordedPrefix = 0
  /// True while the record being encoded records columns of its own.
  @exclusivity(unchecked) private var isRecording = false
  /// True while the encoder kept in the thread's slot encodes a record
  /// (see RecordEncoder+Reuse.swift).
  @exclusivity(unchecked) var isLent = false

  /// An encoder that adds the record's columns to `container`.
  init(recordType: any EncodableRecord.Type, container: PersistenceContainer) {
    self.recordType = recordType
    self.columnStrategy = recordType.databaseColumnEncodingStrategy
    self.container = container
    recordedPrefix = container.columns.isEmpty ? 0 : -1
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    keptContainer.container(for: Key.self, keeping: true) {
      KeyedEncodingContainer(RecordKeyedEncodingContainer<Key>(encoder: self))
    }
  }

  /// Breaks the cycle between this encoder and its kept container.
  func releaseCachedContainer() {
    keptContainer.removeAll()
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ThrowingUnkeyedEncodingContainer(codingPath: codingPath)
  }

  /// A whole record encoded through a single value: the value's own columns
  /// (`struct Wrapper: Encodable { var model: Model … }` that encodes `model`
  /// this way writes the columns of `model`).
  func singleValueContainer() -> any SingleValueEncodingContainer {
    RecordSingleValueEncodingContainer(encoder: self)
  }

  /// The column of `key`, inlined in each encode method (see
  /// `DatabaseColumnEncodingStrategy.columnName(for:)`).
  @inline(__always)
  func column(for key: some CodingKey) -> String {
    columnStrategy.columnName(for: key)
  }

  func set(_ value: DatabaseValue, forKey key: some CodingKey) {
    let column = column(for: key)
    let position = container.values.count
    // The same column as the last record wrote at this position, after the
    // same columns: it was new then, so it is new now. No search of the
    // columns already written for one of the same name, and its name is
    // written with the others, at once, when the container is read.
    if _fastPath(
      position == recordedPrefix && position < recordedColumns.count
        && recordedColumns[position] == column.bits)
    {
      container.appendValueOfPendingColumn(value, expecting: recordedColumns.count)
      recordedPrefix += 1
      return
    }
    set(value, forNewColumn: column, at: position)
  }

  /// The rest of ``set(_:forKey:)``, out of line: the records of a type
  /// after the first one run only the lines above, and their loop keeps
  /// fewer lines of code in the instruction cache.
  @inline(never)
  private func set(_ value: DatabaseValue, forNewColumn column: String, at position: Int) {
    writePendingColumns()
    container.set(value, forColumn: column)
    if position == recordedPrefix, position == recordedColumns.count, container.columns.count > position {
      recordedColumns.append(column.bits)
      recordedNames.append(column)
      recordedPrefix += 1
      isRecording = true
    } else {
      recordedPrefix = -1
    }
  }

  /// Writes the names of the columns whose values `set` appended alone: the
  /// first recorded ones. All of them are the recorded array itself, shared.
  /// Called before anything reads the container's columns.
  func writePendingColumns() {
    let pending = container.values.count
    guard container.columns.count < pending else { return }
    container.setPendingColumns(
      pending == recordedNames.count ? recordedNames : Array(recordedNames[..<pending]))
  }

  /// Gives a record that recorded columns, and wrote nothing else, the
  /// recorded array itself as its columns: the first record of a type then
  /// shares its columns with the next ones, and the caches keyed by a
  /// record's columns (its INSERT, UPDATE and upsert statements) find the
  /// next records' columns equal to their key by storage, without comparing
  /// names.
  func shareRecordedColumns() {
    guard isRecording else { return }
    isRecording = false
    guard recordedPrefix == recordedNames.count, container.columns.count == recordedPrefix else { return }
    container.setPendingColumns(recordedNames, replacing: true)
  }

  /// Starts a record in `container`: the columns recorded from the last
  /// record apply while it writes the same ones, from an empty container.
  func start(with container: PersistenceContainer) {
    // The encoder's own container is empty (`giveBack()` took it): an empty
    // one is not assigned over it, which would retain its arrays and release
    // the others, at every record.
    if !container.isBlank { self.container = container }
    self.container.reuseStorage(of: &spareValues)
    recordedPrefix = container.columns.isEmpty ? 0 : -1
    isRecording = false
  }

  /// Writes `value` into the column of `key`: data, dates and UUIDs by the
  /// column's strategies, database values as themselves, values that encode
  /// a single value as that value, and anything else as JSON text.
  func encode<T: Encodable>(_ value: T, forKey key: some CodingKey) throws {
    if let data = value as? Data {
      set(try recordType.databaseDataEncodingStrategy(for: column(for: key)).encode(data), forKey: key)
    } else if let date = value as? Date {
      set(recordType.databaseDateEncodingStrategy(for: column(for: key)).encode(date), forKey: key)
    } else if let uuid = value as? UUID {
      set(recordType.databaseUUIDEncodingStrategy(for: column(for: key)).encode(uuid), forKey: key)
    } else if let checked = value as? any CheckedDatabaseValueConvertible {
      do {
        set(try checked.checkedDatabaseValue(), forKey: key)
      } catch let error as DatabaseError {
        throw DatabaseError.misuse("column \(column(for: key)): \(error.message ?? "out of range")")
      }
    } else if let convertible = value as? any DatabaseValueConvertible {
      set(convertible.databaseValue, forKey: key)
    } else {
      let columnEncoder = ColumnEncoder(recordEncoder: self, key: key)
      do {
        try value.encode(to: columnEncoder)
        // An empty array or struct asks for a container, and writes nothing in it.
        if columnEncoder.needsJSON { try encodeJSON(value, forKey: key) }
      } catch  where columnEncoder.needsJSON || error is NeedsJSONContainer {
        // Nested Codable values (arrays, dictionaries, structs) are stored as JSON.
        try encodeJSON(value, forKey: key)
      }
    }
  }

  private func encodeJSON<T: Encodable>(_ value: T, forKey key: some CodingKey) throws {
    // The JSON encoder is chosen by coding key, as GRDB does.
    let data = try recordType.databaseJSONEncoder(for: key.stringValue).encode(value)
    set(String(decoding: data, as: UTF8.self).databaseValue, forKey: key)
  }
}

/// The single value container of a whole record.
struct RecordSingleValueEncodingContainer: SingleValueEncodingContainer {
  let encoder: RecordEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  func encodeNil() throws { throw notAColumn() }

  func encode<T: Encodable>(_ value: T) throws {
    if let record = value as? any EncodableRecord {
      // A record writes its columns its own way (EncodableRecord wins over Encodable).
      encoder.writePendingColumns()
      try record.encode(to: &encoder.container)
    } else if value is any DatabaseValueConvertible {
      // A lone value has no column to go in.
      throw notAColumn()
    } else {
      try value.encode(to: encoder)
    }
  }

  private func notAColumn() -> EncodingError {
    EncodingError.invalidValue(
      Any?.none as Any,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: "a single value can not be encoded as a database row, which needs columns"))
  }
}

/// The encoder of one property, for values that encode themselves through a
/// single value container (an enum with a raw value, a wrapper of a string…):
/// the value goes to the property's column. A value that asks for a keyed or
/// unkeyed container is encoded as JSON instead.
final class ColumnEncoder<Key: CodingKey>: Encoder, SingleValueEncodingContainer {
  let recordEncoder: RecordEncoder
  let key: Key
  var needsJSON = false
  var codingPath: [any CodingKey] { recordEncoder.codingPath + [key] }
  var userInfo: [CodingUserInfoKey: Any] { recordEncoder.userInfo }

  init(recordEncoder: RecordEncoder, key: Key) {
    self.recordEncoder = recordEncoder
    self.key = key
  }

  func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    needsJSON = true
    return KeyedEncodingContainer(ThrowingKeyedEncodingContainer<NestedKey>(codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    needsJSON = true
    return ThrowingUnkeyedEncodingContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { recordEncoder.set(.null, forKey: key) }

  func encode<T: Encodable>(_ value: T) throws {
    try recordEncoder.encode(value, forKey: key)
  }
}

struct RecordKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: RecordEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  func encodeNil(forKey key: Key) throws { encoder.set(.null, forKey: key) }
  func encode(_ value: Bool, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: String, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Double, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Float, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Int, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Int8, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Int16, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Int32, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: Int64, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: UInt, forKey key: Key) throws { try encodeChecked(value, key) }
  func encode(_ value: UInt8, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: UInt16, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: UInt32, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
  func encode(_ value: UInt64, forKey key: Key) throws { try encodeChecked(value, key) }

  private func encodeChecked(_ value: some DatabaseInteger, _ key: Key) throws {
    do {
      encoder.set(try value.checkedDatabaseValue(), forKey: key)
    } catch let error as DatabaseError {
      throw DatabaseError.misuse("column \(encoder.column(for: key)): \(error.message ?? "out of range")")
    }
  }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encoder.encode(value, forKey: key)
  }

  // Synthesized encoding skips nil optionals; a record must write NULL so that
  // an update clears the column.
  func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
  func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

  private func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(ThrowingKeyedEncodingContainer<NestedKey>(codingPath: codingPath + [key]))
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ThrowingUnkeyedEncodingContainer(codingPath: codingPath + [key])
  }

  func superEncoder() -> any Encoder { encoder }
  func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// A record is a flat list of columns: nested containers are refused with a
/// clear error (nested values are stored as JSON through `encode(_:forKey:)`).
private func unsupported(_ codingPath: [any CodingKey]) -> EncodingError {
  EncodingError.invalidValue(
    codingPath,
    EncodingError.Context(
      codingPath: codingPath,
      debugDescription: "a database record encodes its columns with a keyed container only"))
}

struct ThrowingKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let codingPath: [any CodingKey]
  func encodeNil(forKey key: Key) throws { throw unsupported(codingPath) }
  func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw unsupported(codingPath) }
  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(ThrowingKeyedEncodingContainer<NestedKey>(codingPath: codingPath))
  }
  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ThrowingUnkeyedEncodingContainer(codingPath: codingPath)
  }
  func superEncoder() -> any Encoder { ThrowingEncoder(codingPath: codingPath) }
  func superEncoder(forKey key: Key) -> any Encoder { ThrowingEncoder(codingPath: codingPath) }
}

struct ThrowingUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let codingPath: [any CodingKey]
  var count: Int { 0 }
  func encodeNil() throws { throw unsupported(codingPath) }
  func encode<T: Encodable>(_ value: T) throws { throw unsupported(codingPath) }
  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
    NestedKey
  > {
    KeyedEncodingContainer(ThrowingKeyedEncodingContainer<NestedKey>(codingPath: codingPath))
  }
  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
  func superEncoder() -> any Encoder { ThrowingEncoder(codingPath: codingPath) }
}

struct ThrowingSingleValueEncodingContainer: SingleValueEncodingContainer {
  let codingPath: [any CodingKey]
  func encodeNil() throws { throw unsupported(codingPath) }
  func encode<T: Encodable>(_ value: T) throws { throw unsupported(codingPath) }
}

struct ThrowingEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(ThrowingKeyedEncodingContainer<Key>(codingPath: codingPath))
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ThrowingUnkeyedEncodingContainer(codingPath: codingPath)
  }
  func singleValueContainer() -> any SingleValueEncodingContainer {
    ThrowingSingleValueEncodingContainer(codingPath: codingPath)
  }
}
