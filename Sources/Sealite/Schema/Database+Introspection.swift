extension Database {
  // MARK: - Existence

  /// True if the table exists (in the main or temp schema, or in `schemaName`).
  public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
    // A named schema's facts are not kept, and its name is checked by the
    // query below: not through the cache, which would check it again.
    if schemaName != nil { return try schemaObjectExists(type: "table", name: name, in: schemaName) }
    // Remembered until the schema changes: a request's filters ask for each
    // fetch (to tell observations which rowids it reads).
    return try cachedSchemaFact(\.tableExistence, name, in: schemaName) {
      try schemaObjectExists(type: "table", name: name, in: schemaName)
    }
  }

  /// True if the view exists (in the main or temp schema, or in `schemaName`).
  public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
    try schemaObjectExists(type: "view", name: name, in: schemaName)
  }

  /// True if the trigger exists (in the main or temp schema, or in `schemaName`).
  public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
    try schemaObjectExists(type: "trigger", name: name, in: schemaName)
  }

  /// True if the index exists (in the main or temp schema, or in `schemaName`).
  public func indexExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
    try schemaObjectExists(type: "index", name: name, in: schemaName)
  }

  private func schemaObjectExists(type: String, name: String, in schemaName: String?) throws -> Bool {
    let masters: [String]
    switch schemaName?.nameKey {
    case nil: masters = ["sqlite_master", "sqlite_temp_master"]
    case "temp": masters = ["sqlite_temp_master"]
    case let schema?:
      try requireSchema(schema)
      masters = ["\(schema.quotedDatabaseIdentifier).sqlite_master"]
    }
    for master in masters {
      let found = try Bool.fetchOne(
        self, sql: "SELECT EXISTS (SELECT 1 FROM \(master) WHERE type = ? AND name = ? COLLATE NOCASE)",
        arguments: [type, name])
      if found == true { return true }
    }
    return false
  }

  /// The version of the database schema (`PRAGMA schema_version`): it changes
  /// whenever any connection changes the schema.
  public func schemaVersion() throws -> Int32 {
    try Int32.fetchOne(self, sql: "PRAGMA schema_version") ?? 0
  }

  /// Forgets what this connection learned of the schema, and its cached
  /// statements. Not needed after schema changes, which are noticed (by
  /// this connection or another one); here for GRDB compatibility.
  public func clearSchemaCache() {
    schemaDidChange()
  }

  // MARK: - Tables

  /// The columns of a table or view, in order. Throws if there is none of
  /// that name.
  ///
  /// - parameter table: the name of the table or view.
  /// - parameter schemaName: the schema (`"main"`, `"temp"`, an attached
  ///   database) to look in; nil (the default) looks in every schema, in
  ///   SQLite's order (main, temp, then attached databases).
  public func columns(in table: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
    try cachedSchemaFact(\.columns, table, in: schemaName) {
      let columns = try Row.fetchAll(
        self, sql: "PRAGMA \(Self.schemaPrefix(schemaName))table_info(\(table.quotedDatabaseIdentifier))"
      )
      .map(ColumnInfo.init(row:))
      guard !columns.isEmpty else { throw DatabaseError.noSuchTable(table) }
      return columns
    }
  }

  /// The primary key of a table. Throws if the table does not exist.
  ///
  /// A single `INTEGER PRIMARY KEY` column is the rowid in a rowid table, and
  /// a regular column in a `WITHOUT ROWID` table. A view has a primary key
  /// only if the ``Database/schemaSource`` gives it one; otherwise this
  /// throws "database view … has no primary key".
  ///
  /// - parameter table: the name of the table.
  /// - parameter schemaName: the schema to look in, or nil for every schema
  ///   (see ``columns(in:in:)``).
  public func primaryKey(_ table: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
    try cachedSchemaFact(\.primaryKeys, table, in: schemaName) {
      if let viewKey = try viewPrimaryKeyFromSchemaSource(table, in: schemaName) { return viewKey }
      let columns = try self.columns(in: table, in: schemaName)
      let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted {
        $0.primaryKeyIndex < $1.primaryKeyIndex
      }
      let hasRowID = try !isWithoutRowIDTable(table, in: schemaName)
      guard !keyColumns.isEmpty else {
        guard try tableExists(table, in: schemaName) else {
          if try viewExists(table, in: schemaName) {
            throw DatabaseError(
              resultCode: .SQLITE_ERROR, message: "database view \(table) has no primary key")
          }
          throw DatabaseError.noSuchTable(table)
        }
        return PrimaryKeyInfo(kind: .hiddenRowID)
      }
      let names = keyColumns.map { $0.name }
      if hasRowID, keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER" {
        // `INTEGER PRIMARY KEY DESC` is not the rowid: SQLite then made an index.
        let hasKeyIndex = try indexes(on: table, in: schemaName).contains {
          $0.origin == .primaryKeyConstraint
        }
        if !hasKeyIndex { return PrimaryKeyInfo(kind: .rowID(names[0])) }
      }
      return PrimaryKeyInfo(kind: .regular(names, tableHasRowID: hasRowID))
    }
  }

  /// True for a `WITHOUT ROWID` table, read from its definition.
  private func isWithoutRowIDTable(_ table: String, in schemaName: String?) throws -> Bool {
    let masters =
      switch schemaName?.nameKey {
      case nil: ["sqlite_master", "sqlite_temp_master"]
      case "temp": ["sqlite_temp_master"]
      case let schema?: ["\(schema.quotedDatabaseIdentifier).sqlite_master"]
      }
    for master in masters {
      if let sql = try String.fetchOne(
        self, sql: "SELECT sql FROM \(master) WHERE type = 'table' AND name = ? COLLATE NOCASE",
        arguments: [table])
      {
        return CreateTableStatement(sql: sql)?.isWithoutRowID ?? false
      }
    }
    return false
  }

  /// The indexes of a table, including those SQLite made for `UNIQUE` and
  /// `PRIMARY KEY` constraints. Indexes on expressions are left out, as in
  /// GRDB. Throws "no such table" if there is no table (or view) of that
  /// name, as GRDB does.
  ///
  /// - parameter table: the name of the table.
  /// - parameter schemaName: the schema to look in, or nil for every schema
  ///   (see ``columns(in:in:)``).
  public func indexes(on table: String, in schemaName: String? = nil) throws -> [IndexInfo] {
    try cachedSchemaFact(\.indexes, table, in: schemaName) {
      let prefix = Self.schemaPrefix(schemaName)
      let list = try Row.fetchAll(self, sql: "PRAGMA \(prefix)index_list(\(table.quotedDatabaseIdentifier))")
      // SQLite lists no index of a table that does not exist, without an
      // error: its columns tell (and throw "no such table").
      if list.isEmpty { _ = try columns(in: table, in: schemaName) }
      return try list.compactMap { row in
        let name: String = row["name"]
        let entries = try Row.fetchAll(
          self, sql: "PRAGMA \(prefix)index_info(\(name.quotedDatabaseIdentifier))"
        )
        .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
        let columns = entries.compactMap { $0["name"] as String? }
        // An index on expressions is left out, as GRDB does: its columns
        // alone would tell what the index does not (uniqueness, say).
        guard columns.count == entries.count else { return nil }
        return IndexInfo(
          name: name, columns: columns, isUnique: row["unique"],
          origin: IndexInfo.Origin(rawValue: row["origin"] ?? "c"), isPartial: row["partial"] ?? false)
      }
    }
  }

  /// Whether `columns` (in any order and case) hold the primary key or the
  /// columns of a unique index of `tableName`: whether they identify at most
  /// one row. Partial indexes do not count.
  ///
  ///     // CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c);
  ///     // CREATE UNIQUE INDEX i ON t(a, b);
  ///     try db.table("t", hasUniqueKey: ["id"])       // true
  ///     try db.table("t", hasUniqueKey: ["b", "a"])   // true
  ///     try db.table("t", hasUniqueKey: ["c"])        // false
  public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
    try uniqueKey(heldBy: columns, in: tableName) != nil
  }

  /// The columns of the primary key, or of the first unique index, that
  /// `columns` (in any order and case) hold, in the key's own order; nil if
  /// they hold none. `["rowid"]` is a key of every table that has rowids, as
  /// in GRDB. A view has the primary key its schema source gives it, and no
  /// index; a missing table has no key.
  func columnsForUniqueKey(_ columns: some Collection<String>, in tableName: String) throws -> [String]? {
    switch try uniqueKey(heldBy: columns, in: tableName) {
    case .primaryKey(let primaryKey): primaryKey.columns
    case .rowID: [Column.rowID.name]
    case .index(let index): index.columns
    case nil: nil
    }
  }

  /// A unique key that `columns` hold (see ``columnsForUniqueKey(_:in:)``).
  private enum UniqueKey {
    case primaryKey(PrimaryKeyInfo)
    case rowID
    case index(IndexInfo)
  }

  private func uniqueKey(heldBy columns: some Collection<String>, in tableName: String) throws -> UniqueKey? {
    if columns.isEmpty { return nil }
    // The primary key first, compared in place: a request's filters ask at
    // each rendering, and most name the primary key.
    if let primaryKey = try? self.primaryKey(tableName) {
      if primaryKey.isHeld(by: columns) { return .primaryKey(primaryKey) }
      if primaryKey.tableHasRowID, columns.count == 1,
        columns.contains(where: { $0.sameName(as: Column.rowID.name) })
      {
        return .rowID
      }
    }
    guard try tableExists(tableName) else { return nil }
    let keys = Set(columns.map(\.nameKey))
    return try indexes(on: tableName).first { index in
      index.isUnique && !index.isPartial && !index.columns.isEmpty
        && keys.isSuperset(of: index.columns.map(\.nameKey))
    }.map { .index($0) }
  }

  /// The foreign keys of a table, in the order SQLite reports them.
  ///
  /// - parameter table: the name of the table.
  /// - parameter schemaName: the schema to look in, or nil for every schema
  ///   (see ``columns(in:in:)``).
  public func foreignKeys(on table: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
    try cachedSchemaFact(\.foreignKeys, table, in: schemaName) {
      let rows = try Row.fetchAll(
        self,
        sql: "PRAGMA \(Self.schemaPrefix(schemaName))foreign_key_list(\(table.quotedDatabaseIdentifier))")
      var byID: [(id: Int, rows: [Row])] = []
      for row in rows {
        let id: Int = row["id"]
        if let index = byID.firstIndex(where: { $0.id == id }) {
          byID[index].rows.append(row)
        } else {
          byID.append((id, [row]))
        }
      }
      return try byID.map { id, rows in
        let sorted = rows.sorted { ($0["seq"] as Int) < ($1["seq"] as Int) }
        let destination: String = sorted[0]["table"]
        var destinationColumns = sorted.map { $0["to"] as String? }
        if destinationColumns.contains(where: { $0 == nil }) {
          // No columns named: the destination's primary key.
          let key = try primaryKey(destination, in: schemaName).columns
          destinationColumns = key.map { Optional($0) }
        }
        let mapping = zip(sorted, destinationColumns).map { row, column in
          (origin: row["from"] as String, destination: column ?? "")
        }
        return ForeignKeyInfo(
          id: id, destinationTable: destination, mapping: mapping, onDelete: sorted[0]["on_delete"],
          onUpdate: sorted[0]["on_update"])
      }
    }
  }

  // MARK: - Foreign key checks

  /// A cursor over every foreign key violation in the database
  /// (`PRAGMA foreign_key_check`).
  ///
  ///     let violations = try db.foreignKeyViolations()
  ///     while let violation = try violations.next() { print(violation) }
  public func foreignKeyViolations() throws -> MapCursor<RowCursor, ForeignKeyViolation> {
    try Row.fetchCursor(self, sql: "PRAGMA foreign_key_check").map(ForeignKeyViolation.init(row:))
  }

  /// A cursor over the foreign key violations of one table, in `schemaName`
  /// or, when nil, in the first schema that has the table.
  public func foreignKeyViolations(in table: String, in schemaName: String? = nil) throws
    -> MapCursor<RowCursor, ForeignKeyViolation>
  {
    try Row.fetchCursor(self, sql: Self.foreignKeyCheckSQL(table, in: schemaName)).map(
      ForeignKeyViolation.init(row:))
  }

  /// Throws the first foreign key violation, as a ``DatabaseError`` with code
  /// `SQLITE_CONSTRAINT_FOREIGNKEY` that names the table, columns and row.
  public func checkForeignKeys() throws {
    try throwFirstViolation(sql: "PRAGMA foreign_key_check")
  }

  /// Throws the first foreign key violation of one table, in `schemaName`
  /// or, when nil, in the first schema that has the table (see
  /// ``checkForeignKeys()``).
  public func checkForeignKeys(in table: String, in schemaName: String? = nil) throws {
    try throwFirstViolation(sql: Self.foreignKeyCheckSQL(table, in: schemaName))
  }

  private static func foreignKeyCheckSQL(_ table: String, in schemaName: String?) -> String {
    "PRAGMA \(schemaPrefix(schemaName))foreign_key_check(\(table.quotedDatabaseIdentifier))"
  }

  /// `"schema".` before a pragma's name, or nothing.
  private static func schemaPrefix(_ schemaName: String?) -> String {
    schemaName.map { "\($0.quotedDatabaseIdentifier)." } ?? ""
  }

  private func throwFirstViolation(sql: String) throws {
    // Read it all first: the description runs queries of its own.
    if let row = try Row.fetchAll(self, sql: sql).first {
      throw ForeignKeyViolation(row: row).databaseError(self)
    }
  }
}

extension DatabaseError {
  static func noSuchTable(_ table: String) -> DatabaseError {
    DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
  }
}
