import CSQLCipher

/// Which columns an upsert overwrites when the row already exists.
public enum UpsertUpdateStrategy: Sendable {
  /// Every column the record encodes, except the primary key and the conflict
  /// target, takes the inserted value; `doUpdate` assignments override, and
  /// `Column(…).noOverwrite` keeps a column. Columns the record does not
  /// encode are never touched.
  case allColumns
  /// Only the `doUpdate` assignments are applied: an existing row is otherwise
  /// left as it is.
  case noColumnUnlessSpecified
}

/// The parameters of an upsert.
@usableFromInline
struct UpsertPlan {
  let conflictTarget: [String]
  let strategy: UpsertUpdateStrategy
  let excluded: SQLTableAlias
  let userAssignments: [ColumnAssignment]

  /// SQLite's `excluded` row, one alias for every upsert: an alias never
  /// changes, and its columns always render qualified.
  static let excludedRow = SQLTableAlias(name: "excluded", forcesQualification: true)

  /// The assignments of the DO UPDATE clause, with `excluded` values.
  func assignments(container: PersistenceContainer, keyColumns: [String]) -> [ColumnAssignment] {
    let protected = Set((keyColumns + conflictTarget).map { $0.nameKey })
    // The program's assignments come first, then the columns the record
    // overwrites, as GRDB writes them.
    var result: [ColumnAssignment] = []
    for assignment in userAssignments {
      result.removeAll { $0.columnName.sameName(as: assignment.columnName) }
      if assignment.value != nil { result.append(assignment) }
    }
    guard strategy == .allColumns else { return result }
    for column in container.columns where !protected.contains(column.nameKey) {
      if userAssignments.contains(where: { $0.columnName.sameName(as: column) }) { continue }
      result.append(
        ColumnAssignment(columnName: column, value: SQLExpression(.column(column, alias: excluded))))
    }
    return result
  }
}

extension MutablePersistableRecord {
  /// Inserts the record, or updates the row it conflicts with (see
  /// ``UpsertUpdateStrategy/allColumns``). Keeps the rowid of an existing row,
  /// deletes nothing, fires no cascade. `didInsert` receives the row's rowid.
  @inlinable
  public mutating func upsert(_ db: Database) throws {
    try upsertWithCallbacks(
      db, plan: makePlan(conflictTarget: [], strategy: .allColumns, doUpdate: nil), selection: []
    ) { _ in }
  }

