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

  /// Called before an insert.
  mutating func willInsert(_ db: Database) throws
  /// Called after a successful insert, with the new rowid.
  mutating func didInsert(_ inserted: InsertionSuccess)
  /// Called before an update of the given columns.
  func willUpdate(_ db: Database, columns: Set<String>) throws
  /// Called after a successful update.
  func didUpdate(_ updated: PersistenceSuccess)
  /// Called before a save (insert or update).
  mutating func willSave(_ db: Database) throws
  /// Called after a successful save.
  func didSave(_ saved: PersistenceSuccess)
  /// Called before a delete.
  func willDelete(_ db: Database) throws
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
  /// Called before a save (insert or update).
  func willSave(_ db: Database) throws
}

/// What an insert did.
public struct InsertionSuccess: Sendable {
  /// The rowid of the inserted row (for a `WITHOUT ROWID` table with a single
  /// integer primary key, that key).
  public let rowID: Int64
  /// The column that holds the rowid (`INTEGER PRIMARY KEY`), if any.
  public let rowIDColumn: String?
  /// The columns and values inserted.
  public let persistenceContainer: PersistenceContainer
}

/// What an update or save did.
public struct PersistenceSuccess: Sendable {
  /// The columns and values written.
  public let persistenceContainer: PersistenceContainer
}

extension MutablePersistableRecord {
  public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }
  public mutating func willInsert(_ db: Database) throws {}
  public mutating func didInsert(_ inserted: InsertionSuccess) {}
  public func willUpdate(_ db: Database, columns: Set<String>) throws {}
  public func didUpdate(_ updated: PersistenceSuccess) {}
  public mutating func willSave(_ db: Database) throws {}
  public func didSave(_ saved: PersistenceSuccess) {}
  public func willDelete(_ db: Database) throws {}
  public func didDelete(deleted: Bool) {}
}

extension PersistableRecord {
  /// Called before the record is inserted; does nothing unless the record implements it.
  public func willInsert(_ db: Database) throws {}
  /// Called after the record was inserted; does nothing unless the record implements it.
  public func didInsert(_ inserted: InsertionSuccess) {}
  /// Called before the record is inserted or updated; does nothing unless the record implements it.
  public func willSave(_ db: Database) throws {}
}
