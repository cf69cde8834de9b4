// The statements behind insert and update (delete and exists: RecordKeyStatements.swift).
// Statements are compiled once per connection and column list (the connection's
// record statement cache).

/// The primary key of a record's table and the values the record holds for it.
struct RecordKey {
  let primaryKey: RecordPrimaryKey
  /// Column and value pairs; nil values mean the record has no key yet.
  let values: [(String, DatabaseValue?)]

  var dictionary: [String: DatabaseValue] {
    Dictionary(values.map { ($0.0, $0.1 ?? .null) }, uniquingKeysWith: { first, _ in first })
  }
}

extension MutablePersistableRecord {
  func recordKey(_ db: Database, _ container: PersistenceContainer) throws -> RecordKey {
    let primaryKey = try db.recordPrimaryKey(Self.databaseTableName)
    return RecordKey(
      primaryKey: primaryKey,
      values: primaryKey.columns.map { ($0, container.databaseValue(forColumn: $0)) })
  }

  /// Runs the INSERT, optionally with RETURNING; returns the success, the
  /// returned row, if any, and whether `INSERT OR IGNORE` inserted nothing
  /// (the success then holds SQLite's last inserted rowid, as GRDB's does).
  /// The container moves into the success: each copy of its arrays would
  /// cost a retain and a release, atomic, on every record inserted.
  func performInsert(
    _ db: Database, container: consuming PersistenceContainer, onConflict: Database.ConflictResolution?,
    returning: [SQLSelection]? = nil
  ) throws -> InsertOutcome {
    let resolution = onConflict ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
    let insert = try insertStatement(
      db, columns: container.columns, resolution: resolution, returning: returning)
    var returnedRow: Row?
    if returning != nil {
      returnedRow = try Self.runReturning(insert, container)
    } else {
      // The statement has exactly one placeholder per column, in order. The
      // cached insert keeps its statement alive: borrowed, not retained.
      try Unmanaged.passUnretained(insert.statement)._withUnsafeGuaranteedRef {
        try $0.executeBinding(container.values, in: db)
      }
    }
    // The primary key is read where it is, in the cached insert, after the
    // statement ran: a copy taken before would hold a retain of its column
    // names and rowid column across the run.
    let ignored = db.changesCount == 0 && (resolution == .ignore) && returnedRow == nil
    if ignored {
      let success = InsertionSuccess(
        rowID: db.lastInsertedRowID, rowIDColumn: insert.primaryKey.rowIDColumn,
        persistenceContainer: container)
      return InsertOutcome(success: success, row: nil, ignored: true)
    }
    var rowID = db.lastInsertedRowID
    if insert.primaryKey.isWithoutRowID, let key = Self.integerKey(insert.primaryKey, container) {
      // A WITHOUT ROWID table has no rowid: its integer key stands in for it.
      rowID = key
    }
    // The rowid column is copied out of the insert (a name of up to 15 bytes
    // is held in the string's words), where borrowing it would retain the
    // insert across the write of the rowid into the container.
    let rowIDColumn = Unmanaged.passUnretained(insert)._withUnsafeGuaranteedRef { $0.primaryKey.rowIDColumn }
    return InsertOutcome(
      success: InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, writtenTo: container),
      row: returnedRow, ignored: false)
  }

  /// Runs an INSERT with a RETURNING clause, and returns the row it
  /// returns. Not inlined in the insert without one, which runs most.
  @inline(never)
  private static func runReturning(
    _ insert: RecordInsertStatement, _ container: borrowing PersistenceContainer
  )
    throws -> Row?
  {
    // The values of the columns, then those of the RETURNING clause.
    let arguments = StatementArguments(container.valuesForBinding) + insert.returningArguments
    return try Row.fetchOne(insert.statement, arguments: arguments)
  }

  /// The INSERT statement for these columns, with the table's primary key
  /// and the arguments of the RETURNING clause (values a selection binds).
  /// Without RETURNING, remembered per connection until the schema changes:
  /// building the SQL and reading the schema once, not once per record.
  private func insertStatement(
    _ db: Database, columns: [String], resolution: Database.ConflictResolution, returning: [SQLSelection]?
  ) throws -> RecordInsertStatement {
    try db.withRecordStatements { cache in
      let key = RecordStatementKey(
        table: Self.databaseTableName, columns: columns, resolution: resolution.rawValue)
      if returning == nil, let cached = cache.insertStatements.value(for: key) {
        return cached
      }
      let insert = try makeInsertStatement(db, columns: columns, resolution: resolution, returning: returning)
      if returning == nil { cache.insertStatements.set(insert, for: key) }
      return insert
    }
  }

  /// Builds the INSERT statement that ``insertStatement(_:columns:resolution:returning:)``
  /// did not find in the cache. Not inlined there: the loop that inserts
  /// records is better off without this code in the instruction cache.
  @inline(never)
  private func makeInsertStatement(
    _ db: Database, columns: [String], resolution: Database.ConflictResolution, returning: [SQLSelection]?
  ) throws -> RecordInsertStatement {
    let table = Self.databaseTableName.quotedDatabaseIdentifier
    var sql = "INSERT \(resolution.orClause)INTO \(table)"
    if columns.isEmpty {
      sql += " DEFAULT VALUES"
    } else {
      let columnList = columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")
      let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
      sql += " (\(columnList)) VALUES (\(placeholders))"
    }
    var returningArguments = StatementArguments()
    if let returning {
      let context = SQLGenerationContext(db: db)
      sql += " RETURNING " + (try returning.map { try $0.sql(context) }.joined(separator: ", "))
      returningArguments = context.arguments ?? StatementArguments()
    }
    return RecordInsertStatement(
      statement: try db.cachedStatement(sql: sql),
      primaryKey: try db.recordPrimaryKey(Self.databaseTableName),
      returningArguments: returningArguments)
  }

  /// Runs the UPDATE of the record's columns that are in `columns`, but not
  /// in the primary key; throws `recordNotFound` when no row has the
  /// record's key. With no such column, the key columns are written with
  /// their own values: the row still counts as updated for triggers and
  /// observers, and a missing row is still found missing (as GRDB does).
  func performUpdate(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    onConflict: Database.ConflictResolution?,
    returning: [SQLSelection]? = nil
  ) throws -> Row? {
    let resolution = onConflict ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
    let update = try updateStatement(db, container: container, columns: columns, resolution: resolution)
    guard let returning else {
      // The cached update keeps its statement and the indexes of its
      // values: borrowed, not retained.
      let ran = try Unmanaged.passUnretained(update)._withUnsafeGuaranteedRef { update in
        guard let indexes = update.valueIndexes, update.hasCompleteKey(in: container) else { return false }
        try update.statement.executeBinding(container.values, picking: indexes, in: db)
        return true
      }
      if !ran || db.changesCount == 0 { throw try recordNotFound(db, container) }
      return nil
    }
    return try performUpdate(db, update, container: container, returning: returning)
  }

  /// Runs `update` with a RETURNING clause, and returns the row it returns.
  /// Not inlined in the update without one, which runs most: its loop is
  /// better off without this code in the instruction cache.
  @inline(never)
  private func performUpdate(
    _ db: Database, _ update: RecordUpdateStatement, container: PersistenceContainer,
    returning: [SQLSelection]
  ) throws -> Row {
    guard let indexes = update.valueIndexes(in: container) else { throw try recordNotFound(db, container) }
    let context = SQLGenerationContext(db: db)
    let sql =
      update.statement.sql + " RETURNING "
      + (try returning.map { try $0.sql(context) }.joined(separator: ", "))
    // The SET and WHERE values, then those of the RETURNING clause.
    var arguments = StatementArguments()
    arguments.values = indexes.map { container.values[$0] }
    let returnedRow = try Row.fetchOne(
      db.cachedStatement(sql: sql), arguments: arguments + (context.arguments ?? StatementArguments()))
    guard let returnedRow else { throw try recordNotFound(db, container) }
    return returnedRow
  }

  /// The UPDATE statement for these record columns, updated columns and
  /// conflict resolution, remembered per connection until the schema changes.
  private func updateStatement(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    resolution: Database.ConflictResolution
  ) throws -> RecordUpdateStatement {
    try db.withRecordStatements { cache in
      let key = RecordUpdateKey(
        table: Self.databaseTableName, recordColumns: container.columns, columns: columns,
        resolution: resolution.rawValue)
      if let cached = cache.updateStatements.value(for: key) { return cached }
      let update = try makeUpdateStatement(db, container: container, columns: columns, resolution: resolution)
      cache.updateStatements.set(update, for: key)
      return update
    }
  }

  /// Builds the UPDATE statement that ``updateStatement(_:container:columns:resolution:)``
  /// did not find in the cache. Not inlined there: the loop that updates
  /// records is better off without this code in the instruction cache.
  @inline(never)
  private func makeUpdateStatement(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    resolution: Database.ConflictResolution
  ) throws -> RecordUpdateStatement {
    let keyColumns = try db.recordPrimaryKey(Self.databaseTableName).columns
    let keyNames = Set(keyColumns.map { $0.nameKey })
    let wanted = Set(columns.map { $0.nameKey })
    // In the table's order, as the schema spells them.
    var updated = try db.columns(in: Self.databaseTableName).map { $0.name }.filter {
      let name = $0.nameKey
      return wanted.contains(name) && container.index(of: $0) != nil && !keyNames.contains(name)
    }
    if updated.isEmpty {
      updated = keyColumns
    }
    let table = Self.databaseTableName.quotedDatabaseIdentifier
    let assignments = updated.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
    let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
    let sql = "UPDATE \(resolution.orClause)\(table) SET \(assignments) WHERE \(condition)"
    let indexes = (updated + keyColumns).map { container.index(of: $0) }
    return RecordUpdateStatement(
      statement: try db.cachedStatement(sql: sql),
      valueIndexes: indexes.contains(nil) ? nil : indexes.compactMap { $0 }, keyCount: keyColumns.count)
  }
}

extension InsertionSuccess {
  /// The success of an insert or upsert of `container` that wrote the row
  /// `rowID`: the container, with the rowid in `rowIDColumn`, the column
  /// that aliases it, if any.
  init(rowID: Int64, rowIDColumn: String?, writtenTo container: consuming PersistenceContainer) {
    if let rowIDColumn {
      container.setUnlessIdentical(DatabaseValue(storage: .int64(rowID)), forColumn: rowIDColumn)
    }
    self.init(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
  }
}

extension PersistenceContainer {
  /// The values, as statement arguments.
  var valuesForBinding: [(any DatabaseValueConvertible)?] { values.map { $0 } }
}
