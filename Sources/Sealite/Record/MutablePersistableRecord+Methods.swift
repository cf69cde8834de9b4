// insert, update, save, delete, exists and their …AndFetch forms.

extension MutablePersistableRecord {
  /// Inserts the record; `didInsert` receives the new rowid. With
  /// `onConflict: .ignore`, an ignored insert calls no `didInsert`.
  public mutating func insert(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws {
    try insertRecord(db, onConflict: conflictResolution)
  }

  // The implementations have their own names: PersistableRecord's
  // non-mutating methods call them on a copy (calling `insert` there would
  // call themselves).
  mutating func insertRecord(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?)
    throws
  {
    try willSave(db)
    try willInsert(db)
    let container = try persistenceContainer()
    let (success, _) = try performInsert(db, container: container, onConflict: conflictResolution)
    if let success {
      didInsert(success)
      didSave(PersistenceSuccess(persistenceContainer: success.persistenceContainer))
    }
  }

  /// A copy of the record, inserted.
  public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
    throws
    -> Self
  {
    var copy = self
    try copy.insertRecord(db, onConflict: conflictResolution)
    return copy
  }

  /// Inserts the record and returns the row as stored (defaults, triggers and
  /// generated columns included), decoded as `type`. Uses RETURNING where the
  /// linked SQLite has it, else re-reads the row by rowid or primary key in the
  /// same savepoint.
  public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    let row = try insertAndFetchRow(db, onConflict: conflictResolution, selection: T.databaseSelection)
    return try T(row: row)
  }

  mutating func insertAndFetchRow(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]
  ) throws -> Row {
    var row: Row?
    try db.inSavepoint {
      try willSave(db)
      try willInsert(db)
      let container = try persistenceContainer()
      let useReturning = try db.canUseReturning(forTable: Self.databaseTableName)
      let (success, returned) = try performInsert(
        db, container: container, onConflict: conflictResolution,
        returning: useReturning ? selection.map { $0.sqlSelection } : nil)
      guard let success else {
        throw DatabaseError(
          resultCode: .SQLITE_CONSTRAINT, message: "the insert into \(Self.databaseTableName) was ignored")
      }
      row = useReturning ? returned : try Self.refetch(db, success: success, selection: selection)
      didInsert(success)
      didSave(PersistenceSuccess(persistenceContainer: success.persistenceContainer))
      return .commit
    }
    guard let row else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the inserted row could not be read back")
    }
    return row
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

  /// Updates every column of the record, found by primary key; throws
  /// ``RecordError/recordNotFound(databaseTableName:key:)`` if no row has it.
  public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
  {
    try update(db, onConflict: conflictResolution, columnNames: nil)
  }

  /// Updates the given columns only.
  public func update<Columns: Collection>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: Columns
  ) throws where Columns.Element == String {
    try update(db, onConflict: conflictResolution, columnNames: Set(columns))
  }

  /// Updates the given columns only.
  public func update<Columns: Collection>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: Columns
  ) throws where Columns.Element: ColumnExpression {
    try update(db, onConflict: conflictResolution, columnNames: Set(columns.map { $0.name }))
  }

  private func update(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columnNames: Set<String>?
  ) throws {
    var copy = self
    try copy.willSave(db)
    let container = try persistenceContainer()
    try willUpdate(db, columns: columnNames ?? Set(container.columns))
    _ = try performUpdate(db, container: container, columns: columnNames, onConflict: conflictResolution)
    didUpdate(PersistenceSuccess(persistenceContainer: container))
    didSave(PersistenceSuccess(persistenceContainer: container))
  }

  /// Updates the record and returns the row as stored, decoded as `type`.
  public func updateAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    try T(row: updateAndFetchRow(db, onConflict: conflictResolution, selection: T.databaseSelection))
  }

  func updateAndFetchRow(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]
  ) throws -> Row {
    var row: Row?
    try db.inSavepoint {
      var copy = self
      try copy.willSave(db)
      let container = try persistenceContainer()
      try willUpdate(db, columns: Set(container.columns))
      if try db.canUseReturning(forTable: Self.databaseTableName) {
        row = try performUpdate(
          db, container: container, columns: nil, onConflict: conflictResolution,
          returning: selection.map { $0.sqlSelection })
      } else {
        _ = try performUpdate(db, container: container, columns: nil, onConflict: conflictResolution)
        let key = try recordKey(db, container)
        var request = QueryInterfaceRequest<Row>(
          relation: SQLRelation(
            tableName: Self.databaseTableName, selection: selection.map { $0.sqlSelection }))
        request = request.filter(key: key.dictionary.mapValues { $0 as (any DatabaseValueConvertible)? })
        row = try request.fetchOne(db)
      }
      didUpdate(PersistenceSuccess(persistenceContainer: container))
      didSave(PersistenceSuccess(persistenceContainer: container))
      return .commit
    }
    guard let row else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the updated row could not be read back")
    }
    return row
  }

  /// Updates only the columns whose values differ from `record`; runs no
  /// statement and returns false when nothing changed.
  @discardableResult
  public func updateChanges(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, from record: Self
  ) throws -> Bool {
    let changes = try databaseChanges(from: record)
    guard !changes.isEmpty else { return false }
    try update(db, onConflict: conflictResolution, columns: Array(changes.keys))
    return true
  }

  /// Modifies the record, then updates only the columns that changed; runs no
  /// statement and returns false when nothing changed.
  @discardableResult
  public mutating func updateChanges(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    modify: (inout Self) throws -> Void
  ) throws -> Bool {
    let original = self
    try modify(&self)
    return try updateChanges(db, onConflict: conflictResolution, from: original)
  }

  /// Updates the record if a row has its primary key, inserts it otherwise.
  public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
    throws
  {
    try saveRecord(db, onConflict: conflictResolution)
  }

  mutating func saveRecord(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws
  {
    let container = try persistenceContainer()
    let key = try recordKey(db, container)
    if key.isComplete {
      do {
        try update(db, onConflict: conflictResolution)
        return
      } catch RecordError.recordNotFound {
        // No row has the key: insert.
      }
    }
    try insertRecord(db, onConflict: conflictResolution)
  }

  /// A copy of the record, saved.
  public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
    -> Self
  {
    var copy = self
    try copy.saveRecord(db, onConflict: conflictResolution)
    return copy
  }

  /// Saves the record and returns the row as stored, decoded as `type`.
  public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    try T(row: saveAndFetchRow(db, onConflict: conflictResolution, selection: T.databaseSelection))
  }

  mutating func saveAndFetchRow(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    selection: [any SQLSelectable]
  ) throws -> Row {
    let container = try persistenceContainer()
    let key = try recordKey(db, container)
    if key.isComplete {
      do {
        return try updateAndFetchRow(db, onConflict: conflictResolution, selection: selection)
      } catch RecordError.recordNotFound {
        // No row has the key: insert.
      }
    }
    return try insertAndFetchRow(db, onConflict: conflictResolution, selection: selection)
  }

  /// Deletes the row with the record's primary key; returns whether one was deleted.
  @discardableResult
  public func delete(_ db: Database) throws -> Bool {
    try willDelete(db)
    let key = try recordKey(db, try persistenceContainer())
    guard key.isComplete else {
      didDelete(deleted: false)
      return false
    }
    var arguments: [DatabaseValue] = []
    let sql =
      "DELETE FROM \(Self.databaseTableName.quotedDatabaseIdentifier) WHERE \(key.whereClause(&arguments))"
    try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
    let deleted = db.changesCount > 0
    didDelete(deleted: deleted)
    return deleted
  }

  /// True if a row has the record's primary key.
  public func exists(_ db: Database) throws -> Bool {
    let key = try recordKey(db, try persistenceContainer())
    guard key.isComplete else { return false }
    var arguments: [DatabaseValue] = []
    let sql =
      "SELECT 1 FROM \(Self.databaseTableName.quotedDatabaseIdentifier) WHERE \(key.whereClause(&arguments))"
    return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) != nil
  }
}

