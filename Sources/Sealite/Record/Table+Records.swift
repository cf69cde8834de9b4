// Fetching records from a `Table<Record>`: `Table<Player>("player").fetchAll(db)`.

extension Table where RowDecoder: FetchableRecord {
  /// A cursor over every record.
  public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
  /// Every record.
  public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
  /// The first record.
  public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
  /// The record with the single-column primary key `key`.
  public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> RowDecoder? {
    try filter(key: key).fetchOne(db)
  }
  /// The record with the given key values.
  public func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> RowDecoder? {
    try filter(key: key).fetchOne(db)
  }
  /// The records with the given primary keys.
  public func fetchAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> [RowDecoder]
  where Keys.Element: DatabaseValueConvertible {
    try filter(keys: keys).fetchAll(db)
  }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
  /// The distinct records.
  public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: TableRecord {
  /// The columns and other components of the record type the table fetches,
  /// that closures receive: `Table<Player>("player").updateAll(db) { $0.score.set(to: 0) }`.
  public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}