  /// Upserts the record and returns the row as stored, decoded as `type`.
  ///
  /// - parameters:
  ///   - db: the connection to write with.
  ///   - returnedType: the type to decode the stored row as.
  ///   - conflictTarget: the columns of the uniqueness constraint to handle
  ///     (any constraint when empty).
  ///   - strategy: which columns an existing row takes from the record.
  ///   - assignments: extra or overriding assignments; `excluded[column]` is
  ///     the value the insert would have written.
  @inlinable
  public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String] = [],
    updating strategy: UpsertUpdateStrategy = .allColumns,
    doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
  ) throws -> T {
    let plan = makePlan(conflictTarget: conflictTarget, strategy: strategy, doUpdate: assignments)
    return try upsertAndDecode(db, plan: plan, as: T.self)
  }

  @usableFromInline
  func makePlan(
    conflictTarget: [String], strategy: UpsertUpdateStrategy,
    doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?
  ) -> UpsertPlan {
    UpsertPlan(
      conflictTarget: conflictTarget, strategy: strategy, excluded: UpsertPlan.excludedRow,
      userAssignments: doUpdate?(TableAlias(alias: UpsertPlan.excludedRow)) ?? [])
  }

  /// The upsert with its callbacks, and the stored row decoded as `T`.
  @inlinable
  mutating func upsertAndDecode<T: FetchableRecord & TableRecord>(
    _ db: Database, plan: UpsertPlan, as type: T.Type
  ) throws -> T {
    try db.decodingReturnedRow(as: T.self) { read in
      try upsertWithCallbacks(db, plan: plan, selection: T.databaseSelection, read: read)
    }
  }

  /// willSave → aroundSave { willInsert → aroundInsert { upsert } → didInsert } → didSave,
  /// as GRDB runs the callbacks of an upsert. When `selection` is not empty,
  /// `read` receives the stored row inside the insert, before `didInsert`,
  /// as GRDB decodes it: a row of the statement that returned it, read where
  /// the statement holds it, not copied.
  @inlinable
  mutating func upsertWithCallbacks(
    _ db: Database, plan: UpsertPlan, selection: [any SQLSelectable], read: (Row) throws -> Void
  ) throws {
    var outcome = try withSaveCallbacks(db) {
      SaveOutcome(
        try withInsertCallbacks(db) { record in
          try record.upsertAction(db, plan: plan, selection: selection, read: read)
        })
    }
    outcome.success.persistenceContainer.recycle()
  }

  /// The upsert statements, without callbacks: one statement where SQLite has
  /// RETURNING (atomic by itself), several in one savepoint otherwise. When
  /// `selection` is not empty, `read` receives the stored row.
  @usableFromInline
  func upsertAction(
    _ db: Database, plan: UpsertPlan, selection: [any SQLSelectable], read: (Row) throws -> Void
  ) throws -> InsertOutcome {
    let container = try persistenceContainer()
    if SQLiteFeatures.linked.supports(.returning) {
      // RETURNING misses what AFTER triggers wrote: with triggers, the row is
      // read again after the upsert, and the returned one is kept in case
      // that finds none.
      guard !selection.isEmpty, try db.recordTableHasTriggers(Self.databaseTableName) else {
        return try nativeUpsert(db, container: container, plan: plan, selection: selection, read: read)
      }
      var returned: Row?
      let outcome = try nativeUpsert(
        db, container: container, plan: plan, selection: selection, read: { returned = $0.copy() })
      guard let row = try Self.refetch(db, success: outcome.success, selection: selection) ?? returned else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upsert returned no row")
      }
      try read(row)
      return outcome
    }
    var emulated: (InsertionSuccess, Row)?
    try db.inSavepoint {
      emulated = try emulatedUpsert(db, container: container, plan: plan, selection: selection)
      return .commit
    }
    guard let emulated else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upserted row could not be read back")
    }
    if !selection.isEmpty { try read(emulated.1) }
    return InsertOutcome(success: emulated.0, ignored: false)
  }

  /// `INSERT … ON CONFLICT … DO UPDATE … RETURNING` (SQLite 3.35+). When
  /// `selection` is not empty, `read` receives the returned row, where the
  /// statement holds it.
  private func nativeUpsert(
    _ db: Database, container: consuming PersistenceContainer, plan: UpsertPlan,
    selection: [any SQLSelectable], read: (Row) throws -> Void
  ) throws -> InsertOutcome {
    let (upsert, arguments) = try upsertStatement(db, container: container, plan: plan, selection: selection)
    let statement = try upsert.statement.idleOrNew(in: db)
    // The record's values, then those the RETURNING clause binds. The
    // statement runs to its one row without a cursor: the upsert is done at
    // the first step, and the run ends as a dropped cursor's would.
    try statement.bindInOrder(arguments.isEmpty ? container.values : container.values + arguments)
    // The container's values are handed on for reuse (see executeBinding).
    defer { statement.forgetBoundValues() }
    let rowID: Int64
    if selection.isEmpty && upsert.returnsRowID {
      // `upsert(_:)`: only the rowid comes back, read with the C API (a
      // rowid is never NULL).
      guard
        let returned = try statement.withFirstStep(
          in: db, { sqlite3_column_int64($0, 0) })
      else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upsert returned no row")
      }
      rowID = returned
    } else if selection.isEmpty {
      // A WITHOUT ROWID table: the statement returns 1, and the key stands
      // in for the rowid.
      guard try statement.withFirstStep(in: db, { _ in () }) != nil else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upsert returned no row")
      }
      rowID = Self.integerKey(upsert.primaryKey, container) ?? db.lastInsertedRowID
    } else if upsert.returnsRowID {
      // The selection's columns, without the rowid that ends RETURNING (read
      // with the C API).
      guard
        let returned = try statement.withFirstRowWithoutLastColumn(
          in: db,
          { live, sqliteStatement -> Int64 in
            try read(live)
            return sqlite3_column_int64(sqliteStatement, CInt(live.count))
          })
      else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upsert returned no row")
      }
      rowID = returned
    } else {
      // A WITHOUT ROWID table: the selection's columns only.
      guard try statement.withFirstRow(in: db, read) != nil else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upsert returned no row")
      }
      rowID = Self.integerKey(upsert.primaryKey, container) ?? db.lastInsertedRowID
    }
    // The primary key is read in the cached upsert, not copied out of it
    // before the run (see performInsert).
    let rowIDColumn = Unmanaged.passUnretained(upsert)._withUnsafeGuaranteedRef { $0.primaryKey.rowIDColumn }
    return InsertOutcome(
      success: InsertionSuccess(rowID: rowID, rowIDColumn: rowIDColumn, writtenTo: container), ignored: false)
  }

  /// The upsert statement for these columns, conflict target, strategy and
  /// selection, and the values it binds after the record's. Without
  /// `doUpdate` assignments (which bind values of their own), remembered per
  /// connection until the schema changes.
  private func upsertStatement(
    _ db: Database, container: PersistenceContainer, plan: UpsertPlan, selection: [any SQLSelectable]
  ) throws -> (RecordUpsertStatement, [DatabaseValue]) {
    try db.withRecordStatements { cache in
      var returning = ""
      var returningArguments: [DatabaseValue] = []
      if !selection.isEmpty {
        (returning, returningArguments) = try cache.returningClause(selection, of: Self.self, db)
      }
      let key = RecordUpsertKey(
        table: Self.databaseTableName, columns: container.columns, conflictTarget: plan.conflictTarget,
        strategy: plan.strategy, returning: returning)
      let isCacheable = plan.userAssignments.isEmpty
      if isCacheable, let cached = cache.upsertStatements.value(for: key) {
        // A cacheable plan has no assignments of its own to bind.
        return (cached, returningArguments)
      }
      let (upsert, assignmentArguments) = try makeUpsertStatement(
        db, container: container, plan: plan, returning: returning)
      if isCacheable { cache.upsertStatements.set(upsert, for: key) }
      return (upsert, assignmentArguments + returningArguments)
    }
  }

  /// Builds the upsert statement that ``upsertStatement(_:container:plan:selection:)``
  /// did not find in the cache, and the values its assignments bind. Not
  /// inlined there: the loop that upserts records is better off without this
  /// code in the instruction cache.
  @inline(never)
  private func makeUpsertStatement(
    _ db: Database, container: PersistenceContainer, plan: UpsertPlan, returning: String
  ) throws -> (RecordUpsertStatement, [DatabaseValue]) {
    let primaryKey = try db.recordPrimaryKey(Self.databaseTableName)
    let context = SQLGenerationContext(db: db)
    let table = Self.databaseTableName.quotedDatabaseIdentifier
    var sql = "INSERT INTO \(table)"
    if container.columns.isEmpty {
      sql += " DEFAULT VALUES"
    } else {
      sql += " (\(container.columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")))"
      let placeholders = Array(repeating: "?", count: container.columns.count).joined(separator: ",")
      sql += " VALUES (\(placeholders))"
    }
    sql += " ON CONFLICT"
    if !plan.conflictTarget.isEmpty {
      sql += "(\(plan.conflictTarget.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")))"
    }
    var assignments = plan.assignments(
      container: container, keyColumns: primaryKey.isHiddenRowID ? [] : primaryKey.columns)
    if assignments.isEmpty {
      // RETURNING returns nothing after DO NOTHING: a no-op assignment keeps
      // the existing row and still returns it.
      let column = plan.conflictTarget.first ?? primaryKey.columns.first ?? "rowid"
      assignments = [
        ColumnAssignment(columnName: column, value: SQLExpression(.column(column, alias: nil)))
      ]
    }
    sql += " DO UPDATE SET " + (try assignments.map { try $0.sql(context) }.joined(separator: ", "))
    // The values of the assignments come after the record's, before those of
    // RETURNING.
    let assignmentArguments = context.arguments?.values ?? []
    var returned = returning.isEmpty ? [] : [returning]
    let returnsRowID = !primaryKey.isWithoutRowID
    if returnsRowID { returned.append("\"rowid\"") }
    if returned.isEmpty { returned = ["1"] }
    sql += " RETURNING " + returned.joined(separator: ", ")
    let statement = try db.cachedStatement(sql: sql)
    let upsert = RecordUpsertStatement(
      statement: statement, primaryKey: primaryKey, returnsRowID: returnsRowID)
    return (upsert, assignmentArguments)
  }

  /// Finds the row the insert would conflict with, then updates it or inserts:
  /// the same stored row and returned record as the native upsert, for SQLite
  /// before 3.35.
  private func emulatedUpsert(
    _ db: Database, container: PersistenceContainer, plan: UpsertPlan, selection: [any SQLSelectable]
  ) throws -> (InsertionSuccess, Row) {
    let primaryKey = try db.recordPrimaryKey(Self.databaseTableName)
    let keyColumn = primaryKey.isWithoutRowID ? nil : "rowid"
    let candidates: [[String]]
    if plan.conflictTarget.isEmpty {
      candidates = try Self.uniqueKeys(db, primaryKey: primaryKey)
    } else {
      candidates = [plan.conflictTarget]
    }
    var conditions: [SQLExpression] = []
    for columns in candidates {
      let values = columns.map { container.databaseValue(forColumn: $0) }
      // NULLs never conflict, and a key the record does not write can not either.
      guard values.allSatisfy({ $0 != nil && !$0!.isNull }) else { continue }
      let terms = zip(columns, values).map { column, value in
        SQLExpression(.binary("=", SQLExpression(.column(column, alias: nil)), SQLExpression(.value(value!))))
      }
      conditions.append(SQLExpression(.associative("AND", terms, empty: "1")))
    }
    let locator: [any SQLSelectable] = keyColumn.map { [Column($0)] } ?? primaryKey.columns.map { Column($0) }
    var existing: Row?
    if !conditions.isEmpty {
      existing = try QueryInterfaceRequest<Row>(
        relation: SQLRelation(tableName: Self.databaseTableName, selection: locator.map { $0.sqlSelection })
      ).filter(SQLExpression(.associative("OR", conditions, empty: "0"))).fetchOne(db)
    }
    guard let existing else {
      let success = try performInsert(db, container: copy container, onConflict: .abort).success
      guard
        let row = try Self.refetch(
          db, success: success, selection: selection.isEmpty ? [AllColumns()] : selection)
      else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upserted row could not be read back")
      }
      return (success, row)
    }
    let assignments = plan.assignments(
      container: container, keyColumns: primaryKey.isHiddenRowID ? [] : primaryKey.columns
    )
    .map { assignment in
      ColumnAssignment(
        columnName: assignment.columnName,
        value: assignment.value?.substituting(plan.excluded) {
          container.databaseValue(forColumn: $0) ?? .null
        })
    }
    let locatorKey = Dictionary(
      zip(existing.columnNames, existing.databaseValues).map {
        ($0.0, $0.1 as (any DatabaseValueConvertible)?)
      },
      uniquingKeysWith: { first, _ in first })
    let target = QueryInterfaceRequest<Row>(
      relation: SQLRelation(tableName: Self.databaseTableName, selection: [AllColumns().sqlSelection])
    ).filter(key: locatorKey)
    if !assignments.isEmpty {
      try target.updateAll(db, assignments)
    }
    let returned = selection.isEmpty ? target : target.select(selection)
    guard let row = try returned.fetchOne(db) else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the upserted row could not be read back")
    }
    let rowID: Int64
    if keyColumn != nil {
      rowID = try existing.decode(Int64.self, atIndex: 0)
    } else {
      rowID = Self.integerKey(primaryKey, container) ?? 0
    }
    return (InsertionSuccess(rowID: rowID, rowIDColumn: primaryKey.rowIDColumn, writtenTo: container), row)
  }

  /// The single integer key of a WITHOUT ROWID table, which stands in for a rowid.
  static func integerKey(_ primaryKey: RecordPrimaryKey, _ container: PersistenceContainer) -> Int64? {
    guard primaryKey.columns.count == 1,
      case .int64(let key)? = container.databaseValue(forColumn: primaryKey.columns[0])?.storage
    else { return nil }
    return key
  }

  /// The primary key and the columns of every unique index: what an upsert
  /// without conflict target may conflict on.
  static func uniqueKeys(_ db: Database, primaryKey: RecordPrimaryKey) throws -> [[String]] {
    var keys: [[String]] = primaryKey.isHiddenRowID ? [] : [primaryKey.columns]
    let table = databaseTableName.quotedDatabaseIdentifier
    for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(table))") {
      guard (index["unique"] as Int? ?? 0) == 1, (index["partial"] as Int? ?? 0) == 0,
        let name = index["name"] as String?
      else { continue }
      let columns = try Row.fetchAll(db, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))")
        .sorted { ($0["seqno"] as Int? ?? 0) < ($1["seqno"] as Int? ?? 0) }
        .compactMap { $0["name"] as String? }
      if !columns.isEmpty && !keys.contains(columns) { keys.append(columns) }
    }
    return keys
  }
}

