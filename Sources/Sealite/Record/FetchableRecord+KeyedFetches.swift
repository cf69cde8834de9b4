// Cursors and sets of records found by key: the forms of fetchAll(_:keys:)
// and fetchAll(_:ids:) that return a cursor or a set.

extension FetchableRecord where Self: TableRecord {
  /// A cursor over the records whose single-column primary key is one of `keys`.
  ///
  ///     let players = try Player.fetchCursor(db, keys: [1, 2, 3])
  ///     while let player = try players.next() { … }
  ///
  /// With no key, the cursor is empty.
  public static func fetchCursor(
    _ db: Database, keys: some Collection<some DatabaseValueConvertible>
  ) throws -> RecordCursor<Self> {
    try filter(keys: keys).fetchCursor(db)
  }

  /// A cursor over the records with the given key values, each dictionary a
  /// primary or unique key.
  ///
  ///     let citizenships = try Citizenship.fetchCursor(db, keys: [
  ///       ["citizenId": 1, "countryCode": "FR"],
  ///       ["citizenId": 2, "countryCode": "US"],
  ///     ])
  public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
    -> RecordCursor<Self>
  {
    try filter(keys: keys).fetchCursor(db)
  }
}

extension FetchableRecord where Self: TableRecord & Hashable {
  /// The distinct records whose single-column primary key is one of `keys`.
  ///
  ///     let players: Set<Player> = try Player.fetchSet(db, keys: [1, 2, 3])
  ///
  /// With no key, the set is empty and the database is not queried.
  public static func fetchSet(
    _ db: Database, keys: some Collection<some DatabaseValueConvertible>
  ) throws -> Set<Self> {
    if keys.isEmpty { return [] }
    return try filter(keys: keys).fetchSet(db)
  }

  /// The distinct records with the given key values, each dictionary a
  /// primary or unique key.
  ///
  ///     let citizenships = try Citizenship.fetchSet(db, keys: [
  ///       ["citizenId": 1, "countryCode": "FR"],
  ///     ])
  ///
  /// With no key, the set is empty and the database is not queried.
  public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws
    -> Set<Self>
  {
    if keys.isEmpty { return [] }
    return try filter(keys: keys).fetchSet(db)
  }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
  /// A cursor over the records whose primary key is one of `ids`.
  ///
  ///     let players = try Player.fetchCursor(db, ids: [1, 2, 3])
  ///     while let player = try players.next() { … }
  public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
    try filter(ids: ids).fetchCursor(db)
  }
}

extension FetchableRecord where Self: TableRecord & Hashable & Identifiable, ID: DatabaseValueConvertible {
  /// The distinct records whose primary key is one of `ids`.
  ///
  ///     let players: Set<Player> = try Player.fetchSet(db, ids: [1, 2, 3])
  ///
  /// With no id, the set is empty and the database is not queried.
  public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
    if ids.isEmpty { return [] }
    return try filter(ids: ids).fetchSet(db)
  }
}
