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
    case foreignKeyConstraint(TableForeignKey)
  }

  /// A column of a key constraint: named, or the columns of a foreign key
  /// made in the body of ``primaryKey(onConflict:body:)``.
  enum KeyComponent {
    case column(String)
    case foreignKey(ForeignKeyDefinition)
  }

  struct KeyConstraint {
    var components: [KeyComponent]
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
  var checks: [SQLExpression] = []
  var literalConstraints: [SQL] = []
  /// True while `primaryKey(onConflict:body:)` runs.
  private var isInPrimaryKeyBody = false

  init(name: String, options: TableOptions) {
    self.name = name
    self.options = options
  }

  /// Adds a column. Without a type, the column accepts any value (no affinity).
  @discardableResult
  public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
    let column = ColumnDefinition(name: name, type: type)
    items.append(.column(column))
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
  /// key, which is the rowid and gets a value when an insert gives none (in a
  /// WITHOUT ROWID table, SQLite keeps every primary key column NOT NULL).
  @discardableResult
  public func primaryKey(
    _ name: String, _ type: Database.ColumnType, onConflict: Database.ConflictResolution? = nil
  ) -> ColumnDefinition {
    let definition = column(name, type).primaryKey(onConflict: onConflict)
    // An INTEGER PRIMARY KEY is never NULL: a rowid, or the key of a
    // WITHOUT ROWID table, which SQLite keeps NOT NULL (GRDB writes no
    // constraint for either).
    if type != .integer { definition.notNull() }
    return definition
  }

  /// Makes the primary key out of several columns (`PRIMARY KEY (a, b)`).
  public func primaryKey(_ columns: [String], onConflict: Database.ConflictResolution? = nil) {
    primaryKeyConstraint = KeyConstraint(components: columns.map { .column($0) }, onConflict: onConflict)
  }

  /// Makes the primary key out of the columns and foreign keys defined in
  /// `body`, which are `NOT NULL`:
  ///
  ///     try db.create(table: "membership") { t in
  ///       t.primaryKey {
  ///         t.belongsTo("team")
  ///         t.belongsTo("player")
  ///       }
  ///     }
  ///
  /// A foreign key of the primary key gets no index of its own: the primary
  /// key's index serves it.
  public func primaryKey(onConflict: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
    let first = items.count
    isInPrimaryKeyBody = true
    defer { isInPrimaryKeyBody = false }
    try body()
    var components: [KeyComponent] = []
    for item in items[first...] {
      switch item {
      case .column(let column):
        if column.notNull == nil { column.notNull() }
        components.append(.column(column.name))
      case .foreignKey(let foreignKey):
        if foreignKey.notNull == nil { foreignKey.notNull() }
        components.append(.foreignKey(foreignKey))
      case .literal, .foreignKeyConstraint:
        break
      }
    }
    primaryKeyConstraint = KeyConstraint(components: components, onConflict: onConflict)
  }

  /// Adds a unique key over several columns (`UNIQUE (a, b)`).
  public func uniqueKey(_ columns: [String], onConflict: Database.ConflictResolution? = nil) {
    uniqueKeys.append(KeyConstraint(components: columns.map { .column($0) }, onConflict: onConflict))
  }

  /// Adds a foreign key over several columns (`FOREIGN KEY (a, b) REFERENCES …`).
  /// With no destination columns, it refers to the destination's primary key.
  public func foreignKey(
    _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
    onDelete: Database.ForeignKeyAction? = nil, onUpdate: Database.ForeignKeyAction? = nil,
    deferred: Bool = false
  ) {
    items.append(
      .foreignKeyConstraint(
        TableForeignKey(
          columns: columns,
          clause: ForeignKeyClause(
            destinationTable: table, destinationColumns: destinationColumns, onDelete: onDelete,
            onUpdate: onUpdate, deferred: deferred))))
  }

  /// Adds columns that refer to the primary key of another table, named
  /// after `name` and that key: `t.belongsTo("team")` adds `teamId`
  /// referring to `team(id)`, indexed unless `indexed` is false.
  ///
  /// The destination is `destinationTable` when given; otherwise the table
  /// called `name`, or else its plural (`teams`), or the table being defined
  /// when `name` is its singular; it throws "no such table" when none exists.
  @discardableResult
  public func belongsTo(
    _ name: String, inTable destinationTable: String? = nil, onDelete: Database.ForeignKeyAction? = nil,
    onUpdate: Database.ForeignKeyAction? = nil, deferred: Bool = false, indexed: Bool = true
  ) -> ForeignKeyDefinition {
    let definition = ForeignKeyDefinition(
      name: name, destinationTable: destinationTable, onDelete: onDelete, onUpdate: onUpdate,
      deferred: deferred, indexed: indexed && !isInPrimaryKeyBody)
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

  /// The columns of a key constraint. The foreign keys it holds are resolved
  /// without `originKey` while the primary key itself is being found.
  private func keyColumns(_ db: Database, _ constraint: KeyConstraint, originKey: PrimaryKeyDescriptor?)
    throws -> [PrimaryKeyDescriptor.KeyColumn]
  {
    try constraint.components.flatMap { component -> [PrimaryKeyDescriptor.KeyColumn] in
      switch component {
      case .column(let name):
        return [PrimaryKeyDescriptor.KeyColumn(name: name, type: definedColumn(name)?.type)]
      case .foreignKey(let foreignKey):
        let destination = try foreignKey.destination(db, originTable: self.name, originKey: originKey)
        return zip(foreignKey.columnNames(for: destination), destination.referencedColumns).map {
          PrimaryKeyDescriptor.KeyColumn(name: $0, type: $1.type)
        }
      }
    }
  }

  private func definedColumn(_ name: String) -> ColumnDefinition? {
    for case .column(let column) in items where column.name.sameName(as: name) {
      return column
    }
    return nil
  }

  /// The primary key of the table being defined, for the foreign keys that
  /// refer to it: known before the table exists.
  private func definedPrimaryKey(_ db: Database) throws -> PrimaryKeyDescriptor {
    if let constraint = primaryKeyConstraint {
      return PrimaryKeyDescriptor(table: name, columns: try keyColumns(db, constraint, originKey: nil))
    }
    for case .column(let column) in items where column.primaryKey != nil {
      return PrimaryKeyDescriptor(table: name, columns: [.init(name: column.name, type: column.type)])
    }
    return PrimaryKeyDescriptor(table: name, columns: nil)
  }

  /// The `CREATE TABLE` statement and the `CREATE INDEX` statements that
  /// follow it, as GRDB writes them: the indexes of composite foreign keys,
  /// then those of indexed columns, in the order of definition.
  func statements(_ db: Database) throws -> [String] {
    if options.contains(.strict) { try db.features.require(.strictTables) }
    let primaryKey = try definedPrimaryKey(db)
    let primaryKeyNames = primaryKey.columns?.map(\.name)
    let indexOptions: IndexOptions = options.contains(.ifNotExists) ? [.ifNotExists] : []
    var columns: [ColumnDefinition] = []
    var definitions: [String] = []
    var foreignKeyConstraints: [String] = []
    var indexes: [String] = []
    for item in items {
      switch item {
      case .column(let column):
        columns.append(column)
        definitions.append(try column.sql(db, tableName: name, tablePrimaryKey: primaryKeyNames))
      case .literal(let literal):
        definitions.append(try SQLExpression(literal: literal).schemaSQL())
      case .foreignKey(let foreignKey):
        let destination = try foreignKey.destination(db, originTable: name, originKey: primaryKey)
        let names = foreignKey.columnNames(for: destination)
        let referenced = destination.referencedColumns
        let keyColumns = zip(names, referenced).map { name, key in
          let column = ColumnDefinition(name: name, type: key.type)
          column.notNull = foreignKey.notNull
          return column
        }
        if keyColumns.count == 1 {
          // A single column carries the whole foreign key, as a column constraint.
          let column = keyColumns[0]
          column.references(
            destination.table, column: referenced[0].name, onDelete: foreignKey.onDelete,
            onUpdate: foreignKey.onUpdate, deferred: foreignKey.deferred)
          switch foreignKey.indexing {
          case .index?: column.indexed()
          case .unique?: column.unique()
          case nil: break
          }
          columns.append(column)
          definitions.append(try column.sql(db, tableName: name, tablePrimaryKey: primaryKeyNames))
        } else {
          definitions += try keyColumns.map {
            try $0.sql(db, tableName: name, tablePrimaryKey: primaryKeyNames)
          }
          let clause = ForeignKeyClause(
            destinationTable: destination.table, destinationColumns: referenced.map(\.name),
            onDelete: foreignKey.onDelete, onUpdate: foreignKey.onUpdate, deferred: foreignKey.deferred)
          foreignKeyConstraints.append(
            try Self.foreignKeySQL(
              db, columns: names, clause: clause, table: name, primaryKey: primaryKeyNames))
          if let indexing = foreignKey.indexing {
            indexes.append(
              Database.createIndexSQL(
                name: Database.defaultIndexName(table: name, columns: names), table: name,
                terms: names.map(\.quotedDatabaseIdentifier),
                options: indexing == .unique ? indexOptions.union(.unique) : indexOptions, condition: nil))
          }
        }
      case .foreignKeyConstraint(let foreignKey):
        foreignKeyConstraints.append(
          try Self.foreignKeySQL(
            db, columns: foreignKey.columns, clause: foreignKey.clause, table: name,
            primaryKey: primaryKeyNames))
      }
    }
    indexes += columns.compactMap { $0.indexSQL(table: name, options: indexOptions) }

    var tableConstraints: [String] = []
    if let constraint = primaryKeyConstraint {
      let names = try keyColumns(db, constraint, originKey: nil).map(\.name)
      tableConstraints.append(Self.keySQL("PRIMARY KEY", names, constraint.onConflict))
    }
    for constraint in uniqueKeys {
      let names = try keyColumns(db, constraint, originKey: primaryKey).map(\.name)
      tableConstraints.append(Self.keySQL("UNIQUE", names, constraint.onConflict))
    }
    tableConstraints += foreignKeyConstraints
    tableConstraints += try checks.map { "CHECK (\(try $0.schemaSQL()))" }
    tableConstraints += try literalConstraints.map { try SQLExpression(literal: $0).schemaSQL() }

    var sql = "CREATE "
    if options.contains(.temporary) { sql += "TEMPORARY " }
    sql += "TABLE "
    if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
    sql += name.quotedDatabaseIdentifier
    sql += " (" + (definitions + tableConstraints).joined(separator: ", ") + ")"
    var tableOptions: [String] = []
    if options.contains(.strict) { tableOptions.append("STRICT") }
    if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
    if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
    return [sql] + indexes
  }

  private static func foreignKeySQL(
    _ db: Database, columns: [String], clause: ForeignKeyClause, table: String, primaryKey: [String]?
  ) throws -> String {
    "FOREIGN KEY (\(columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", "))) "
      + (try clause.sql(db, definingTable: table, definingPrimaryKey: primaryKey))
  }

  private static func keySQL(
    _ keyword: String, _ columns: [String], _ onConflict: Database.ConflictResolution?
  )
    -> String
  {
    var text = "\(keyword) (\(columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")))"
    if let onConflict { text += " ON CONFLICT \(onConflict.rawValue)" }
    return text
  }
}
