/// A base class for records that remember what they fetched or saved, so that
/// ``updateChanges(_:)`` writes only the columns that changed.
///
///     final class Player: Record {
///       var id: Int64?
///       var name: String
///       override class var databaseTableName: String { "player" }
///       init(name: String) {
///         self.name = name
///         super.init()
///       }
///       required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         try super.init(row: row)
///       }
///       override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///       }
///       override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///       }
///     }
///
///     let player = try Player.fetchOne(db, key: 1)!
///     player.name = "Arthur"
///     try player.updateChanges(db)  // UPDATE player SET name = 'Arthur' WHERE id = 1
///
/// GRDB keeps this class for code written before its record protocols; new
/// records are better as structs adopting ``FetchableRecord`` and
/// ``PersistableRecord``. A record is not Sendable: saving it changes its
/// reference values.
///
/// Subclasses that override `init(row:)`, `aroundInsert`, `aroundUpdate` or
/// `aroundDelete` call `super`, which keeps the change tracking.
open class Record {
  /// The values last fetched or saved: nil when the record has not been, or
  /// was deleted, and then every column counts as changed.
  var referenceRow: Row?

  /// A record with no reference values: every column counts as changed.
  ///
  ///     let player = Player(name: "Arthur")  // calls super.init()
  ///     player.hasDatabaseChanges  // true
  public init() {}

  /// A record read from `row`. Subclasses read their properties, then call
  /// `super.init(row:)`.
  ///
  ///     required init(row: Row) throws {
  ///       name = row["name"]
  ///       try super.init(row: row)
  ///     }
  ///
  /// When the row comes from the database, its values become the reference
  /// values and the record starts without changes; a row built in code (a
  /// dictionary literal) leaves every column changed.
  public required init(row: Row) throws {
    // A cursor's row reads its statement and changes at the next step: keep
    // a copy.
    if row.isFetched { referenceRow = row.copy() }
  }

  /// The table of the record. Subclasses must override it.
  ///
  ///     override class var databaseTableName: String { "player" }
  open class var databaseTableName: String {
    fatalError("subclass must override databaseTableName")
  }

  /// What `INSERT` and `UPDATE` do on conflict: abort, SQLite's default.
  ///
  ///     override class var persistenceConflictPolicy: PersistenceConflictPolicy {
  ///       PersistenceConflictPolicy(insert: .replace, update: .replace)
  ///     }
  open class var persistenceConflictPolicy: PersistenceConflictPolicy {
    PersistenceConflictPolicy()
  }

  /// The columns fetched by requests of the record: all of them.
  ///
  ///     override class var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
  open class var databaseSelection: [any SQLSelectable] {
    [AllColumns()]
  }

  /// Writes the record's columns. Subclasses override it; this one writes none.
  ///
  ///     override func encode(to container: inout PersistenceContainer) throws {
  ///       container["name"] = name
  ///     }
  open func encode(to container: inout PersistenceContainer) throws {}

  // MARK: Persistence callbacks
  //
  // Open, so that subclasses override them; the `around` ones keep the
  // reference values, so overrides call `super`.

  /// Called before an insert. Override it to prepare the record.
  ///
  ///     override func willInsert(_ db: Database) throws { createdAt = Date() }
  open func willInsert(_ db: Database) throws {}

  /// Runs the insert, then takes the inserted values as the reference values.
  ///
  ///     override func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
  ///       try super.aroundInsert(db, insert: insert)
  ///       print("inserted")
  ///     }
  open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
    referenceRow = Row(try insert().persistenceContainer)
  }

  /// Called after an insert. Override it to read the new rowid.
  ///
  ///     override func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
  open func didInsert(_ inserted: InsertionSuccess) {}

  /// Called before an update of `columns`.
  ///
  ///     override func willUpdate(_ db: Database, columns: Set<String>) throws { updatedAt = Date() }
  open func willUpdate(_ db: Database, columns: Set<String>) throws {}

  /// Runs the update, then takes the record's values as the reference values.
  ///
  ///     override func aroundUpdate(
  ///       _ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess
  ///     ) throws {
  ///       try super.aroundUpdate(db, columns: columns, update: update)
  ///     }
  open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
  {
    // The container has every column, not only the updated ones: after an
    // update the whole record is as stored, as in GRDB.
    referenceRow = Row(try update().persistenceContainer)
  }

  /// Called after an update.
  ///
  ///     override func didUpdate(_ updated: PersistenceSuccess) { print("updated") }
  open func didUpdate(_ updated: PersistenceSuccess) {}

  /// Called before an insert or update by `save` (and `insert` and `update`).
  ///
  ///     override func willSave(_ db: Database) throws { try validate() }
  open func willSave(_ db: Database) throws {}

  /// Runs the save.
  ///
  ///     override func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
  ///       try super.aroundSave(db, save: save)
  ///     }
  open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
    _ = try save()
  }

  /// Called after an insert or update.
  ///
  ///     override func didSave(_ saved: PersistenceSuccess) { print("saved") }
  open func didSave(_ saved: PersistenceSuccess) {}

  /// Called before a delete.
  ///
  ///     override func willDelete(_ db: Database) throws { try checkDeletable() }
  open func willDelete(_ db: Database) throws {}

  /// Runs the delete, then forgets the reference values: a deleted record has
  /// every column changed, ready to be inserted again.
  ///
  ///     override func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
  ///       try super.aroundDelete(db, delete: delete)
  ///     }
  open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
    _ = try delete()
    referenceRow = nil
  }

  /// Called after a delete; `deleted` is false when no row had the key.
  ///
  ///     override func didDelete(deleted: Bool) { print(deleted) }
  open func didDelete(deleted: Bool) {}
}

// Not Sendable, as in GRDB: persisting a record sets its reference values,
// and nothing would stop two connections from saving one record at once.
@available(*, unavailable)
extension Record: Sendable {}

extension Record: TableRecord, FetchableRecord, PersistableRecord {}
