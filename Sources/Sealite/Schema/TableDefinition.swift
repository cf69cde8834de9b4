/// The definition of a table, built in the closure of
/// ``Database/create(table:options:body:)``:
///
///     try db.create(table: "book") { t in
///       t.autoIncrementedPrimaryKey("id")
///       t.column("title", .text).notNull()
///       t.belongsTo("author", onDelete: .cascade).notNull()
///       t.uniqueKey(["authorId", "title"])
///       t.check(sql: "length(title) > 0")
///     }
public final class TableDefinition {
  enum Item {
    case column(ColumnDefinition)
    case literal(SQL)
    case foreignKey(ForeignKeyDefinition)
  }

  struct KeyConstraint {
    var columns: [String]
    var onConflict: Database.ConflictResolution?
  }

  struct TableForeignKey {
    var columns: [String]
    var clause: ForeignKeyClause
  }

  let name: String
  let options: TableOptions
  var items: [Item] = []
  var primaryKeyConstraint: KeyConstraint?
  var uniqueKeys: [KeyConstraint] = []
  var foreignKeys: [TableForeignKey] = []
  var checks: [SQLExpression] = []
  var literalConstraints: [SQL] = []
  /// Set while `primaryKey(onConflict:body:)` runs: the columns it defines.
  private var primaryKeyBodyColumns: [ColumnDefinition]?

  init(name: String, options: TableOptions) {
    self.name = name
    self.options = options
  }

