/// A change that SQLite before 3.25.0 (rename) or 3.35.0 (drop) can only make
/// by rebuilding the table.
enum TableRebuildChange {
  case renameColumn(from: String, to: String)
  case dropColumn(String)
}

extension Database {
  /// True if this connection enforces foreign keys right now.
  var foreignKeysAreEnforced: Bool {
    get throws { try Bool.fetchOne(self, sql: "PRAGMA foreign_keys") ?? false }
  }

  /// Rebuilds a table with one column renamed or dropped, following SQLite's
  /// "other kinds of table schema changes" procedure
  /// (https://www.sqlite.org/lang_altertable.html#otheralter): create the new
  /// table, copy the rows, drop the old table, rename the new one, recreate
  /// indexes, triggers and views, check foreign keys. Runs inside the caller's
  /// transaction or savepoint, which undoes everything on error.
  func rebuildTable(_ table: String, change: TableRebuildChange) throws {
    guard
      let tableRow = try Row.fetchOne(
        self, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
        arguments: [table])
    else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
    }
    let tableName: String = tableRow["name"]
    let tableSQL: String = tableRow["sql"]
    guard var statement = CreateTableStatement(sql: tableSQL) else {
      throw DatabaseError(
        resultCode: .SQLITE_ERROR, message: "can not alter table \(tableName): its definition can not be read"
      )
    }
    let enforcesForeignKeys = try foreignKeysAreEnforced
    let references = try foreignKeyReferences(to: tableName)
    if enforcesForeignKeys, let child = references.first(where: { !$0.child.sameName(as: tableName) }) {
      throw DatabaseError(
        resultCode: .SQLITE_ERROR,
        message: "can not rebuild table \(tableName) inside a transaction while foreign keys are enforced: "
          + "table \(child.child) refers to it, and dropping it would run its ON DELETE actions. "
          + "Alter it in a migration with deferred foreign key checks, or outside of a transaction")
    }
    let columns = try self.columns(in: tableName)
    var copied = try copiedColumns(tableName, columns: columns)
    var dependents = try schemaDependents(of: tableName)

