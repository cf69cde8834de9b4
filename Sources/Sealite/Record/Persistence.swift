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

  /// Runs the INSERT, optionally with the RETURNING clause `returning` (its
  /// SQL and the values it binds), whose row goes to `read`; returns the
  /// success, and whether `INSERT OR IGNORE` inserted nothing (the success
  /// then holds SQLite's last inserted rowid, as GRDB's does, and `read` got
  /// no row). The container moves into the success: each copy of its arrays
  /// would cost a retain and a release, atomic, on every record inserted.
  func performInsert(
    _ db: Database, container: consuming PersistenceContainer, onConflict: Database.ConflictResolution?,
    returning: (sql: String, arguments: [DatabaseValue])? = nil, read: (Row) throws -> Void = { _ in }
  ) throws -> InsertOutcome {
    let resolution = onConflict ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
    let insert = try insertStatement(
      db, columns: container.columns, resolution: resolution, returning: returning?.sql)
    var returnedRow = false
    if _slowPath(returning != nil) {
      returnedRow = try Self.runReturning(
        insert, container, returning.unsafelyUnwrapped.arguments, in: db, read: read)
    } else {
      // The statement has exactly one placeholder per column, in order. The
      // cached insert keeps its statement alive: borrowed, not retained.
      _ = try Unmanaged.passUnretained(insert.statement)._withUnsafeGuaranteedRef {
        try $0.executeBinding(container.values, in: db)
      }
    }
    // The primary key is read where it is, in the cached insert, after the
    // statement ran: a copy taken before would hold a retain of its column
    // names and rowid column across the run.
    let ignored = db.changesCount == 0 && (resolution == .ignore) && !returnedRow
    if _slowPath(ignored) {
      let success = InsertionSuccess(
        rowID: db.lastInsertedRowID, rowIDColumn: insert.primaryKey.rowIDColumn,
        persistenceContainer: container)
      return InsertOutcome(success: success, ignored: true)
    }
    var rowID = db.lastInsertedRowID
    if _slowPath(insert.primaryKey.isWithoutRowID), let key = Self.integerKey(insert.primaryKey, container) {
      // A WITHOUT ROWID table has no rowid: its integer key stands in for it.
      rowID = key
    }
    // The rowid column is copied out of the insert (a name of up to 15 bytes
    // is held in the string's words), where borrowing it would retain the
    // insert across the write of the rowid into the container.
    let (rowIDColumn, rowIDValueIndex) = Unmanaged.passUnretained(insert)._withUnsafeGuaranteedRef {
      ($0.primaryKey.rowIDColumn, $0.rowIDValueIndex)
    }
    return InsertOutcome(
      success: InsertionSuccess(
        rowID: rowID, rowIDColumn: rowIDColumn, writtenTo: container, at: rowIDValueIndex),
      ignored: false)
  }

  /// Runs an INSERT with a RETURNING clause, hands `read` the row it
  /// returns, where the statement holds it, and tells whether there was one.
  /// The statement runs to its one row without a cursor: the insert is done
  /// at the first step, and the run ends as a dropped cursor's would (as an
  /// upsert's). Not inlined in the insert without RETURNING, which runs most.
  @inline(never)
  private static func runReturning(
    _ insert: RecordInsertStatement, _ container: borrowing PersistenceContainer,
    _ returningArguments: [DatabaseValue], in db: Database, read: (Row) throws -> Void
  ) throws -> Bool {
    // The values of the columns, then those of the RETURNING clause.
    let statement = try insert.statement.idleOrNew(in: db)
    try statement.bindInOrder(
      returningArguments.isEmpty ? container.values : container.values + returningArguments)
    defer { statement.forgetBoundValues() }
    return try statement.withFirstRow(in: db, read) != nil
  }

  /// The INSERT statement for these columns, with the table's primary key,
  /// and with the RETURNING clause `returning`, if any. Remembered per
  /// connection until the schema changes: building the SQL and reading the
  /// schema once, not once per record.
  private func insertStatement(
    _ db: Database, columns: [String], resolution: Database.ConflictResolution, returning: String? = nil
  ) throws -> RecordInsertStatement {
    try db.withRecordStatements { cache in
      let table = Self.databaseTableName
      let clauses = Self.clauses(resolution, returning: returning)
      if let insert = cache.insertStatements.lastHitValue(recognizing: { $0.isKey(table, columns, clauses) })
      {
        return insert
      }
      return try findInsertStatement(
        db, cache, table: table, columns: columns, clauses: clauses, resolution: resolution,
        returning: returning)
    }
  }

  /// The INSERT statement of a key other than the last one looked up: out of
  /// line, so that the loop that inserts records of one type runs the check
  /// of the last key only.
  @inline(never)
  private func findInsertStatement(
    _ db: Database, _ cache: RecordStatementCache, table: String, columns: [String], clauses: String,
    resolution: Database.ConflictResolution, returning: String?
  ) throws -> RecordInsertStatement {
    try cache.insertStatements.value(
      recognizing: { $0.isKey(table, columns, clauses) },
      makeKey: { RecordStatementKey(table: table, columns: columns, clauses: clauses) },
      orMake: {
        try makeInsertStatement(db, columns: columns, resolution: resolution, returning: returning)
      })
  }

  /// Builds the INSERT statement that ``insertStatement(_:columns:resolution:returning:)``
  /// did not find in the cache. Not inlined there: the loop that inserts
  /// records is better off without this code in the instruction cache.
  @inline(never)
  private func makeInsertStatement(
    _ db: Database, columns: [String], resolution: Database.ConflictResolution, returning: String?
  ) throws -> RecordInsertStatement {
    let table = Self.databaseTableName.quotedDatabaseIdentifier
    var sql = "INSERT \(resolution.orClause)INTO \(table)"
    if columns.isEmpty {
      sql += " DEFAULT VALUES"
    } else {
      let columnList = columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")
      let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ",")
      sql += " (\(columnList)) VALUES (\(placeholders))"
    }
    if let returning { sql += " RETURNING " + returning }
    return RecordInsertStatement(
      statement: try db.cachedStatement(sql: sql),
      primaryKey: try db.recordPrimaryKey(Self.databaseTableName),
      columns: columns)
  }

  /// Runs the UPDATE of the record's columns that are in `columns`, but not
  /// in the primary key; throws `recordNotFound` when no row has the
  /// record's key. With no such column, the key columns are written with
  /// their own values: the row still counts as updated for triggers and
  /// observers, and a missing row is still found missing (as GRDB does).
  func performUpdate(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    onConflict: Database.ConflictResolution?
  ) throws {
    let resolution = onConflict ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
    let update = try updateStatement(db, container: container, columns: columns, resolution: resolution)
    // The cached update keeps its statement and the indexes of its
    // values: borrowed, not retained.
    let ran = try Unmanaged.passUnretained(update)._withUnsafeGuaranteedRef { update in
      guard let indexes = update.valueIndexes, update.hasCompleteKey(in: container) else { return false }
      try update.statement.executeBinding(container.values, picking: indexes, in: db)
      return true
    }
    if _slowPath(!ran || db.changesCount == 0) { throw try recordNotFound(db, container) }
  }

  /// Runs the UPDATE with a RETURNING clause of `returning`, and hands
  /// `read` the row it returns, where the statement holds it. The statement
  /// runs to its one row without a cursor, as an upsert's. Not inlined in
  /// the update without one, which runs most: its loop is better off
  /// without this code in the instruction cache.
  @inline(never)
  func performUpdate(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    onConflict: Database.ConflictResolution?, returning: [any SQLSelectable],
    read: (Row) throws -> Void
  ) throws {
    let resolution = onConflict ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
    // The values of the RETURNING clause are those of this call's selection
    // (see performInsert).
    let (returningSQL, returningArguments) = try db.withRecordStatements {
      try $0.returningClause(returning, of: Self.self, db)
    }
    let update = try updateStatement(
      db, container: container, columns: columns, resolution: resolution, returning: returningSQL)
    guard let indexes = update.valueIndexes(in: container) else { throw try recordNotFound(db, container) }
    // The SET and WHERE values, then those of the RETURNING clause.
    let statement = try update.statement.idleOrNew(in: db)
    try statement.bindInOrder(
      returningArguments.isEmpty
        ? container.values : indexes.map { container.values[$0] } + returningArguments,
      picking: returningArguments.isEmpty ? indexes : nil)
    defer { statement.forgetBoundValues() }
    guard try statement.withFirstRow(in: db, read) != nil else { throw try recordNotFound(db, container) }
  }

  /// The UPDATE statement for these record columns, updated columns and
  /// conflict resolution, remembered per connection until the schema changes.
  private func updateStatement(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    resolution: Database.ConflictResolution, returning: String? = nil
  ) throws -> RecordUpdateStatement {
    try db.withRecordStatements { cache in
      let table = Self.databaseTableName
      let clauses = Self.clauses(resolution, returning: returning)
      if let update = cache.updateStatements.lastHitValue(recognizing: {
        $0.isKey(table, container.columns, columns, clauses)
      }) {
        return update
      }
      return try findUpdateStatement(
        db, cache, table: table, container: container, columns: columns, clauses: clauses,
        resolution: resolution,
        returning: returning)
    }
  }

  /// The UPDATE statement of a key other than the last one looked up, out of
  /// line (see ``findInsertStatement(_:_:table:columns:clauses:resolution:returning:)``).
  @inline(never)
  private func findUpdateStatement(
    _ db: Database, _ cache: RecordStatementCache, table: String, container: PersistenceContainer,
    columns: Set<String>, clauses: String, resolution: Database.ConflictResolution, returning: String?
  ) throws -> RecordUpdateStatement {
    try cache.updateStatements.value(
      recognizing: { $0.isKey(table, container.columns, columns, clauses) },
      makeKey: {
        RecordUpdateKey(table: table, recordColumns: container.columns, columns: columns, clauses: clauses)
      },
      orMake: {
        try makeUpdateStatement(
          db, container: container, columns: columns, resolution: resolution, returning: returning)
      })
  }

  /// Builds the UPDATE statement that ``updateStatement(_:container:columns:resolution:)``
  /// did not find in the cache. Not inlined there: the loop that updates
  /// records is better off without this code in the instruction cache.
  @inline(never)
  private func makeUpdateStatement(
    _ db: Database, container: PersistenceContainer, columns: Set<String>,
    resolution: Database.ConflictResolution, returning: String?
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
    let assignments = updated.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: ", ")
    let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
    var sql = "UPDATE \(resolution.orClause)\(table) SET \(assignments) WHERE \(condition)"
    if let returning { sql += " RETURNING " + returning }
    let indexes = (updated + keyColumns).map { container.index(of: $0) }
    return RecordUpdateStatement(
      statement: try db.cachedStatement(sql: sql),
      valueIndexes: indexes.contains(nil) ? nil : indexes.compactMap { $0 }, keyCount: keyColumns.count)
  }
}

extension MutablePersistableRecord {
  /// The conflict resolution and RETURNING clause of a cached statement's
  /// key (see ``RecordStatementKey/clauses``). Inlined: without RETURNING,
  /// a write finds its statement by the resolution's own constant string.
  @inline(__always)
  fileprivate static func clauses(_ resolution: Database.ConflictResolution, returning: String?) -> String {
    guard let returning else { return resolution.rawValue }
    return "\(resolution.rawValue) RETURNING \(returning)"
  }
}

extension InsertionSuccess {
  /// The success of an insert or upsert of `container` that wrote the row
  /// `rowID`: the container, with the rowid in `rowIDColumn`, the column
  /// that aliases it, if any.
  /// `index`, if given, is where the container holds the value of
  /// `rowIDColumn` (see ``RecordInsertStatement/rowIDValueIndex``).
  init(
    rowID: Int64, rowIDColumn: String?, writtenTo container: consuming PersistenceContainer,
    at index: Int? = nil
  ) {
    if let rowIDColumn {
      container.setUnlessIdentical(DatabaseValue(storage: .int64(rowID)), forColumn: rowIDColumn, at: index)
    }
    self.init(rowID: rowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
  }
}