  /// Adds a column. Without a type, the column accepts any value (no affinity).
  @discardableResult
  public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
    let column = ColumnDefinition(name: name, type: type)
    items.append(.column(column))
    primaryKeyBodyColumns?.append(column)
    return column
  }

  /// Adds a column written in SQL: `t.column(sql: "name TEXT NOT NULL")`.
  public func column(sql: String) {
    items.append(.literal(SQL(sql: sql)))
  }

  /// Adds a column written as an SQL literal.
  public func column(literal: SQL) {
    items.append(.literal(literal))
  }

  /// Adds an `INTEGER PRIMARY KEY AUTOINCREMENT` column: the rowid, never reused.
  @discardableResult
  public func autoIncrementedPrimaryKey(_ name: String, onConflict: Database.ConflictResolution? = nil)
    -> ColumnDefinition
  {
    column(name, .integer).primaryKey(onConflict: onConflict, autoincrement: true)
  }

  /// Adds a primary key column. It is `NOT NULL`, except an `INTEGER` primary
  /// key, which is the rowid and gets a value when an insert gives none.
  @discardableResult
  public func primaryKey(
    _ name: String, _ type: Database.ColumnType, onConflict: Database.ConflictResolution? = nil
  ) -> ColumnDefinition {
    let definition = column(name, type).primaryKey(onConflict: onConflict)
    if type != .integer || options.contains(.withoutRowID) { definition.notNull() }
    return definition
  }

  /// Makes the primary key out of several columns (`PRIMARY KEY (a, b)`).
  public func primaryKey(_ columns: [String], onConflict: Database.ConflictResolution? = nil) {
    primaryKeyConstraint = KeyConstraint(columns: columns, onConflict: onConflict)
  }

  /// Makes the primary key out of the columns defined in `body`, which are
  /// `NOT NULL`.
  public func primaryKey(onConflict: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
    primaryKeyBodyColumns = []
    defer { primaryKeyBodyColumns = nil }
    try body()
    let columns = primaryKeyBodyColumns ?? []
    for column in columns where column.notNull == nil { column.notNull() }
    primaryKey(columns.map { $0.name }, onConflict: onConflict)
  }

  /// Adds a unique key over several columns (`UNIQUE (a, b)`).
  public func uniqueKey(_ columns: [String], onConflict: Database.ConflictResolution? = nil) {
    uniqueKeys.append(KeyConstraint(columns: columns, onConflict: onConflict))
  }

  /// Adds a foreign key over several columns (`FOREIGN KEY (a, b) REFERENCES …`).
  /// With no destination columns, it refers to the destination's primary key.
  public func foreignKey(
    _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
    onDelete: Database.ForeignKeyAction? = nil, onUpdate: Database.ForeignKeyAction? = nil,
    deferred: Bool = false
  ) {
    foreignKeys.append(
      TableForeignKey(
        columns: columns,
        clause: ForeignKeyClause(
          destinationTable: table, destinationColumns: destinationColumns, onDelete: onDelete,
          onUpdate: onUpdate, deferred: deferred)))
  }

  /// Adds columns that refer to the primary key of `table` (or of
  /// `destinationTable`), named after it: `t.belongsTo("team")` adds `teamId`
  /// referring to `team(id)`, indexed unless `indexed` is false.
  @discardableResult
  public func belongsTo(
    _ table: String, inTable destinationTable: String? = nil, onDelete: Database.ForeignKeyAction? = nil,
    onUpdate: Database.ForeignKeyAction? = nil, deferred: Bool = false, indexed: Bool = true
  ) -> ForeignKeyDefinition {
    let definition = ForeignKeyDefinition(
      name: table, destinationTable: destinationTable ?? table, onDelete: onDelete, onUpdate: onUpdate,
      deferred: deferred, indexed: indexed)
    items.append(.foreignKey(definition))
    return definition
  }

  /// Adds a table check (`CHECK (…)`): `t.check(Column("min") <= Column("max"))`.
  public func check(_ condition: some SQLExpressible) {
    checks.append(condition.sqlExpression)
  }

  /// Adds a table check written in SQL.
  public func check(sql: String) {
    checks.append(SQLExpression(sql: sql))
  }

  /// Adds a table constraint written in SQL.
  public func constraint(sql: String) {
    literalConstraints.append(SQL(sql: sql))
  }

  /// Adds a table constraint written as an SQL literal.
  public func constraint(literal: SQL) {
    literalConstraints.append(literal)
  }

  // MARK: - SQL generation

  /// The primary key columns and types, as far as this definition tells.
  private var definedPrimaryKey: [(String, Database.ColumnType?)]? {
    let columns = items.compactMap { item -> ColumnDefinition? in
      if case .column(let column) = item { return column }
      return nil
    }
    if let constraint = primaryKeyConstraint {
      return constraint.columns.map { name in
        (name, columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.type)
      }
    }
    if let column = columns.first(where: { $0.primaryKey != nil }) { return [(column.name, column.type)] }
    return nil
  }

  /// The `CREATE TABLE` statement and the `CREATE INDEX` statements that follow it.
  func statements(_ db: Database) throws -> [String] {
    if options.contains(.strict) { try db.features.require(.strictTables) }
    let primaryKey = definedPrimaryKey
    let primaryKeyNames = primaryKey?.map(\.0)
    var definitions: [String] = []
    var indexedColumns: [[String]] = []
    var constraints: [String] = []
    for item in items {
      switch item {
      case .column(let column):
        definitions.append(try column.sql(db, tableName: name, tablePrimaryKey: primaryKeyNames))
        if column.isIndexed { indexedColumns.append([column.name]) }
      case .literal(let literal):
        definitions.append(try SQLExpression(literal: literal).schemaSQL())
      case .foreignKey(let foreignKey):
        let resolved = try foreignKey.resolve(db, definingTable: name, definingPrimaryKey: primaryKey)
        for column in resolved {
          var parts = [column.column.quotedDatabaseIdentifier]
          if let type = column.type { parts.append(type.rawValue) }
          if let notNull = foreignKey.notNull {
            parts.append("NOT NULL")
            if let onConflict = notNull.onConflict { parts.append("ON CONFLICT \(onConflict.rawValue)") }
          }
          definitions.append(parts.joined(separator: " "))
        }
        let clause = ForeignKeyClause(
          destinationTable: foreignKey.destinationTable, destinationColumns: resolved.map { $0.destination },
          onDelete: foreignKey.onDelete, onUpdate: foreignKey.onUpdate, deferred: foreignKey.deferred)
        constraints.append(
          "FOREIGN KEY (\(resolved.map { $0.column.quotedDatabaseIdentifier }.joined(separator: ", "))) "
            + (try clause.sql(db, definingTable: name, definingPrimaryKey: primaryKeyNames)))
        let columns = resolved.map { $0.column }
        let isPrimaryKeyPrefix = primaryKeyNames.map { Array($0.prefix(columns.count)) == columns } ?? false
        if foreignKey.indexed && !isPrimaryKeyPrefix { indexedColumns.append(columns) }
      }
    }
    var tableConstraints: [String] = []
    if let constraint = primaryKeyConstraint {
      tableConstraints.append(Self.keySQL("PRIMARY KEY", constraint))
    }
    tableConstraints += uniqueKeys.map { Self.keySQL("UNIQUE", $0) }
    for foreignKey in foreignKeys {
      tableConstraints.append(
        "FOREIGN KEY (\(foreignKey.columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", "))) "
          + (try foreignKey.clause.sql(db, definingTable: name, definingPrimaryKey: primaryKeyNames)))
    }
    tableConstraints += constraints
    tableConstraints += try checks.map { "CHECK (\(try $0.schemaSQL()))" }
    tableConstraints += try literalConstraints.map { try SQLExpression(literal: $0).schemaSQL() }

    var sql = "CREATE "
    if options.contains(.temporary) { sql += "TEMPORARY " }
    sql += "TABLE "
    if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
    sql += name.quotedDatabaseIdentifier
    sql += " (" + (definitions + tableConstraints).joined(separator: ", ") + ")"
    var tableOptions: [String] = []
    if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
    if options.contains(.strict) { tableOptions.append("STRICT") }
    if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }

    let indexes = indexedColumns.map { columns in
      Database.createIndexSQL(
        name: Database.defaultIndexName(table: name, columns: columns), table: name, columns: columns,
        options: options.contains(.ifNotExists) ? [.ifNotExists] : [], condition: nil)
    }
    return [sql] + indexes
  }

  private static func keySQL(_ keyword: String, _ constraint: KeyConstraint) -> String {
    var text =
      "\(keyword) (\(constraint.columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")))"
    if let onConflict = constraint.onConflict { text += " ON CONFLICT \(onConflict.rawValue)" }
    return text
  }
}