    switch change {
    case .renameColumn(let old, let new):
      guard let oldName = columns.first(where: { $0.name.sameName(as: old) })?.name else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such column: \"\(old)\"")
      }
      if !old.sameName(as: new), columns.contains(where: { $0.name.sameName(as: new) }) {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "duplicate column name: \(new)")
      }
      if let child = references.first(where: {
        !$0.child.sameName(as: tableName) && $0.column?.sameName(as: old) == true
      }) {
        throw DatabaseError(
          resultCode: .SQLITE_ERROR,
          message:
            "can not rename column \(oldName) of \(tableName): the foreign key of table \(child.child) names it"
        )
      }
      statement.elements = statement.elements.map { $0.renamingColumn(old, to: new, inTable: tableName) }
      copied = copied.map { ($0.from, $0.from.sameName(as: old) ? new : $0.to) }
      dependents = dependents.map { $0.renamingColumn(old, to: new, inTable: tableName) }
    case .dropColumn(let name):
      try checkDroppable(name, of: tableName, statement: statement, columns: columns, dependents: dependents)
      if references.contains(where: {
        !$0.child.sameName(as: tableName) && $0.column?.sameName(as: name) == true
      }) {
        throw DatabaseError(
          resultCode: .SQLITE_ERROR,
          message: "cannot drop column \"\(name)\": a foreign key of another table refers to it")
      }
      statement.elements.removeAll { $0.columnName?.sameName(as: name) == true }
      copied.removeAll { $0.from.sameName(as: name) }
    }

    let sequence = try autoincrementSequence(of: tableName)
    let legacyAlterTable = try Bool.fetchOne(self, sql: "PRAGMA legacy_alter_table")
    // With the legacy behavior, RENAME TO touches no other schema object: the
    // dependents are dropped and recreated here, already rewritten.
    if legacyAlterTable == false { try execute(sql: "PRAGMA legacy_alter_table = ON") }
    defer { if legacyAlterTable == false { try? execute(sql: "PRAGMA legacy_alter_table = OFF") } }

    for dependent in dependents.reversed() where dependent.type != "index" {
      try execute(
        sql: "DROP \(dependent.type.uppercased()) IF EXISTS \(dependent.name.quotedDatabaseIdentifier)")
    }
    var temporaryName = "sealite_rebuild_\(tableName)"
    while try tableExists(temporaryName) { temporaryName += "_" }
    try execute(sql: statement.sql(tableName: temporaryName))
    let target = copied.map { $0.to.quotedDatabaseIdentifier }.joined(separator: ", ")
    let source = copied.map { $0.from.quotedDatabaseIdentifier }.joined(separator: ", ")
    try execute(
      sql: "INSERT INTO \(temporaryName.quotedDatabaseIdentifier) (\(target)) SELECT \(source) FROM "
        + tableName.quotedDatabaseIdentifier)
    try execute(sql: "DROP TABLE \(tableName.quotedDatabaseIdentifier)")
    try execute(
      sql:
        "ALTER TABLE \(temporaryName.quotedDatabaseIdentifier) RENAME TO \(tableName.quotedDatabaseIdentifier)"
    )
    for dependent in dependents { try execute(sql: dependent.sql) }
    if let sequence {
      try execute(
        sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", arguments: [sequence, tableName])
    }
    if enforcesForeignKeys { try checkForeignKeys() }
  }

  /// The columns the copy moves: all but generated ones, which SQLite computes.
  private func copiedColumns(_ table: String, columns: [ColumnInfo]) throws -> [(from: String, to: String)] {
    guard features.supports(.tableXInfo) else { return columns.map { ($0.name, $0.name) } }
    let rows = try Row.fetchAll(self, sql: "PRAGMA table_xinfo(\(table.quotedDatabaseIdentifier))")
    return rows.compactMap { row in
      let hidden: Int = row["hidden"]
      let name: String = row["name"]
      return hidden == 0 ? (name, name) : nil
    }
  }

  /// The foreign keys of every table that refer to `table`, with the column
  /// they name (nil when they refer to the primary key implicitly).
  private func foreignKeyReferences(to table: String) throws -> [(child: String, column: String?)] {
    let tables = try String.fetchAll(
      self,
      sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    var result: [(child: String, column: String?)] = []
    for child in tables {
      let rows = try Row.fetchAll(self, sql: "PRAGMA foreign_key_list(\(child.quotedDatabaseIdentifier))")
      for row in rows {
        let destination: String = row["table"]
        if destination.sameName(as: table) { result.append((child, row["to"])) }
      }
    }
    return result
  }

  /// Indexes of the table, and every trigger and view (views and triggers
  /// elsewhere may name the table, and SQLite checks them when a table is
  /// renamed), in creation order.
  private func schemaDependents(of table: String) throws -> [SchemaDependent] {
    try Row.fetchAll(
      self,
      sql: """
        SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE sql IS NOT NULL AND (type IN ('trigger', 'view') OR (type = 'index' AND tbl_name = ? COLLATE NOCASE))
        ORDER BY rowid
        """, arguments: [table]
    ).map { row in
      SchemaDependent(type: row["type"], name: row["name"], tableName: row["tbl_name"], sql: row["sql"])
    }
  }

  private func checkDroppable(
    _ name: String, of table: String, statement: CreateTableStatement, columns: [ColumnInfo],
    dependents: [SchemaDependent]
  ) throws {
    func refuse(_ reason: String) -> DatabaseError {
      DatabaseError(
        resultCode: .SQLITE_ERROR, message: "cannot drop column \"\(name)\" of \(table): \(reason)")
    }
    guard let column = columns.first(where: { $0.name.sameName(as: name) }) else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such column: \"\(name)\"")
    }
    if column.primaryKeyIndex > 0 { throw refuse("it is part of the PRIMARY KEY") }
    if columns.count == 1 { throw refuse("it is the only column") }
    for index in try indexes(on: table) where index.columns.contains(where: { $0.sameName(as: name) }) {
      throw refuse(index.origin == .createIndex ? "index \(index.name) uses it" : "it is UNIQUE")
    }
    for element in statement.elements where element.columnName?.sameName(as: name) != true {
      let tokens = element.isTableConstraint ? element.tokens : element.columnParts.constraints
      if tokens.mentionsColumn(name, inTable: table) {
        throw refuse("a constraint or check of the table uses it")
      }
    }
    if let column = statement.elements.first(where: { $0.columnName?.sameName(as: name) == true }) {
      let constraints = column.columnParts.constraints.significant
      if constraints.contains(where: { $0.isKeyword("REFERENCES") }) { throw refuse("it is a foreign key") }
    }
    for dependent in dependents where dependent.type != "index" && dependent.mentions(name, of: table) {
      throw refuse("\(dependent.type) \(dependent.name) uses it")
    }
  }

  private func autoincrementSequence(of table: String) throws -> Int64? {
    guard try tableExists("sqlite_sequence") else { return nil }
    return try Int64.fetchOne(self, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
  }
}

