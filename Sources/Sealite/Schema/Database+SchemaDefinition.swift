extension Database {
  // MARK: - Tables

  /// Creates a table:
  ///
  ///     try db.create(table: "player") { t in
  ///       t.autoIncrementedPrimaryKey("id")
  ///       t.column("name", .text).notNull()
  ///     }
  ///
  /// The indexes asked for with ``ColumnDefinition/indexed()`` and
  /// ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``
  /// are created with it. With ``TableOptions/strict`` on an SQLite older than
  /// 3.37.0, throws ``SQLiteFeatureError`` and creates nothing.
  public func create(
    table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void
  ) throws {
    let definition = TableDefinition(name: name, options: options)
    try body(definition)
    let statements = try definition.statements(self)
    // GRDB runs the statements one after the other, outside of any transaction of
    // its own, and programs (and GRDB's tests) see exactly those statements. A table
    // whose index fails is dropped again, so that nothing half-created stays.
    let existed = statements.count > 1 && options.contains(.ifNotExists) ? try tableExists(name) : false
    for (index, statement) in statements.enumerated() {
      do {
        try execute(sql: statement)
      } catch {
        if index > 0, !existed {
          try? execute(sql: "DROP TABLE IF EXISTS \(name.quotedDatabaseIdentifier)")
        }
        throw error
      }
    }
  }

  /// Creates a table, with GRDB's legacy flags instead of ``TableOptions``:
  ///
  ///     try db.create(table: "player", ifNotExists: true) { t in
  ///       t.autoIncrementedPrimaryKey("id")
  ///     }
  ///
  /// A legacy interface, kept so that GRDB code compiles (as GRDB keeps it:
  /// disfavored, without a deprecation warning); prefer
  /// ``create(table:options:body:)``.
  @_disfavoredOverload
  public func create(
    table name: String, temporary: Bool = false, ifNotExists: Bool = false, withoutRowID: Bool = false,
    body: (TableDefinition) throws -> Void
  ) throws {
    var options: TableOptions = []
    if temporary { options.insert(.temporary) }
    if ifNotExists { options.insert(.ifNotExists) }
    if withoutRowID { options.insert(.withoutRowID) }
    try create(table: name, options: options, body: body)
  }

  /// Renames a table.
  public func rename(table name: String, to newName: String) throws {
    try execute(
      sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
  }

  /// Drops a table, its indexes and triggers.
  public func drop(table name: String) throws {
    try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
  }

  /// Changes a table: adds, renames and drops columns.
  ///
  ///     try db.alter(table: "player") { t in
  ///       t.add(column: "email", .text)
  ///       t.rename(column: "score", to: "points")
  ///     }
  ///
  /// Renaming and dropping a column use SQLite's own `ALTER TABLE` where the
  /// linked SQLite has it. Where it does not (SQLite before 3.25.0 and 3.35.0,
  /// as bundled by SQLCipher 3.x), the table is rebuilt by SQLite's documented
  /// procedure: a new table with the new definition, the rows copied, the old
  /// table dropped, the new one renamed, and its indexes, triggers and views
  /// recreated, all in one transaction (or savepoint) that nothing half-done
  /// survives. A rebuild inside a transaction with foreign keys enforced refuses
  /// a table other tables refer to, since dropping it would run their
  /// `ON DELETE` actions: run it in a ``DatabaseMigrator`` migration (whose
  /// foreign key checks are deferred by default) or outside a transaction.
  public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
    try alter(table: name, forcingTableRebuild: false, body: body)
  }

  /// ``alter(table:body:)``, with the table rebuild forced even where SQLite
  /// could rename or drop the column itself: the switch that lets tests run
  /// the legacy path on every SQLite.
  func alter(table name: String, forcingTableRebuild: Bool, body: (TableAlteration) throws -> Void) throws {
    let alteration = TableAlteration(name: name)
    try body(alteration)
    let needsRebuild = alteration.changes.contains { rebuilds($0, forcingTableRebuild: forcingTableRebuild) }
    guard needsRebuild else {
      // Every statement is written before the first runs (GRDB's order: the
      // schema queries of references come first).
      let statements = try alteration.changes.flatMap { try alterationStatements(for: $0, toTable: name) }
      let work = { for sql in statements { try self.execute(sql: sql) } }
      if statements.count > 1 && !isInsideTransaction {
        // Several statements are all or nothing; inside a transaction, as in
        // a migration, that transaction decides, as in GRDB.
        try inSavepoint {
          try work()
          return .commit
        }
      } else {
        try work()
      }
      return
    }
    let work = {
      for change in alteration.changes {
        try self.apply(change, toTable: name, forcingTableRebuild: forcingTableRebuild)
      }
    }
    if try !isInsideTransaction && foreignKeysAreEnforced {
      // SQLite's procedure: foreign keys off (only possible outside a
      // transaction) so that dropping the old table runs no ON DELETE action,
      // then a check of every foreign key before the commit.
      try execute(sql: "PRAGMA foreign_keys = OFF")
      defer { try? execute(sql: "PRAGMA foreign_keys = ON") }
      try inTransaction(.immediate) {
        try work()
        try checkForeignKeys()
        return .commit
      }
    } else {
      // Several changes are all or nothing, and so is a rebuild.
      try inSavepoint {
        try work()
        return .commit
      }
    }
  }

  /// The statements of a change SQLite makes itself (no table rebuild).
  private func alterationStatements(for change: TableAlteration.Change, toTable table: String) throws
    -> [String]
  {
    let quotedTable = table.quotedDatabaseIdentifier
    switch change {
    case .add(let column):
      let add =
        "ALTER TABLE \(quotedTable) ADD COLUMN \(try column.sql(self, tableName: table, tablePrimaryKey: nil))"
      return [add] + (column.indexSQL(table: table, options: []).map { [$0] } ?? [])
    case .addLiteral(let literal):
      return ["ALTER TABLE \(quotedTable) ADD COLUMN \(try SQLExpression(literal: literal).schemaSQL())"]
    case .rename(let old, let new):
      return [
        "ALTER TABLE \(quotedTable) RENAME COLUMN \(old.quotedDatabaseIdentifier) TO \(new.quotedDatabaseIdentifier)"
      ]
    case .drop(let column):
      return ["ALTER TABLE \(quotedTable) DROP COLUMN \(column.quotedDatabaseIdentifier)"]
    }
  }

  /// Whether SQLite can not make the change itself, so that the table is
  /// rebuilt.
  private func rebuilds(_ change: TableAlteration.Change, forcingTableRebuild: Bool) -> Bool {
    switch change {
    case .rename: return forcingTableRebuild || !features.supports(.renameColumn)
    case .drop: return forcingTableRebuild || !features.supports(.dropColumn)
    case .add, .addLiteral: return false
    }
  }

  /// Applies a change of an alteration that rebuilds the table: changes SQLite
  /// makes itself run as such, the others rebuild.
  private func apply(_ change: TableAlteration.Change, toTable table: String, forcingTableRebuild: Bool)
    throws
  {
    guard rebuilds(change, forcingTableRebuild: forcingTableRebuild) else {
      for sql in try alterationStatements(for: change, toTable: table) { try execute(sql: sql) }
      return
    }
    switch change {
    case .rename(let old, let new): try rebuildTable(table, change: .renameColumn(from: old, to: new))
    case .drop(let column): try rebuildTable(table, change: .dropColumn(column))
    case .add, .addLiteral: preconditionFailure("SQLite adds columns itself")
    }
  }

  // MARK: - Indexes

  /// Creates an index:
  ///
  ///     try db.create(index: "player_on_email", on: "player", columns: ["email"], options: .unique)
  ///     try db.create(index: "active_player", on: "player", columns: ["name"],
  ///                   condition: Column("isActive") == true)
  ///
  /// A `condition` makes a partial index; its values are written into the
  /// statement as SQL literals, since SQLite takes no arguments in schema
  /// statements.
  public func create(
    index name: String, on table: String, columns: [String], options: IndexOptions = [],
    condition: (any SQLExpressible)? = nil
  ) throws {
    let conditionSQL = try condition.map { try $0.sqlExpression.schemaSQL() }
    try execute(
      sql: Database.createIndexSQL(
        name: name, table: table, terms: columns.map(\.quotedDatabaseIdentifier), options: options,
        condition: conditionSQL))
  }

  /// Creates an index on expressions: a collation, a computation, a JSON path:
  ///
  ///     // CREATE INDEX "player_on_country" ON "player"("address" ->> 'country')
  ///     try db.create(
  ///       index: "player_on_country", on: "player",
  ///       expressions: [JSONColumn("address")["country"]])
  ///
  /// A request that filters or orders by the same expression can use the index. Values in
  /// the expressions are written as SQL literals, since SQLite takes no arguments in schema
  /// statements.
  public func create(
    index name: String, on table: String, expressions: [any SQLExpressible], options: IndexOptions = [],
    condition: (any SQLExpressible)? = nil
  ) throws {
    let terms = try expressions.map { try $0.sqlExpression.schemaSQL() }
    let conditionSQL = try condition.map { try $0.sqlExpression.schemaSQL() }
    try execute(
      sql: Database.createIndexSQL(
        name: name, table: table, terms: terms, options: options, condition: conditionSQL))
  }

  /// Creates an index, with GRDB's legacy flags instead of ``IndexOptions``:
  ///
  ///     try db.create(index: "player_on_email", on: "player", columns: ["email"], unique: true)
  @_disfavoredOverload
  public func create(
    index name: String, on table: String, columns: [String], unique: Bool = false, ifNotExists: Bool = false,
    condition: (any SQLExpressible)? = nil
  ) throws {
    var options: IndexOptions = []
    if unique { options.insert(.unique) }
    if ifNotExists { options.insert(.ifNotExists) }
    try create(index: name, on: table, columns: columns, options: options, condition: condition)
  }

  /// Creates an index named `index_<table>_on_<columns>`.
  public func create(
    indexOn table: String, columns: [String], options: IndexOptions = [],
    condition: (any SQLExpressible)? = nil
  ) throws {
    try create(
      index: Database.defaultIndexName(table: table, columns: columns), on: table, columns: columns,
      options: options, condition: condition)
  }

  /// Drops an index.
  public func drop(index name: String) throws {
    try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
  }

  /// Drops the index of `table` on exactly `columns`, in order (names compared
  /// without case), whatever its name, if exactly one such index exists; does
  /// nothing otherwise, as GRDB does.
  public func drop(indexOn table: String, columns: [String]) throws {
    let wanted = columns.map { $0.lowercased() }
    let matching = try indexes(on: table).filter { $0.columns.map { $0.lowercased() } == wanted }
    if matching.count == 1 { try drop(index: matching[0].name) }
  }

  static func defaultIndexName(table: String, columns: [String]) -> String {
    "index_\(table)_on_\(columns.joined(separator: "_"))"
  }

  static func createIndexSQL(
    name: String, table: String, terms: [String], options: IndexOptions, condition: String?
  ) -> String {
    var sql = "CREATE "
    if options.contains(.unique) { sql += "UNIQUE " }
    sql += "INDEX "
    if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
    sql += "\(name.quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)"
    sql += "(\(terms.joined(separator: ", ")))"
    if let condition { sql += " WHERE \(condition)" }
    return sql
  }

  // MARK: - Views

  /// Creates a view from an SQL query:
  ///
  ///     try db.create(view: "hallOfFame", as: "SELECT * FROM player WHERE score > \(1000)")
  ///
  /// Values in the query are written into the statement as SQL literals,
  /// since SQLite takes no arguments in schema statements.
  public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, as request: SQL)
    throws
  {
    try create(view: name, options: options, columns: columns, asLiteral: request)
  }

  /// Creates a view from an SQL literal (see ``create(view:options:columns:as:)-(_,_,_,SQL)``).
  public func create(
    view name: String, options: ViewOptions = [], columns: [String]? = nil, asLiteral sqlLiteral: SQL
  ) throws {
    try createView(
      name, options: options, columns: columns, definition: try SQLExpression(literal: sqlLiteral).schemaSQL()
    )
  }

  /// Runs `CREATE VIEW`, `definition` being the SQL of its query.
  func createView(_ name: String, options: ViewOptions, columns: [String]?, definition: String) throws {
    var sql = "CREATE "
    if options.contains(.temporary) { sql += "TEMPORARY " }
    sql += "VIEW "
    if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
    sql += name.quotedDatabaseIdentifier
    if let columns { sql += " (\(columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")))" }
    sql += " AS " + definition
    try execute(sql: sql)
  }

  /// Drops a view.
  public func drop(view name: String) throws {
    try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
  }
}
