// The …AndFetch methods that take a selection and a `fetch` closure, and
// updateChangesAndFetch. They write through the same actions as the other
// …AndFetch methods (RETURNING where the linked SQLite has it and the table
// has no trigger, else the statement and a read of the stored row in one
// savepoint), and hand `fetch` a statement that yields the stored row, inside
// the write, before `didInsert` or `didUpdate`, where GRDB runs `fetch`.

extension Database {
  /// A statement that yields `row` (its columns, names and values), for the
  /// `fetch` closure of a selection …AndFetch method; one that yields no row
  /// for ``Row/nothingStored`` (an insert the conflict resolution ignored).
  func statementYielding(_ row: Row) throws -> Statement {
    if row === Row.nothingStored { return try cachedStatement(sql: "SELECT NULL WHERE 0") }
    let columns = row.columnNames.map { "? AS \($0.quotedDatabaseIdentifier)" }
    let statement = try cachedStatement(sql: "SELECT " + columns.joined(separator: ", "))
    try statement.setArguments(StatementArguments(row.databaseValues))
    return statement
  }

  /// What `fetch` reads from a statement that yields the row `write` stores,
  /// handed to the reader `write` is given (see
  /// ``decodingReturnedRow(as:_:)``).
  func fetchingReturnedRow<T>(
    _ fetch: (Statement) throws -> T, _ write: (_ read: (Row) throws -> Void) throws -> Void
  ) throws -> T {
    var result: T?
    // Swift refuses a closure that captures `fetch` as the argument of
    // `write`, both non-escaping: neither escapes. (`decodingReturnedRow`
    // is not built on this function: `withoutActuallyEscaping` costs every
    // write that decodes its row an allocation and an atomic operation,
    // measured by `make allocations-release`.)
    try withoutActuallyEscaping(fetch) { fetch in
      try write { result = try fetch(statementYielding($0)) }
    }
    guard let result else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the stored row could not be read back")
    }
    return result
  }
}

extension MutablePersistableRecord {
  /// Inserts the record, and returns what `fetch` reads from a statement that
  /// yields the stored values of `selection`.
  ///
  ///     var player = Player(name: "Arthur")
  ///     let score = try player.insertAndFetch(db, selection: [Column("score")]) { statement in
  ///       try Int.fetchOne(statement)!
  ///     }
  ///
  /// Values set by defaults, triggers or generated columns are included. When
  /// the conflict resolution ignores the insert (`onConflict: .ignore`), the
  /// statement yields no row, as in GRDB: `try Int.fetchOne(statement)` is nil.
  ///
  /// - parameters:
  ///   - db: the connection to write with.
  ///   - conflictResolution: the conflict resolution (default: the record's
  ///     ``MutablePersistableRecord/persistenceConflictPolicy``).
  ///   - selection: the columns or expressions to read; not empty.
  ///   - fetch: reads the result from the statement.
  public mutating func insertAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    precondition(!selection.isEmpty, "Invalid empty selection")
    return try db.fetchingReturnedRow(fetch) { read in
      try insertWithCallbacks(
        db, onConflict: conflictResolution, selection: selection, read: read, readsIgnoredInsert: true
      ).recycle()
    }
  }

  /// Inserts the record, and returns what `fetch` reads from a statement that
  /// yields the stored values of the selection `select` builds from the
  /// record's ``TableRecord/databaseComponents``.
  ///
  ///     var player = Player(name: "Arthur")
  ///     let score = try player.insertAndFetch(db, fetch: { try Int.fetchOne($0)! }) {
  ///       [$0.score]
  ///     }
  ///
  /// See ``insertAndFetch(_:onConflict:selection:fetch:)``.
  public mutating func insertAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable]
  ) throws -> T {
    try insertAndFetch(
      db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
  }

  /// Saves the record (updates it if a row has its primary key, inserts it
  /// otherwise), and returns what `fetch` reads from a statement that yields
  /// the stored values of `selection`.
  ///
  ///     let score = try player.saveAndFetch(db, selection: [Column("score")]) {
  ///       try Int.fetchOne($0)!
  ///     }
  public mutating func saveAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    precondition(!selection.isEmpty, "Invalid empty selection")
    return try db.fetchingReturnedRow(fetch) { read in
      try saveWithCallbacks(db, onConflict: conflictResolution, selection: selection, read: read).recycle()
    }
  }

  /// Updates every column of the table that the record encodes, and returns
  /// what `fetch` reads from a statement that yields the stored values of
  /// `selection`. Throws ``RecordError/recordNotFound(databaseTableName:key:)``
  /// if no row has the record's primary key.
  ///
  ///     let score = try player.updateAndFetch(db, selection: [Column("score")]) {
  ///       try Int.fetchOne($0)!
  ///     }
  public func updateAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    try updateAndFetch(
      db, onConflict: conflictResolution, updating: tableColumns(db), selection: selection, fetch: fetch)
  }

  /// Updates the given columns only, and returns what `fetch` reads from a
  /// statement that yields the stored values of `selection`.
  ///
  ///     let score = try player.updateAndFetch(
  ///       db, columns: ["name"], selection: [Column("score")]
  ///     ) { try Int.fetchOne($0)! }
  public func updateAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    columns: some Collection<String>, selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    try updateAndFetch(
      db, onConflict: conflictResolution, updating: Set(columns), selection: selection, fetch: fetch)
  }

  /// Updates the given columns only, and returns what `fetch` reads from a
  /// statement that yields the stored values of `selection`.
  ///
  ///     let score = try player.updateAndFetch(
  ///       db, columns: [Column("name")], selection: [Column("score")]
  ///     ) { try Int.fetchOne($0)! }
  public func updateAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    columns: some Collection<some ColumnExpression>, selection: [any SQLSelectable],
    fetch: (Statement) throws -> T
  ) throws -> T {
    try updateAndFetch(
      db, onConflict: conflictResolution, updating: Set(columns.map { $0.name }), selection: selection,
      fetch: fetch)
  }

  private func updateAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
    updating columns: Set<String>,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    precondition(!selection.isEmpty, "Invalid empty selection")
    return try db.fetchingReturnedRow(fetch) { read in
      try updateWithCallbacks(
        db, onConflict: conflictResolution, columns: columns, selection: selection, read: read
      )
      .recycle()
    }
  }

  /// Modifies the record, then updates only the columns that changed and
  /// returns what `fetch` reads from a statement that yields the stored
  /// values of `selection`. When nothing changed, runs no statement, does
  /// not call `fetch`, and returns nil.
  ///
  ///     let score = try player.updateChangesAndFetch(
  ///       db, selection: [Column("score")], fetch: { try Int.fetchOne($0)! }
  ///     ) {
  ///       $0.name = "Barbara"
  ///     }
  public mutating func updateChangesAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T, modify: (inout Self) throws -> Void
  ) throws -> T? {
    guard let changed = try changedColumns(modify: modify) else { return nil }
    return try updateAndFetch(
      db, onConflict: conflictResolution, updating: changed, selection: selection, fetch: fetch)
  }

  /// Modifies the record, then updates only the columns that changed and
  /// returns the row as stored, decoded as `type`. When nothing changed, runs
  /// no statement and returns nil.
  ///
  ///     let stored = try player.updateChangesAndFetch(db, as: PlayerInfo.self) {
  ///       $0.score += 10
  ///     }
  public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as type: T.Type,
    modify: (inout Self) throws -> Void
  ) throws -> T? {
    guard let changed = try changedColumns(modify: modify) else { return nil }
    return try db.decodingReturnedRow(as: T.self) { read in
      try updateWithCallbacks(
        db, onConflict: conflictResolution, columns: changed, selection: T.databaseSelection, read: read
      ).recycle()
    }
  }

  /// Applies `modify`; the columns whose values it changed, or nil if none.
  private mutating func changedColumns(modify: (inout Self) throws -> Void) throws -> Set<String>? {
    let changes = try databaseChanges(modify: modify)
    return changes.isEmpty ? nil : Set(changes.keys)
  }
}