/// An index, trigger or view that the rebuild drops and recreates.
struct SchemaDependent {
  var type: String
  var name: String
  var tableName: String
  var sql: String

  /// The tokens of the body: what follows `ON` for an index, the trigger name
  /// for a trigger, `AS` for a view. Names before it (the object's own name,
  /// a view's column list) are never a column of the table.
  private var bodyStart: (tokens: [SQLToken], start: Int) {
    let tokens = SQLToken.tokenize(sql)
    let keyword: String
    switch type {
    case "index": keyword = "ON"
    case "view": keyword = "AS"
    default: keyword = "TRIGGER"
    }
    guard let keywordIndex = tokens.firstIndex(where: { $0.isKeyword(keyword) }) else { return (tokens, 0) }
    var start = keywordIndex + 1
    if type == "trigger" {
      // Skip `IF NOT EXISTS` and the (possibly qualified) trigger name.
      while start < tokens.count
        && (tokens[start].isSpace || tokens[start].text == "."
          || ["IF", "NOT", "EXISTS"].contains { tokens[start].isKeyword($0) })
      {
        start += 1
      }
      start += 1
      while start + 1 < tokens.count && tokens[start].text == "." { start += 2 }
    }
    return (tokens, Swift.min(start, tokens.count))
  }

  /// True if this object concerns `table`: an index or trigger on it, or a
  /// view or trigger that names it.
  private func concerns(_ table: String) -> Bool {
    tableName.sameName(as: table) || SQLToken.tokenize(sql).contains { $0.names(table) }
  }

  func mentions(_ column: String, of table: String) -> Bool {
    guard concerns(table) else { return false }
    let (tokens, start) = bodyStart
    return Array(tokens[start...]).mentionsColumn(column, inTable: table)
  }

  func renamingColumn(_ old: String, to new: String, inTable table: String) -> SchemaDependent {
    guard concerns(table) else { return self }
    let (tokens, start) = bodyStart
    var copy = self
    copy.sql =
      (Array(tokens[..<start]) + Array(tokens[start...]).renamingColumn(old, to: new, inTable: table)).sql
    return copy
  }
}

extension CreateTableStatement.Element {
  /// The element with column `old` renamed: its own name if it is that column,
  /// and the uses in its constraints (never its declared type).
  func renamingColumn(_ old: String, to new: String, inTable table: String) -> Self {
    if isTableConstraint {
      return Self(tokens: tokens.renamingColumn(old, to: new, inTable: table))
    }
    var (nameAndType, constraints) = columnParts
    if let first = nameAndType.firstIndex(where: { !$0.isSpace }), nameAndType[first].names(old) {
      nameAndType[first] = SQLToken(
        kind: .identifier(name: new, quoted: true), text: new.quotedDatabaseIdentifier)
    }
    return Self(tokens: nameAndType + constraints.renamingColumn(old, to: new, inTable: table))
  }
}
