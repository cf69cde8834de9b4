/// A record that can be inserted, updated, saved and deleted, and that may
/// change on insertion (to take its auto-incremented id):
///
///     struct Player: Codable, FetchableRecord, MutablePersistableRecord {
///       var id: Int64?
///       var name: String
///       mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///       }
///     }
///     var player = Player(id: nil, name: "Arthur")
///     try player.insert(db)  // player.id is now set
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
  /// The conflict resolution of inserts and updates (default: abort).
  static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

  /// Called before an insert; the record may change (its encoded values are
  /// read after this callback).
  mutating func willInsert(_ db: Database) throws
  /// Wraps the insert: call `insert` exactly once, and rethrow its error.
  func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
  /// Called after a successful insert, with the new rowid.
  mutating func didInsert(_ inserted: InsertionSuccess)
  /// Called before an update of the given columns.
  func willUpdate(_ db: Database, columns: Set<String>) throws
  /// Wraps the update: call `update` exactly once, and rethrow its error.
  func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
  /// Called after a successful update.
  func didUpdate(_ updated: PersistenceSuccess)
  /// Called before an insert, update, save or upsert.
  func willSave(_ db: Database) throws
  /// Wraps an insert, update, save or upsert: call `save` exactly once, and
  /// rethrow its error.
  func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
  /// Called after a successful insert, update, save or upsert.
  func didSave(_ saved: PersistenceSuccess)
  /// Called before a delete.
  func willDelete(_ db: Database) throws
  /// Wraps the delete: call `delete` exactly once, and rethrow its error.
  func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
  /// Called after a delete; `deleted` is false when no row had the key.
  func didDelete(deleted: Bool)
}

/// A record that does not change on insertion (a class, or a struct whose id
/// is set before it is inserted). Its persistence methods are not mutating.
public protocol PersistableRecord: MutablePersistableRecord {
  /// Called before an insert.
  func willInsert(_ db: Database) throws
  /// Called after a successful insert, with the new rowid.
  func didInsert(_ inserted: InsertionSuccess)
}

/// What an insert did.
public struct InsertionSuccess: Sendable {
  /// The rowid of the inserted row (for a `WITHOUT ROWID` table with a single
  /// integer primary key, that key).
  public var rowID: Int64
  /// The column that holds the rowid (`INTEGER PRIMARY KEY`), if any.
  public var rowIDColumn: String?
  /// The columns and values inserted.
  public var persistenceContainer: PersistenceContainer
}

/// What an update or save did.
public struct PersistenceSuccess: Sendable {
  /// The columns and values written.
  public var persistenceContainer: PersistenceContainer

  @usableFromInline
  init(persistenceContainer: PersistenceContainer) {
    self.persistenceContainer = persistenceContainer
  }
}

extension MutablePersistableRecord {
  /// Abort on conflict, for inserts and updates.
  public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }
  /// Does nothing unless the record implements it.
  @inlinable
  public mutating func willInsert(_ db: Database) throws {}
  /// Runs the insert.
  @inlinable
  public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    _ = try insert()
  }
  /// Does nothing unless the record implements it.
  @inlinable
  public mutating func didInsert(_ inserted: InsertionSuccess) {}
  /// Does nothing unless the record implements it.
  @inlinable
  public func willUpdate(_ db: Database, columns: Set<String>) throws {}
  /// Runs the update.
  @inlinable
  public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess)
    throws
  {
    _ = try update()
  }
  /// Does nothing unless the record implements it.
  @inlinable
  public func didUpdate(_ updated: PersistenceSuccess) {}
  /// Does nothing unless the record implements it.
  @inlinable
  public func willSave(_ db: Database) throws {}
  /// Runs the save.
  @inlinable
  public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
    _ = try save()
  }
  /// Does nothing unless the record implements it.
  @inlinable
  public func didSave(_ saved: PersistenceSuccess) {}
  /// Does nothing unless the record implements it.
  @inlinable
  public func willDelete(_ db: Database) throws {}
  /// Runs the delete.
  @inlinable
  public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
    _ = try delete()
  }
  /// Does nothing unless the record implements it.
  @inlinable
  public func didDelete(deleted: Bool) {}
}

extension PersistableRecord {
  /// Called before the record is inserted; does nothing unless the record implements it.
  @inlinable
  public func willInsert(_ db: Database) throws {}
  /// Called after the record was inserted; does nothing unless the record implements it.
  @inlinable
  public func didInsert(_ inserted: InsertionSuccess) {}
}
