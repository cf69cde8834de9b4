/// A column of a table being created or altered: its type and constraints.
///
///     try db.create(table: "player") { t in
///       t.autoIncrementedPrimaryKey("id")
///       t.column("name", .text).notNull().unique().collate(.nocase)
///       t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
///       t.column("teamId", .integer).references("team", onDelete: .cascade).indexed()
///     }
///
/// You get one from ``TableDefinition/column(_:_:)`` or
/// ``TableAlteration/add(column:_:)``; each method returns the column, so
/// calls chain.
public final class ColumnDefinition {
  struct PrimaryKey {
    var onConflict: Database.ConflictResolution?
    var autoincrement: Bool
  }

  struct Constraint {
    var onConflict: Database.ConflictResolution?
  }

  /// The column name.
  let name: String
  let type: Database.ColumnType?
  var primaryKey: PrimaryKey?
  var notNull: Constraint?
  var unique: Constraint?
  var checks: [SQLExpression] = []
  var defaultExpression: SQLExpression?
  var collation: String?
  var references: [ForeignKeyClause] = []
  var generated: (expression: SQLExpression, qualification: GeneratedColumnQualification)?
  var isIndexed = false

  init(name: String, type: Database.ColumnType?) {
    self.name = name
    self.type = type
  }

  /// Makes the column the primary key (`PRIMARY KEY`). An `INTEGER` primary
  /// key is the table's rowid; `autoincrement` keeps rowids of deleted rows
  /// from being reused.
  @discardableResult
  public func primaryKey(onConflict: Database.ConflictResolution? = nil, autoincrement: Bool = false)
    -> ColumnDefinition
  {
    primaryKey = PrimaryKey(onConflict: onConflict, autoincrement: autoincrement)
    return self
  }

  /// Forbids NULL (`NOT NULL`).
  @discardableResult
  public func notNull(onConflict: Database.ConflictResolution? = nil) -> ColumnDefinition {
    notNull = Constraint(onConflict: onConflict)
    return self
  }

  /// Forbids duplicate values (`UNIQUE`).
  @discardableResult
  public func unique(onConflict: Database.ConflictResolution? = nil) -> ColumnDefinition {
    unique = Constraint(onConflict: onConflict)
    return self
  }

  /// Adds a check on the column's values: `.check { length($0) > 0 }`.
  @discardableResult
  public func check(_ condition: (Column) -> any SQLExpressible) -> ColumnDefinition {
    checks.append(condition(Column(name)).sqlExpression)
    return self
  }

  /// Adds a check written in SQL: `.check(sql: "score >= 0")`.
  @discardableResult
  public func check(sql: String) -> ColumnDefinition {
    checks.append(SQLExpression(sql: sql))
    return self
  }

  /// The value of the column when an insert gives none (`DEFAULT`).
  @discardableResult
  public func defaults(to value: some DatabaseValueConvertible) -> ColumnDefinition {
    defaultExpression = value.sqlExpression
    return self
  }

  /// A default value written in SQL: `.defaults(sql: "CURRENT_TIMESTAMP")`.
  @discardableResult
  public func defaults(sql: String) -> ColumnDefinition {
    defaultExpression = SQLExpression(sql: sql)
    return self
  }

  /// The collation used to compare the column's values (`COLLATE`).
  @discardableResult
  public func collate(_ collation: Database.CollationName) -> ColumnDefinition {
    self.collation = collation.rawValue
    return self
  }

  /// Makes the column computed from others (`GENERATED ALWAYS AS`). Needs
  /// SQLite 3.31.0: creating the table throws ``SQLiteFeatureError`` before.
  @discardableResult
  public func generatedAs(
    _ expression: some SQLExpressible, _ qualification: GeneratedColumnQualification = .virtual
  ) -> ColumnDefinition {
    generated = (expression.sqlExpression, qualification)
    return self
  }

  /// Makes the column computed from an SQL expression (`GENERATED ALWAYS AS`).
  @discardableResult
  public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual)
    -> ColumnDefinition
  {
    generated = (SQLExpression(sql: sql), qualification)
    return self
  }

  /// Makes the column refer to a row of another table (`REFERENCES`). With no
  /// `column`, it refers to the other table's primary key.
  @discardableResult
  public func references(
    _ table: String, column: String? = nil, onDelete: Database.ForeignKeyAction? = nil,
    onUpdate: Database.ForeignKeyAction? = nil, deferred: Bool = false
  ) -> ColumnDefinition {
    references.append(
      ForeignKeyClause(
        destinationTable: table, destinationColumns: column.map { [$0] }, onDelete: onDelete,
        onUpdate: onUpdate, deferred: deferred))
    return self
  }

  /// Creates an index on the column, named `<table>_on_<column>` as in GRDB.
  /// A ``unique(onConflict:)`` column needs none: its constraint is an index.
  @discardableResult
  public func indexed() -> ColumnDefinition {
    isIndexed = true
    return self
  }

  /// The `CREATE INDEX` statement that ``indexed()`` asks for, if any.
  func indexSQL(table: String, options: IndexOptions) -> String? {
    guard isIndexed, unique == nil else { return nil }
    return Database.createIndexSQL(
      name: "\(table)_on_\(name)", table: table, terms: [name.quotedDatabaseIdentifier], options: options,
      condition: nil)
  }

  /// The column definition SQL.
  func sql(_ db: Database, tableName: String, tablePrimaryKey: [String]?) throws -> String {
    var parts = [name.quotedDatabaseIdentifier]
    if let type { parts.append(type.rawValue) }
    if let primaryKey {
      parts.append("PRIMARY KEY")
      if let onConflict = primaryKey.onConflict { parts.append("ON CONFLICT \(onConflict.rawValue)") }
      if primaryKey.autoincrement { parts.append("AUTOINCREMENT") }
    }
    // ABORT, SQLite's default, is not written for NOT NULL and UNIQUE, as GRDB
    // writes them (a primary key writes every resolution it is given).
    if let notNull {
      parts.append("NOT NULL")
      if let onConflict = notNull.onConflict, onConflict != .abort {
        parts.append("ON CONFLICT \(onConflict.rawValue)")
      }
    }
    if let unique {
      parts.append("UNIQUE")
      if let onConflict = unique.onConflict, onConflict != .abort {
        parts.append("ON CONFLICT \(onConflict.rawValue)")
      }
    }
    for check in checks { parts.append("CHECK (\(try check.schemaSQL()))") }
    if let defaultExpression {
      // Values become literals; SQL given with `defaults(sql:)` goes as written.
      parts.append("DEFAULT \(try defaultExpression.schemaSQL())")
    }
    if let collation { parts.append("COLLATE \(collation)") }
    for reference in references {
      parts.append(try reference.sql(db, definingTable: tableName, definingPrimaryKey: tablePrimaryKey))
    }
    if let generated {
      try db.features.require(.generatedColumns)
      let qualification = generated.qualification == .stored ? "STORED" : "VIRTUAL"
      parts.append("GENERATED ALWAYS AS (\(try generated.expression.schemaSQL())) \(qualification)")
    }
    return parts.joined(separator: " ")
  }
}
