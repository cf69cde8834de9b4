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

  /// The destination columns: given, or the destination primary key. Nil
  /// when the destination has only the hidden rowid (or does not exist yet):
  /// SQLite then refers to its primary key.
  func resolvedDestinationColumns(_ db: Database, definingTable: String?, definingPrimaryKey: [String]?)
    throws -> [String]?
  {
    if let destinationColumns { return destinationColumns }
    if let definingTable, destinationTable.caseInsensitiveCompare(definingTable) == .orderedSame {
      return definingPrimaryKey
    }
    guard try db.tableExists(destinationTable) else { return nil }
    let primaryKey = try db.primaryKey(destinationTable)
    return primaryKey.isHiddenRowID ? nil : primaryKey.columns
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