extension MutablePersistableRecord where Self: FetchableRecord {
  /// Upserts the record and returns it as stored. See
  /// ``MutablePersistableRecord/upsertAndFetch(_:as:onConflict:updating:doUpdate:)``.
  @inlinable
  public mutating func upsertAndFetch(
    _ db: Database, onConflict conflictTarget: [String] = [],
    updating strategy: UpsertUpdateStrategy = .allColumns,
    doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
  ) throws -> Self {
    try upsertAndFetch(
      db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
  }
}

extension PersistableRecord {
  /// Inserts the record, or updates the row it conflicts with.
  @inlinable
  public func upsert(_ db: Database) throws {
    var copy = self
    try copy.upsertWithCallbacks(
      db, plan: copy.makePlan(conflictTarget: [], strategy: .allColumns, doUpdate: nil), selection: []
    ) { _ in }
  }

  /// Upserts the record and returns the row as stored, decoded as `type`.
  @inlinable
  public func upsertAndFetch<T: FetchableRecord & TableRecord>(
    _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String] = [],
    updating strategy: UpsertUpdateStrategy = .allColumns,
    doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
  ) throws -> T {
    var copy = self
    let plan = copy.makePlan(conflictTarget: conflictTarget, strategy: strategy, doUpdate: assignments)
    return try copy.upsertAndDecode(db, plan: plan, as: T.self)
  }
}

extension PersistableRecord where Self: FetchableRecord {
  /// Upserts the record and returns it as stored.
  @inlinable
  public func upsertAndFetch(
    _ db: Database, onConflict conflictTarget: [String] = [],
    updating strategy: UpsertUpdateStrategy = .allColumns,
    doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
  ) throws -> Self {
    var copy = self
    let plan = copy.makePlan(conflictTarget: conflictTarget, strategy: strategy, doUpdate: assignments)
    return try copy.upsertAndDecode(db, plan: plan, as: Self.self)
  }
}
