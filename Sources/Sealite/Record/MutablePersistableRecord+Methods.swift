// insert, update, save, delete, exists and their …AndFetch forms. Each runs
// the persistence callbacks once, in GRDB's order (see PersistenceCallbacks.swift).

extension MutablePersistableRecord {
  /// Inserts the record; `didInsert` receives the new rowid. With
  /// `onConflict: .ignore`, an ignored insert calls neither `didInsert` nor
  /// `didSave`.
  @inlinable
  public mutating func insert(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws {
    try insertWithCallbacks(db, onConflict: conflictResolution, selection: nil).recycle()
  }

  // The implementations have their own names: PersistableRecord's
  // non-mutating methods call them on a copy (calling `insert` there would
  // call themselves). With a selection, `read` receives the stored row inside
  // the write, before `didInsert` or `didUpdate`, as GRDB reads it (see
  // ``Database/decodingReturnedRow(as:_:)``).
  @inlinable
  mutating func insertWithCallbacks(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]?, read: (Row) throws -> Void = { _ in }, readsIgnoredInsert: Bool = false
  ) throws -> SaveOutcome {
    try withSaveCallbacks(db) {
      SaveOutcome(
        try withInsertCallbacks(db) { record in
          try record.insertAction(
            db, onConflict: conflictResolution, selection: selection, read: read,
            readsIgnoredInsert: readsIgnoredInsert)
        })
    }
  }

  /// A copy of the record, inserted.
  @inlinable
  public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
    throws
    -> Self
  {
    var copy = self
    try copy.insertWithCallbacks(db, onConflict: conflictResolution, selection: nil).recycle()
    return copy
  }