extension MutablePersistableRecord where Self: FetchableRecord {
  /// Modifies the record, then updates only the columns that changed and
  /// returns the record as stored (defaults, triggers and generated columns
  /// included). When nothing changed, runs no statement and returns nil.
  ///
  ///     if let stored = try player.updateChangesAndFetch(db, modify: { $0.score += 10 }) {
  ///       print(stored.updatedAt)
  ///     }
  public mutating func updateChangesAndFetch(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    modify: (inout Self) throws -> Void
  ) throws -> Self? {
    try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
  }
}

extension PersistableRecord {
  /// Inserts the record, and returns what `fetch` reads from a statement that
  /// yields the stored values of `selection`. See
  /// ``MutablePersistableRecord/insertAndFetch(_:onConflict:selection:fetch:)``.
  ///
  ///     let createdAt = try event.insertAndFetch(db, selection: [Column("createdAt")]) {
  ///       try Date.fetchOne($0)!
  ///     }
  public func insertAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    precondition(!selection.isEmpty, "Invalid empty selection")
    var copy = self
    return try db.fetchingReturnedRow(fetch) { read in
      try copy.insertWithCallbacks(
        db, onConflict: conflictResolution, selection: selection, read: read, readsIgnoredInsert: true
      ).recycle()
    }
  }

  /// Inserts the record, and returns what `fetch` reads from a statement that
  /// yields the stored values of the selection `select` builds from the
  /// record's ``TableRecord/databaseComponents``.
  ///
  ///     let createdAt = try event.insertAndFetch(db, fetch: { try Date.fetchOne($0)! }) {
  ///       [$0.createdAt]
  ///     }
  public func insertAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable]
  ) throws -> T {
    try insertAndFetch(
      db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
  }

  /// Saves the record, and returns what `fetch` reads from a statement that
  /// yields the stored values of `selection`. See
  /// ``MutablePersistableRecord/saveAndFetch(_:onConflict:selection:fetch:)``.
  ///
  ///     let createdAt = try event.saveAndFetch(db, selection: [Column("createdAt")]) {
  ///       try Date.fetchOne($0)!
  ///     }
  public func saveAndFetch<T>(
    _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
    selection: [any SQLSelectable], fetch: (Statement) throws -> T
  ) throws -> T {
    precondition(!selection.isEmpty, "Invalid empty selection")
    var copy = self
    return try db.fetchingReturnedRow(fetch) { read in
      try copy.saveWithCallbacks(db, onConflict: conflictResolution, selection: selection, read: read)
        .recycle()
    }
  }
}

extension Row {
  /// What an insert that its conflict resolution ignored hands the reader of
  /// a `fetch:` form: no stored row. Recognized by identity, never read.
  static let nothingStored = Row()
}
