import Foundation

/// The Encoder that writes an Encodable record into a ``PersistenceContainer``.
final class RecordEncoder: Encoder {
  let recordType: any EncodableRecord.Type
  /// The columns written so far. Unchecked exclusivity: one encoding uses the
  /// encoder at a time, and a runtime access check on each column would cost
  /// more than writing it.
  @exclusivity(unchecked) var container: PersistenceContainer
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }

  /// An encoder that adds the record's columns to `container`.
  init(recordType: any EncodableRecord.Type, container: PersistenceContainer) {
    self.recordType = recordType
    self.container = container
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RecordKeyedEncodingContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ThrowingUnkeyedEncodingContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    ThrowingSingleValueEncodingContainer(codingPath: codingPath)
  }

  func column(for key: some CodingKey) -> String {
    recordType.databaseColumnEncodingStrategy.columnName(for: key)
  }

  func set(_ value: DatabaseValue, forKey key: some CodingKey) {
    container.set(value, forColumn: column(for: key))
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
    if let date = value as? Date {
      encoder.set(encoder.recordType.databaseDateEncodingStrategy.encode(date), forKey: key)
    } else if let uuid = value as? UUID {
      encoder.set(encoder.recordType.databaseUUIDEncodingStrategy.encode(uuid), forKey: key)
    } else if let checked = value as? any CheckedDatabaseValueConvertible {
      do {
        encoder.set(try checked.checkedDatabaseValue(), forKey: key)
      } catch let error as DatabaseError {
        throw DatabaseError.misuse("column \(encoder.column(for: key)): \(error.message ?? "out of range")")
      }
    } else if let convertible = value as? any DatabaseValueConvertible {
      encoder.set(convertible.databaseValue, forKey: key)
    } else if let single = try DatabaseValueEncoder.encode(value) {
      encoder.set(single, forKey: key)
    } else {
      // Nested Codable values (arrays, dictionaries, structs) are stored as JSON.
      let column = encoder.column(for: key)
      let data = try encoder.recordType.databaseJSONEncoder(for: column).encode(value)
      encoder.set(String(decoding: data, as: UTF8.self).databaseValue, forKey: key)
    }
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
