/// A type that names a part of a database: a ``DatabaseRegion``, a ``Table``,
/// or any request (the region it reads).
///
///     let observation = DatabaseRegionObservation(tracking: Table("player"), Player.filter(key: 1))
public protocol DatabaseRegionConvertible: Sendable {
  /// The region, computed in `db` (requests compile their statement to learn it).
  func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegion: DatabaseRegionConvertible {
  public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

/// A type-erased ``DatabaseRegionConvertible``.
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
  private let region: @Sendable (Database) throws -> DatabaseRegion

  /// A region computed by a closure.
  public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
    self.region = region
  }

  /// Wraps another region convertible.
  public init(_ region: some DatabaseRegionConvertible) {
    self.region = { db in try region.databaseRegion(db) }
  }

  public func databaseRegion(_ db: Database) throws -> DatabaseRegion { try region(db) }
}

extension Table: DatabaseRegionConvertible {
  /// Every column and row of the table.
  public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
    DatabaseRegion(table: tableName)
  }
}

extension FetchRequest {
  /// The part of the database the request reads: its statement's region.
  public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
    try db.computingRegion { try makePreparedRequest(db, forSingleResult: false).databaseRegion }
  }
}

extension QueryInterfaceRequest: DatabaseRegionConvertible {
  /// The part of the database the request reads: the tables and columns of
  /// its statement, the tables of `including(all:)` associations, and only the
  /// selected rows when the request filters by rowid primary key.
  public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
    var region = try db.computingRegion { try makePreparedRequest(db, forSingleResult: false).databaseRegion }
    for table in relation.prefetchedTableNames {
      region.formUnion(DatabaseRegion(table: table))
    }
    return region
  }
}

extension SQLRequest: DatabaseRegionConvertible {}

extension Database {
  /// Runs `body` with ``isComputingRegion`` set: the requests it prepares
  /// derive the rowids their filters select.
  fileprivate func computingRegion<T>(_ body: () throws -> T) rethrows -> T {
    let previous = isComputingRegion
    isComputingRegion = true
    defer { isComputingRegion = previous }
    return try body()
  }
}

extension PreparedRequest {
  /// The part of the database a run of the request reads.
  var databaseRegion: DatabaseRegion { statement.databaseRegion.restricted(by: restriction) }
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
  /// Every table, column and row of the database, where a region is expected:
  /// `try db.notifyChanges(in: .fullDatabase)`.
  public static var fullDatabase: DatabaseRegion { DatabaseRegion.fullDatabase }
}