  /// Inserts the record and returns the row as stored (defaults, triggers and
  /// generated columns included), decoded as `type`. Uses RETURNING where the
  /// linked SQLite has it, else re-reads the row by rowid or primary key in the
  /// same savepoint. An ignored insert throws ``RecordError/recordNotFound(databaseTableName:key:)``.
  @inlinable
  public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    try db.decodingReturnedRow(as: T.self) { read in
      try insertWithCallbacks(db, onConflict: conflictResolution, selection: T.databaseSelection, read: read)
        .recycle()
    }
  }

  /// The INSERT, without callbacks; with a selection, `read` receives the
  /// stored row: the row RETURNING gives, where the statement holds it, or
  /// the row read again in the insert's savepoint, once that is committed.
  /// An insert that the conflict resolution ignores throws
  /// ``RecordError/recordNotFound(databaseTableName:key:)``; with
  /// `readsIgnoredInsert`, `read` receives ``Row/nothingStored`` instead (the
  /// `fetch:` forms hand their closure a statement that yields no row, as
  /// GRDB does).
  @usableFromInline
  func insertAction(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]?, read: (Row) throws -> Void, readsIgnoredInsert: Bool = false
  ) throws -> InsertOutcome {
    let container = try persistenceContainer()
    guard let selection else {
      return try performInsert(db, container: container, onConflict: conflictResolution)
    }
    if try db.canUseReturning(forTable: Self.databaseTableName) {
      // The values of the RETURNING clause are those of this call's
      // selection: two selections may render the same SQL with other values.
      let returning = try db.withRecordStatements {
        try $0.returningClause(selection, of: Self.self, db)
      }
      let inserted = try performInsert(
        db, container: copy container, onConflict: conflictResolution, returning: returning, read: read)
      if inserted.ignored {
        guard readsIgnoredInsert else { throw try recordNotFound(db, container) }
        try read(Row.nothingStored)
      }
      return inserted
    }
    var outcome: InsertOutcome?
    var row: Row?
    try db.inSavepoint {
      let inserted = try performInsert(db, container: copy container, onConflict: conflictResolution)
      if inserted.ignored {
        guard readsIgnoredInsert else { throw try recordNotFound(db, container) }
        row = Row.nothingStored
        outcome = inserted
        return .commit
      }
      row = try Self.refetch(db, success: inserted.success, selection: selection)
      if row == nil { throw try recordNotFound(db, container) }
      outcome = inserted
      return .commit
    }
    try read(row!)
    return outcome!
  }

  /// The error of a record that has no row (GRDB's `recordNotFound(_:)`).
  func recordNotFound(_ db: Database, _ container: PersistenceContainer) throws -> RecordError {
    RecordError.recordNotFound(
      databaseTableName: Self.databaseTableName, key: try recordKey(db, container).dictionary)
  }

  /// Reads an inserted row back by rowid (or by primary key for a WITHOUT ROWID table).
  static func refetch(_ db: Database, success: InsertionSuccess, selection: [any SQLSelectable]) throws
    -> Row?
  {
    let primaryKey = try db.recordPrimaryKey(databaseTableName)
    var request = QueryInterfaceRequest<Row>(
      relation: SQLRelation(tableName: databaseTableName, selection: selection.map { $0.sqlSelection }))
    if primaryKey.isWithoutRowID {
      let key = Dictionary(
        primaryKey.columns.map { ($0, success.persistenceContainer.databaseValue(forColumn: $0) ?? .null) },
        uniquingKeysWith: { first, _ in first })
      request = request.filter(key: key.mapValues { $0 as (any DatabaseValueConvertible)? })
    } else {
      request = request.filter(SQLExpression(.column("rowid", alias: nil)) == success.rowID)
    }
    return try request.fetchOne(db)
  }

  /// Updates every column of the table that the record encodes, found by
  /// primary key; throws ``RecordError/recordNotFound(databaseTableName:key:)``
  /// if no row has it. `willUpdate` and `aroundUpdate` receive all the
  /// table's columns.
  @inlinable
  public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
  {
    try updateWithCallbacks(
      db, onConflict: conflictResolution, columns: tableColumns(db), selection: nil
    ).recycle()
  }

  /// Updates the given columns only.
  @inlinable
  public func update<Columns: Collection>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: Columns
  ) throws where Columns.Element == String {
    try updateWithCallbacks(
      db, onConflict: conflictResolution, columns: Set(columns), selection: nil
    ).recycle()
  }

  /// Updates the given columns only.
  @inlinable
  public func update<Columns: Collection>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: Columns
  ) throws where Columns.Element: ColumnExpression {
    try updateWithCallbacks(
      db, onConflict: conflictResolution, columns: Set(columns.map { $0.name }), selection: nil
    ).recycle()
  }

  /// The names of the table's columns, as the schema spells them.
  @usableFromInline
  func tableColumns(_ db: Database) throws -> Set<String> {
    try db.recordColumnNames(Self.databaseTableName)
  }

  /// See ``insertWithCallbacks(_:onConflict:selection:read:)``.
  @inlinable
  func updateWithCallbacks(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
    selection: [any SQLSelectable]?, read: (Row) throws -> Void = { _ in }
  ) throws -> SaveOutcome {
    try withSaveCallbacks(db) {
      SaveOutcome(
        try withUpdateCallbacks(db, columns: columns) {
          try updateAction(
            db, onConflict: conflictResolution, columns: columns, selection: selection, read: read)
        })
    }
  }

  /// Updates the record and returns the row as stored, decoded as `type`.
  @inlinable
  public func updateAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    let columns = try tableColumns(db)
    return try db.decodingReturnedRow(as: T.self) { read in
      try updateWithCallbacks(
        db, onConflict: conflictResolution, columns: columns, selection: T.databaseSelection, read: read
      ).recycle()
    }
  }

  /// The UPDATE, without callbacks; with a selection, `read` receives the
  /// stored row (see ``insertAction(_:onConflict:selection:read:)``).
  @usableFromInline
  func updateAction(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
    selection: [any SQLSelectable]?, read: (Row) throws -> Void,
    encoded: consuming PersistenceContainer? = nil
  ) throws -> UpdateOutcome {
    let container: PersistenceContainer
    if let encoded = consume encoded {
      container = encoded
    } else {
      container = try persistenceContainer()
    }
    guard _slowPath(selection != nil) else {
      try performUpdate(db, container: container, columns: columns, onConflict: conflictResolution)
      return UpdateOutcome(success: PersistenceSuccess(persistenceContainer: container))
    }
    return try updateFetchingRow(
      db, onConflict: conflictResolution, columns: columns, selection: selection.unsafelyUnwrapped,
      read: read, container: container)
  }

  /// The UPDATE and the stored row, out of line: the loop of plain updates
  /// is better off without this code in its instruction cache.
  @inline(never)
  private func updateFetchingRow(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
    selection: [any SQLSelectable], read: (Row) throws -> Void, container: PersistenceContainer
  ) throws -> UpdateOutcome {
    let success = PersistenceSuccess(persistenceContainer: container)
    if try db.canUseReturning(forTable: Self.databaseTableName) {
      try performUpdate(
        db, container: container, columns: columns, onConflict: conflictResolution, returning: selection,
        read: read)
      return UpdateOutcome(success: success)
    }
    var row: Row?
    try db.inSavepoint {
      try performUpdate(db, container: container, columns: columns, onConflict: conflictResolution)
      let key = try recordKey(db, container)
      let request = QueryInterfaceRequest<Row>(
        relation: SQLRelation(tableName: Self.databaseTableName, selection: selection.map { $0.sqlSelection })
      ).filter(key: key.dictionary.mapValues { $0 as (any DatabaseValueConvertible)? })
      row = try request.fetchOne(db)
      if row == nil { throw try recordNotFound(db, container) }
      return .commit
    }
    try read(row!)
    return UpdateOutcome(success: success)
  }

  /// Updates only the columns whose values differ from `record`; runs no
  /// statement and returns false when nothing changed.
  @discardableResult
  public func updateChanges<Record: MutablePersistableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, from record: Record
  ) throws -> Bool {
    let changes = try databaseChanges(from: record)
    guard !changes.isEmpty else { return false }
    try update(db, onConflict: conflictResolution, columns: Array(changes.keys))
    return true
  }

  /// Modifies the record, then updates only the columns that changed; runs no
  /// statement and returns false when nothing changed. The record is encoded
  /// before `modify` runs: a class modified in place is compared with what it
  /// was, as in GRDB.
  @discardableResult
  public mutating func updateChanges(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    modify: (inout Self) throws -> Void
  ) throws -> Bool {
    let changes = try databaseChanges(modify: modify)
    guard !changes.isEmpty else { return false }
    try update(db, onConflict: conflictResolution, columns: Array(changes.keys))
    return true
  }

  /// Updates the record if a row has its primary key, inserts it otherwise.
  @inlinable
  public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
    throws
  {
    try saveWithCallbacks(db, onConflict: conflictResolution, selection: nil).recycle()
  }

  /// See ``insertWithCallbacks(_:onConflict:selection:read:)``.
  @inlinable
  mutating func saveWithCallbacks(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]?, read: (Row) throws -> Void = { _ in }
  ) throws -> SaveOutcome {
    try withSaveCallbacks(db) {
      try updateOrInsertWithCallbacks(db, onConflict: conflictResolution, selection: selection, read: read)
    }
  }

  /// The update of a record with a primary key, and the insert of one
  /// without, or when the update finds no row.
  @inlinable
  mutating func updateOrInsertWithCallbacks(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]?, read: (Row) throws -> Void
  ) throws -> SaveOutcome {
    let container = try persistenceContainer()
    // A record with any non-NULL key value is updated first. The key itself is
    // built only when the update finds no row, to tell that error apart.
    if try hasPrimaryKeyValue(db, container) {
      let columns = try tableColumns(db)
      // The update callbacks of a value type can not change it (they are not
      // mutating): its columns are those just encoded, moved into the update
      // (copies would retain and release each of its arrays). A class may
      // change itself in willUpdate or aroundUpdate, and is encoded again;
      // its first encoding gives the key it had when it was saved.
      let isClass = Self.self is AnyClass
      let keyContainer = isClass ? container : nil
      var encoded = isClass ? nil : Optional(consume container)
      do {
        return SaveOutcome(
          try withUpdateCallbacks(db, columns: columns) {
            try updateAction(
              db, onConflict: conflictResolution, columns: columns, selection: selection, read: read,
              encoded: encoded.take())
          })
      } catch let RecordError.recordNotFound(databaseTableName: table, key: missingKey)
        where table == Self.databaseTableName
      {
        // No row has the record's key: insert. Another record's missing row
        // (a callback that updates another record) is not this one's. A
        // value is encoded again (its update took its container), as GRDB
        // encodes a record for each step.
        guard try isMissingKey(db, keyContainer ?? persistenceContainer(), missingKey) else {
          throw RecordError.recordNotFound(databaseTableName: table, key: missingKey)
        }
      }
    }
    return SaveOutcome(
      try withInsertCallbacks(db) { record in
        try record.insertAction(db, onConflict: conflictResolution, selection: selection, read: read)
      })
  }

  /// Whether the record has a non-NULL value for a column of its table's
  /// primary key.
  @usableFromInline
  func hasPrimaryKeyValue(_ db: Database, _ container: PersistenceContainer) throws -> Bool {
    try db.recordKeyStatements(Self.databaseTableName, container).hasKeyValue(in: container)
  }

  /// Whether `missingKey`, of a recordNotFound error, is the key of `container`.
  @usableFromInline
  func isMissingKey(_ db: Database, _ container: PersistenceContainer, _ missingKey: [String: DatabaseValue])
    throws -> Bool
  {
    missingKey == (try recordKey(db, container)).dictionary
  }

  /// A copy of the record, saved.
  @inlinable
  public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
    -> Self
  {
    var copy = self
    try copy.saveWithCallbacks(db, onConflict: conflictResolution, selection: nil).recycle()
    return copy
  }

  /// Saves the record and returns the row as stored, decoded as `type`.
  @inlinable
  public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    try db.decodingReturnedRow(as: T.self) { read in
      try saveWithCallbacks(db, onConflict: conflictResolution, selection: T.databaseSelection, read: read)
        .recycle()
    }
  }

  /// Deletes the row with the record's primary key; returns whether one was deleted.
  @discardableResult
  @inlinable
  public func delete(_ db: Database) throws -> Bool {
    try withDeleteCallbacks(db) { try deleteAction(db) }
  }

  /// The DELETE, without callbacks.
  @usableFromInline
  func deleteAction(_ db: Database) throws -> Bool {
    var container = try persistenceContainer()
    defer { container.recycle() }
    let statements = try db.recordKeyStatements(Self.databaseTableName, container)
    guard let key = statements.completeKey(in: container) else { return false }
    try statements.delete(db).executeBinding(container.values, picking: key, in: db)
    return db.changesCount > 0
  }

  /// True if a row has the record's primary key.
  public func exists(_ db: Database) throws -> Bool {
    var container = try persistenceContainer()
    defer { container.recycle() }
    let statements = try db.recordKeyStatements(Self.databaseTableName, container)
    guard let key = statements.completeKey(in: container) else { return false }
    return try statements.exists(db).executeBinding(
      container.values, picking: key, in: db, answeredByFirstColumn: true)
  }
}

