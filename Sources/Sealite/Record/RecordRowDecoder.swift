import Foundation

/// The Decoder that builds a Decodable record from a row: each key reads the
/// column of the same name (after the record's column strategy).
struct RecordRowDecoder: Decoder {
  let row: Row
  let recordType: any FetchableRecord.Type
  let columnCache: ColumnLookupCache?
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

  init(row: Row, recordType: any FetchableRecord.Type, columnCache: ColumnLookupCache?) {
    self.row = row
    self.recordType = recordType
    self.columnCache = columnCache
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.typeMismatch(
      [Any].self,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "a database row is not an array: \(row)"))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw DecodingError.typeMismatch(
      Any.self,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "a database row is not a single value: \(row)"))
  }

  /// The index of the column a key reads.
  func columnIndex(forKey key: some CodingKey) -> Int? {
    let name = key.stringValue
    let resolve = { () -> Int? in
      switch recordType.databaseColumnDecodingStrategy {
      case .useDefaultKeys:
        return row.index(forColumn: name)
      case let strategy:
        return row.columnNames.firstIndex { strategy.keyName(forColumn: $0) == name }
      }
    }
    if let columnCache { return columnCache.index(forKey: name, resolve: resolve) }
    return resolve()
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
    decoder.columnIndex(forKey: key) != nil
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let index = decoder.columnIndex(forKey: key) else { return true }
    return row.isNull(atUncheckedIndex: index)
  }

  private func index(_ key: Key) throws -> Int {
    guard let index = decoder.columnIndex(forKey: key) else {
      throw RowDecodingError(
        kind: .columnNotFound(key.stringValue), column: key.stringValue, row: row.description,
        sql: row.statementSQL)
    }
    return index
  }

  @inline(__always)
  private func fast<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, _ key: Key)
    throws -> T
  {
    try row.decode(T.self, atIndex: index(key))
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
    try decodeValue(type, atIndex: index(key), key: key)
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
    guard let index = decoder.columnIndex(forKey: key), !row.isNull(atUncheckedIndex: index) else {
      return nil
    }
    return try decodeValue(type, atIndex: index, key: key)
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
    if T.self == Date.self {
      let dbValue = row.databaseValue(atUncheckedIndex: index)
      guard let date = decoder.recordType.databaseDateDecodingStrategy.decode(dbValue) else {
        throw row.mismatch(Date.self, atIndex: index)
      }
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
      return try T(from: DatabaseValueDecoder(dbValue: dbValue, codingPath: codingPath + [key]))
    } catch is NeedsJSONContainer {
      // Nested Codable values (arrays, dictionaries, structs) are stored as JSON.
    } catch {
      throw RowDecodingError(
        kind: .valueMismatch(type: "\(T.self)", value: dbValue), column: row.columnNames[index],
        row: row.description, sql: row.statementSQL)
    }
    guard let data = Data.fromDatabaseValue(dbValue) else { throw row.mismatch(T.self, atIndex: index) }
    do {
      return try decoder.recordType.databaseJSONDecoder(for: row.columnNames[index]).decode(
        T.self, from: data)
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
