/// A `REFERENCES` clause: the destination table and columns, and its actions.
/// Columns left out are found when the SQL is generated: the primary key of
/// the destination table (or of the table being defined, for a reference to
/// itself).
struct ForeignKeyClause {
  var destinationTable: String
  var destinationColumns: [String]?
  var onDelete: Database.ForeignKeyAction?
  var onUpdate: Database.ForeignKeyAction?
  var deferred: Bool

  /// The destination columns: given, or the destination primary key, `rowid`
  /// when it is the hidden rowid (as GRDB writes it). Nil when the
  /// destination does not exist yet: SQLite then refers to its primary key
  /// once it does.
  func resolvedDestinationColumns(_ db: Database, definingTable: String?, definingPrimaryKey: [String]?)
    throws -> [String]?
  {
    if let destinationColumns { return destinationColumns }
    let refersToItself =
      definingTable.map { destinationTable.sameName(as: $0) } ?? false
    if refersToItself, let definingPrimaryKey { return definingPrimaryKey }
    if try db.tableExists(destinationTable) { return try db.primaryKey(destinationTable).columns }
    // A table being created without a declared primary key refers to its rowid.
    return refersToItself ? [Column.rowID.name] : nil
  }

  func sql(_ db: Database, definingTable: String?, definingPrimaryKey: [String]?) throws -> String {
    var text = "REFERENCES \(destinationTable.quotedDatabaseIdentifier)"
    if let columns = try resolvedDestinationColumns(
      db, definingTable: definingTable, definingPrimaryKey: definingPrimaryKey)
    {
      text += "(\(columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")))"
    }
    if let onDelete { text += " ON DELETE \(onDelete.rawValue)" }
    if let onUpdate { text += " ON UPDATE \(onUpdate.rawValue)" }
    if deferred { text += " DEFERRABLE INITIALLY DEFERRED" }
    return text
  }
}

extension SQLExpression {
  /// The expression as SQL text for a schema statement: values inlined as
  /// literals, since SQLite takes no arguments in `CREATE` statements.
  func schemaSQL() throws -> String {
    try sql(SQLGenerationContext.inliningValues())
  }
}