extension MutablePersistableRecord where Self: FetchableRecord {
  /// Inserts a copy of the record and returns it as stored (defaults,
  /// triggers and generated columns included).
  @inlinable
  public func insertAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws -> Self {
    var copy = self
    return try copy.insertAndFetch(db, onConflict: conflictResolution, as: Self.self)
  }

  /// Updates the record and returns it as stored.
  @inlinable
  public func updateAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws -> Self {
    try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
  }

  /// Saves a copy of the record and returns it as stored.
  @inlinable
  public func saveAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws -> Self {
    var copy = self
    return try copy.saveAndFetch(db, onConflict: conflictResolution, as: Self.self)
  }
}

extension PersistableRecord {
  /// Inserts the record.
  @inlinable
  public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
  {
    var copy = self
    try copy.insertWithCallbacks(db, onConflict: conflictResolution, selection: nil).recycle()
  }

  /// Saves the record: updates it if a row has its primary key, inserts it otherwise.
  @inlinable
  public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
    var copy = self
    try copy.saveWithCallbacks(db, onConflict: conflictResolution, selection: nil).recycle()
  }

  /// Inserts the record and returns the row as stored, decoded as `type`.
  @inlinable
  public func insertAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    var copy = self
    return try db.decodingReturnedRow(as: T.self) { read in
      try copy.insertWithCallbacks(
        db, onConflict: conflictResolution, selection: T.databaseSelection, read: read
      )
      .recycle()
    }
  }

  /// Saves the record and returns the row as stored, decoded as `type`.
  @inlinable
  public func saveAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    var copy = self
    return try db.decodingReturnedRow(as: T.self) { read in
      try copy.saveWithCallbacks(
        db, onConflict: conflictResolution, selection: T.databaseSelection, read: read
      )
      .recycle()
    }
  }
}
