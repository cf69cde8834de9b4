import Foundation

// Codable values that are not DatabaseValueConvertible, but encode as a single
// value (a `RawRepresentable` enum, a wrapper around a String, …), are stored
// as that value. Only values that need a keyed or unkeyed container go to JSON.

/// Thrown inside single-value coding when the value needs a container: the
/// caller then uses JSON.
struct NeedsJSONContainer: Error {}

/// Encodes one value into a ``DatabaseValue``.
final class DatabaseValueEncoder: Encoder, SingleValueEncodingContainer {
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]
  var value: DatabaseValue?
  var needsJSON = false

  static func encode(_ value: some Encodable) throws -> DatabaseValue? {
    let encoder = DatabaseValueEncoder()
    do {
      try value.encode(to: encoder)
    } catch {
      // A value that asked for a container fails in it: it goes to JSON.
      if encoder.needsJSON || error is NeedsJSONContainer { return nil }
      throw error
    }
    return encoder.needsJSON ? nil : encoder.value
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    needsJSON = true
    return KeyedEncodingContainer(ThrowingKeyedEncodingContainer<Key>(codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    needsJSON = true
    return ThrowingUnkeyedEncodingContainer(codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { value = .null }
  func encode(_ value: Bool) throws { self.value = value.databaseValue }
  func encode(_ value: String) throws { self.value = value.databaseValue }
  func encode(_ value: Double) throws { self.value = value.databaseValue }
  func encode(_ value: Float) throws { self.value = value.databaseValue }
  func encode(_ value: Int) throws { self.value = value.databaseValue }
  func encode(_ value: Int8) throws { self.value = value.databaseValue }
  func encode(_ value: Int16) throws { self.value = value.databaseValue }
  func encode(_ value: Int32) throws { self.value = value.databaseValue }
  func encode(_ value: Int64) throws { self.value = value.databaseValue }
  func encode(_ value: UInt) throws { self.value = try value.checkedDatabaseValue() }
  func encode(_ value: UInt8) throws { self.value = value.databaseValue }
  func encode(_ value: UInt16) throws { self.value = value.databaseValue }
  func encode(_ value: UInt32) throws { self.value = value.databaseValue }
  func encode(_ value: UInt64) throws { self.value = try value.checkedDatabaseValue() }
  func encode<T: Encodable>(_ value: T) throws {
    if let convertible = value as? any DatabaseValueConvertible {
      self.value = convertible.databaseValue
    } else {
      try value.encode(to: self)
    }
  }
}

/// Decodes one value from a ``DatabaseValue``.
struct DatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
  let dbValue: DatabaseValue
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw NeedsJSONContainer()
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw NeedsJSONContainer()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { dbValue.isNull }

  private func convert<T: DatabaseValueConvertible>(_ type: T.Type) throws -> T {
    guard let value = T.fromDatabaseValue(dbValue) else {
      throw DecodingError.typeMismatch(
        T.self,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "can not read \(T.self) from \(dbValue)"))
    }
    return value
  }

  func decode(_ type: Bool.Type) throws -> Bool { try convert(type) }
  func decode(_ type: String.Type) throws -> String { try convert(type) }
  func decode(_ type: Double.Type) throws -> Double { try convert(type) }
  func decode(_ type: Float.Type) throws -> Float { try convert(type) }
  func decode(_ type: Int.Type) throws -> Int { try convert(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try convert(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try convert(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try convert(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try convert(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try convert(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if let convertible = T.self as? any DatabaseValueConvertible.Type {
      guard let value = convertible.fromDatabaseValue(dbValue) else {
        throw DecodingError.typeMismatch(
          T.self,
          DecodingError.Context(
            codingPath: codingPath, debugDescription: "can not read \(T.self) from \(dbValue)"))
      }
      return value as! T
    }
    return try T(from: self)
  }
}
