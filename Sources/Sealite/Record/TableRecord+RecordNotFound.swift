// The errors of records that have no row: what `find` and `update` throw,
// made available to the user's own methods, as GRDB does.

extension TableRecord {
  /// The error of a record that has no row with the single-column primary
  /// key `key`: ``RecordError/recordNotFound(databaseTableName:key:)``, or
  /// the error that prevented the key column from being read from the schema.
  ///
  ///     guard let player = try Player.fetchOne(db, key: 42) else {
  ///       throw Player.recordNotFound(db, key: 42)
  ///     }
  ///
  /// A table without a primary key is keyed by its hidden `rowid`.
  public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
    do {
      let primaryKey = try db.recordPrimaryKey(databaseTableName)
      let column = primaryKey.columns.first ?? "rowid"
      return RecordError.recordNotFound(
        databaseTableName: databaseTableName, key: [column: key.databaseValue])
    } catch {
      return error
    }
  }

  /// The error of a record that has no row with the given key values:
  /// ``RecordError/recordNotFound(databaseTableName:key:)``.
  ///
  ///     throw Citizenship.recordNotFound(key: ["citizenId": 1, "countryCode": "FR"])
  ///
  /// A nil value is reported as `NULL`.
  public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
    RecordError.recordNotFound(
      databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
  }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
  /// The error of a record that has no row with primary key `id`:
  /// ``RecordError/recordNotFound(databaseTableName:key:)``, or the error
  /// that prevented the key column from being read from the schema.
  ///
  ///     guard let player = try Player.fetchOne(db, id: 42) else {
  ///       throw Player.recordNotFound(db, id: 42)
  ///     }
  public static func recordNotFound(_ db: Database, id: ID) -> any Error {
    recordNotFound(db, key: id)
  }
}

extension TableRecord where Self: EncodableRecord {
  /// The error that tells that this record has no row:
  /// ``RecordError/recordNotFound(databaseTableName:key:)`` with the values
  /// the record holds for its table's primary key, or the error that
  /// prevented the record from being encoded or the key from being read.
  ///
  ///     guard try player.exists(db) else { throw player.recordNotFound(db) }
  public func recordNotFound(_ db: Database) -> any Error {
    do {
      let table = Self.databaseTableName
      let primaryKey = try db.recordPrimaryKey(table)
      let container = try persistenceContainer()
      let key = Dictionary(
        primaryKey.columns.map { ($0, container.databaseValue(forColumn: $0) ?? .null) },
        uniquingKeysWith: { first, _ in first })
      return RecordError.recordNotFound(databaseTableName: table, key: key)
    } catch {
      return error
    }
  }
}

/// The former name of ``RecordError``.
@available(*, deprecated, renamed: "RecordError")
public typealias PersistenceError = RecordError
