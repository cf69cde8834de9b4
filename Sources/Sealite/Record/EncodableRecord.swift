import Foundation

/// A type that can write itself into database columns.
///
/// Encodable types get `encode(to:)` for free: each coding key writes the
/// column of the same name (see ``databaseColumnEncodingStrategy``); nested
/// Codable values are stored as JSON text, which works on every SQLite.
public protocol EncodableRecord: _DatabasePrimaryKeyEncoder {
  /// Writes the record's columns.
  func encode(to container: inout PersistenceContainer) throws

  /// User info given to the encoder of Encodable records, and to the JSON
  /// encoder of their nested values (through the default
  /// ``databaseJSONEncoder(for:)``).
  static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

  /// The JSON encoder of nested Codable values stored in the column of the
  /// coding key `column`.
  static func databaseJSONEncoder(for column: String) -> JSONEncoder

  /// How `Data` values are written in `column`. Default: blobs.
  static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

  /// How dates are written in `column`. Default: `yyyy-MM-dd HH:mm:ss.SSS` UTC text.
  static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

  /// How UUIDs are written in `column`. Default: 16-byte blobs.
  static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

  /// How coding keys map to columns. Default: same name.
  static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
  /// No user info.
  public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

  /// A JSON encoder with base64 data, dates in milliseconds since 1970,
  /// sorted keys, and the record's ``databaseEncodingUserInfo``.
  public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dataEncodingStrategy = .base64
    encoder.dateEncodingStrategy = .millisecondsSince1970
    encoder.nonConformingFloatEncodingStrategy = .throw
    // Sorted keys make the stored JSON stable, so that unchanged values compare equal.
    encoder.outputFormatting = .sortedKeys
    encoder.userInfo = databaseEncodingUserInfo
    return encoder
  }

  /// Blobs.
  public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
    .deferredToData
  }

  /// `yyyy-MM-dd HH:mm:ss.SSS` UTC text.
  public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
    .deferredToDate
  }

  /// 16-byte blobs.
  public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
    .deferredToUUID
  }

  /// A Date, UUID or Data key written with the strategy of the primary key
  /// column, as the record writes it: `filter(id:)` and `deleteOne(_:id:)`
  /// find the rows the record saved.
  public static func _primaryKeyValue(_ key: any DatabaseValueConvertible, column: String) throws
    -> DatabaseValue?
  {
    switch key {
    case let uuid as UUID: return databaseUUIDEncodingStrategy(for: column).encode(uuid)
    case let date as Date: return databaseDateEncodingStrategy(for: column).encode(date)
    case let data as Data: return try databaseDataEncodingStrategy(for: column).encode(data)
    default: return nil
    }
  }

  /// Columns have the names of the coding keys.
  public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }

  /// The columns and values the record writes.
  public var databaseDictionary: [String: DatabaseValue] {
    get throws { try persistenceContainer().dictionary }
  }

  /// The columns whose values differ from `record`'s, with the values of `record`.
  public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
    try persistenceContainer().changes(from: record.persistenceContainer())
  }

  /// True if the record writes no value that differs from `record`'s: the
  /// same test as ``databaseChanges(from:)``, as in GRDB.
  public func databaseEquals(_ record: Self) -> Bool {
    guard let mine = try? persistenceContainer(), let theirs = try? record.persistenceContainer() else {
      return false
    }
    return mine.changes(from: theirs).isEmpty
  }

  /// The container the record fills, with conversion failures reported.
  @usableFromInline
  func persistenceContainer() throws -> PersistenceContainer {
    var container = PersistenceContainer()
    try encode(to: &container)
    if let failure = container.conversionFailure {
      throw DatabaseError.misuse("invalid value in \(Self.self): \(failure)")
    }
    return container
  }
}

extension DatabaseValue {
  /// Strict equality: same storage class and payload (1 and 1.0 differ,
  /// unlike `==`).
  func isIdentical(to other: DatabaseValue) -> Bool {
    switch (storage, other.storage) {
    case (.null, .null): return true
    case (.int64(let a), .int64(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
    case (.string(let a), .string(let b)): return a == b
    case (.blob(let a), .blob(let b)): return a == b
    default: return false
    }
  }
}

extension EncodableRecord where Self: Encodable {
  /// Encodes the record's coding keys into columns.
  public func encode(to container: inout PersistenceContainer) throws {
    let encoder = RecordEncoder.take(recordType: Self.self, container: container)
    if container.isEmpty {
      // The encoder takes the empty container over and fills it in place,
      // instead of copying its arrays at the first column. A failure leaves an
      // empty container, as it found it.
      container = PersistenceContainer()
    }
    do {
      try encode(to: encoder)
    } catch {
      _ = encoder.giveBack()
      throw error
    }
    container = encoder.giveBack()
  }
}
