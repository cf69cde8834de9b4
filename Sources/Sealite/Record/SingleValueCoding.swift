import Foundation

// Codable values that are not DatabaseValueConvertible, but encode as a single
// value (a `RawRepresentable` enum, a wrapper around a String, …), are stored
// as that value. Only values that need a keyed or unkeyed container go to JSON.

/// Thrown inside single-value coding when the value needs a container: the
/// caller then uses JSON. (The encoder of a property is `ColumnEncoder`.)
struct NeedsJSONContainer: Error {}

/// Decodes one property from its column, for values that decode themselves
/// through a single value container. Its user info is the record's, and data
/// and dates follow the column's strategies, as in the record's own container.
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
  let dbValue: DatabaseValue
  let column: String
  let recordType: any FetchableRecord.Type
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { recordType.databaseDecodingUserInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw NeedsJSONContainer()
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw NeedsJSONContainer()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { dbValue.isNull }

  private func mismatch(_ type: Any.Type) -> DecodingError {
    DecodingError.typeMismatch(
      type,
      DecodingError.Context(codingPath: codingPath, debugDescription: "can not read \(type) from \(dbValue)"))
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == Data.self {
      guard let data = recordType.databaseDataDecodingStrategy(for: column).decode(dbValue) else {
        throw mismatch(T.self)
      }
      return data as! T
    }
    if T.self == Date.self {
      guard let date = recordType.databaseDateDecodingStrategy(for: column).decode(dbValue) else {
        throw mismatch(T.self)
      }
      return date as! T
    }
    if let convertible = T.self as? any DatabaseValueConvertible.Type {
      guard let value = convertible.fromDatabaseValue(dbValue) else { throw mismatch(T.self) }
      return value as! T
    }
    return try T(from: self)
  }
}
