import Foundation

// A Codable type that adopts DatabaseValueConvertible gets its conversions
// from Codable, as in GRDB: a value that encodes as one single value (a
// wrapper of a string, of a number, of another convertible value) is stored
// as that value; a value that needs a keyed or unkeyed container is stored as
// JSON text, written by `databaseJSONEncoder()` and read by
// `databaseJSONDecoder()`.

extension DatabaseValueConvertible where Self: Encodable {
  /// The single value the value encodes to, or else its JSON text, written by
  /// ``DatabaseValueConvertible/databaseJSONEncoder()``.
  ///
  /// Stops the program if the JSON encoder throws (a NaN with the default
  /// encoder): `databaseValue` can not throw, and GRDB stops too.
  public var databaseValue: DatabaseValue {
    let encoder = SingleDatabaseValueEncoder()
    do {
      try encode(to: encoder)
      if !encoder.needsJSON { return encoder.value ?? .null }
    } catch  where encoder.needsJSON {
      // A nested container refused the value: JSON follows.
    } catch {
      preconditionFailure("\(Self.self) can not be encoded as a database value: \(error)")
    }
    do {
      let json = try Self.databaseJSONEncoder().encode(self)
      // Stored as text, readable in the database; SQLite reads it back as
      // bytes for the decoder.
      return DatabaseValue(storage: .string(String(decoding: json, as: UTF8.self)))
    } catch {
      preconditionFailure("\(Self.self) can not be encoded as JSON: \(error)")
    }
  }
}

extension DatabaseValueConvertible where Self: Decodable {
  /// Decodes the value from a single database value, or else from JSON, read
  /// by ``DatabaseValueConvertible/databaseJSONDecoder()``; nil if neither
  /// decodes.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    do {
      return try Self(from: SingleDatabaseValueDecoder(dbValue: dbValue))
    } catch is NeedsJSONDecoding {
      guard let data = Data.fromDatabaseValue(dbValue) else { return nil }
      return try? databaseJSONDecoder().decode(Self.self, from: data)
    } catch {
      return nil
    }
  }
}

// A Codable enum with a raw value keeps the conversions of its raw value:
// both extensions above apply to it, and these more specific ones win.

extension DatabaseValueConvertible
where Self: Encodable & RawRepresentable, RawValue: DatabaseValueConvertible {
  /// The database value of the raw value.
  public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

extension DatabaseValueConvertible
where Self: Decodable & RawRepresentable, RawValue: DatabaseValueConvertible {
  /// The value whose raw value converts from `dbValue`, if any.
  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
  }
}

/// The encoder of one value into one database value. A value that asks for a
/// keyed or unkeyed container sets `needsJSON`: the containers it gets refuse
/// every value, and the caller encodes JSON instead.
private final class SingleDatabaseValueEncoder: Encoder, SingleValueEncodingContainer {
  var value: DatabaseValue?
  var needsJSON = false
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    needsJSON = true
    return KeyedEncodingContainer(RefusingKeyedEncodingContainer<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    needsJSON = true
    return RefusingUnkeyedEncodingContainer()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { value = .null }

  func encode<T: Encodable>(_ value: T) throws {
    // A convertible value converts its own way (a Date as text, not as the
    // Double Codable makes of it).
    if let convertible = value as? any DatabaseValueConvertible {
      self.value = convertible.databaseValue
    } else {
      try value.encode(to: self)
    }
  }
}

/// Thrown by the containers of a value that needs JSON.
private struct NeedsJSONEncoding: Error {}

private struct RefusingKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  func encodeNil(forKey key: Key) throws { throw NeedsJSONEncoding() }
  func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NeedsJSONEncoding() }
  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>())
  }
  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    RefusingUnkeyedEncodingContainer()
  }
  func superEncoder() -> any Encoder { SingleDatabaseValueEncoder() }
  func superEncoder(forKey key: Key) -> any Encoder { SingleDatabaseValueEncoder() }
}

private struct RefusingUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }
  func encodeNil() throws { throw NeedsJSONEncoding() }
  func encode<T: Encodable>(_ value: T) throws { throw NeedsJSONEncoding() }
  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>())
  }
  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
  func superEncoder() -> any Encoder { SingleDatabaseValueEncoder() }
}

/// Thrown when the decoded value asks for a keyed or unkeyed container: the
/// caller decodes JSON instead.
private struct NeedsJSONDecoding: Error {}

/// The decoder of one value from one database value.
private struct SingleDatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
  let dbValue: DatabaseValue
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw NeedsJSONDecoding()
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw NeedsJSONDecoding()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { dbValue.isNull }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    // A convertible value converts its own way (a Date from text).
    if let convertible = T.self as? any DatabaseValueConvertible.Type {
      guard let value = convertible.fromDatabaseValue(dbValue) else {
        throw DecodingError.typeMismatch(
          T.self,
          DecodingError.Context(codingPath: [], debugDescription: "can not read \(T.self) from \(dbValue)"))
      }
      return value as! T
    }
    return try T(from: self)
  }
}
