import Foundation

// A key of a record type is written as the record type writes its primary key
// column: a record that stores its UUIDs as text (`.uppercaseString`) is found
// by `filter(id:)`, `fetchOne(_:id:)` or `deleteOne(_:id:)` by that text, not
// by the UUID's 16 bytes. Only Date, UUID and Data have such strategies; other
// keys are their own `databaseValue`, and cost only a type comparison.

/// A record type that writes keys of some types in its own way.
/// ``EncodableRecord`` adopts it with its Date, UUID and Data strategies
/// (``EncodableRecord/databaseUUIDEncodingStrategy(for:)`` and its siblings);
/// other types need not adopt it.
public protocol _DatabasePrimaryKeyEncoder {
  /// The value `key` is stored as in the primary key column `column`, or nil
  /// if it is stored as its `databaseValue`.
  static func _primaryKeyValue(_ key: any DatabaseValueConvertible, column: String) throws -> DatabaseValue?
}

enum PrimaryKeyEncoding {
  /// A key of a type with an encoding strategy, kept in a request.
  enum Key: Sendable {
    case uuid(UUID)
    case date(Date)
    case data(Data)

    /// The key, if it is a UUID, a Date or Data (not NULL).
    init?(_ key: any DatabaseValueConvertible) {
      switch key {
      case let uuid as UUID: self = .uuid(uuid)
      case let date as Date: self = .date(date)
      case let data as Data: self = .data(data)
      default: return nil
      }
    }

    var value: any DatabaseValueConvertible {
      switch self {
      case .uuid(let uuid): uuid
      case .date(let date): date
      case .data(let data): data
      }
    }
  }

  /// The type that writes keys of `keyType` for `recordType` in its own
  /// way, if any.
  static func encoder(_ recordType: Any.Type, _ keyType: Any.Type) -> (any _DatabasePrimaryKeyEncoder.Type)? {
    guard
      keyType == UUID.self || keyType == UUID?.self || keyType == Date.self || keyType == Date?.self
        || keyType == Data.self || keyType == Data?.self
    else { return nil }
    return recordType as? any _DatabasePrimaryKeyEncoder.Type
  }

  /// `keys` as they are stored in the single-column primary key (or rowid)
  /// of `tableName`, NULLs removed.
  static func values(
    _ db: Database, _ keys: [any DatabaseValueConvertible], tableName: String,
    encoder: any _DatabasePrimaryKeyEncoder.Type
  ) throws -> [DatabaseValue] {
    let column = try db.recordPrimaryKey(tableName).singleColumn(of: tableName)
    return try keys.compactMap { key in
      let value = try encoder._primaryKeyValue(key, column: column) ?? key.databaseValue
      return value.isNull ? nil : value
    }
  }

  /// `key` as it is stored in the primary key of `tableName`, for `recordType`.
  static func value<Key: DatabaseValueConvertible>(
    _ db: Database, _ key: Key, recordType: Any.Type, tableName: String
  ) throws -> DatabaseValue {
    guard let encoder = encoder(recordType, Key.self) else { return key.databaseValue }
    return try values(db, [key], tableName: tableName, encoder: encoder).first ?? .null
  }
}

extension QueryInterfaceRequest {
  /// True if keys of `Key` are written in the record type's own way.
  @usableFromInline
  static func _encodesKeys<Key>(of keyType: Key.Type) -> Bool {
    PrimaryKeyEncoding.encoder(RowDecoder.self, Key.self) != nil
  }

  /// The request restricted to the rows whose primary key is one of `keys`,
  /// written as the record type writes them when the request runs (the
  /// strategy may depend on the column's name).
  @usableFromInline
  consuming func filteredByEncodedPrimaryKeys(_ keys: [any DatabaseValueConvertible]) -> Self {
    guard let first = keys.first, let encoder = PrimaryKeyEncoding.encoder(RowDecoder.self, type(of: first))
    else {
      return none()
    }
    // Kept until the request runs, as values of the three types written in
    // the record's own way (the only ones that reach here).
    let kept = keys.compactMap(PrimaryKeyEncoding.Key.init)
    if kept.isEmpty { return none() }
    let tableName = databaseTableName
    var request = self
    request.relation.filters.append(
      .deferred { db in
        let values = try PrimaryKeyEncoding.values(
          db, kept.map(\.value), tableName: tableName, encoder: encoder)
        return try SQLFilter.primaryKeyCondition(db, tableName: tableName, values: values)
      })
    return request
  }
}