extension MutablePersistableRecord where Self: FetchableRecord {
  /// Inserts the record and returns it as stored (defaults, triggers and
  /// generated columns included).
  public mutating func insertAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws -> Self {
    try Self(row: insertAndFetchRow(db, onConflict: conflictResolution, selection: Self.databaseSelection))
  }

  /// Updates the record and returns it as stored.
  public func updateAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws -> Self {
    try Self(row: updateAndFetchRow(db, onConflict: conflictResolution, selection: Self.databaseSelection))
  }

  /// Saves the record and returns it as stored.
  public mutating func saveAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  ) throws -> Self {
    try Self(row: saveAndFetchRow(db, onConflict: conflictResolution, selection: Self.databaseSelection))
  }
}

extension PersistableRecord {
  /// Inserts the record.
  public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
  {
    var copy = self
    try copy.insertRecord(db, onConflict: conflictResolution)
  }

  /// Saves the record: updates it if a row has its primary key, inserts it otherwise.
  public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
    var copy = self
    try copy.saveRecord(db, onConflict: conflictResolution)
  }

  /// Inserts the record and returns the row as stored, decoded as `type`.
  public func insertAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    var copy = self
    return try T(
      row: copy.insertAndFetchRow(db, onConflict: conflictResolution, selection: T.databaseSelection))
  }

  /// Saves the record and returns the row as stored, decoded as `type`.
  public func saveAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type
  ) throws -> T {
    var copy = self
    return try T(
      row: copy.saveAndFetchRow(db, onConflict: conflictResolution, selection: T.databaseSelection))
  }
}

extension PersistableRecord where Self: FetchableRecord {
  /// Inserts the record and returns it as stored.
  public func insertAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil
  )
    throws -> Self
  {
    var copy = self
    return try Self(
      row: copy.insertAndFetchRow(db, onConflict: conflictResolution, selection: Self.databaseSelection))
  }

  /// Saves the record and returns it as stored.
  public func saveAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
    throws -> Self
  {
    var copy = self
    return try Self(
      row: copy.saveAndFetchRow(db, onConflict: conflictResolution, selection: Self.databaseSelection))
  }
}
