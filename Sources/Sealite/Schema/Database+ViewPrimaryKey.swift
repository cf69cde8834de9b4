extension Database {
  /// The primary key the schema source gives the view `name`, or nil when
  /// there is no source, no such view, or the source does not say. The
  /// columns are spelled as the view spells them.
  func viewPrimaryKeyFromSchemaSource(_ name: String, in schemaName: String?) throws -> PrimaryKeyInfo? {
    guard let schemaSource, let schemaID = try schemaID(ofView: name, in: schemaName) else { return nil }
    let view = DatabaseObjectID(name: name, schemaID: schemaID)
    guard let keyNames = try schemaSource.columnsForPrimaryKey(self, inView: view), !keyNames.isEmpty
    else { return nil }
    let viewColumns = try columns(in: name, in: schemaID.name).map(\.name)
    let keyColumns = try keyNames.map { keyName in
      guard let column = viewColumns.first(where: { $0.nameKey == keyName.nameKey }) else {
        throw DatabaseError(
          resultCode: .SQLITE_ERROR,
          message:
            "the schema source names a column that does not exist in \(schemaID.describeView(name)): \(keyName)"
        )
      }
      return column
    }
    // A view has no rowid.
    return PrimaryKeyInfo(kind: .regular(keyColumns, tableHasRowID: false))
  }

  /// The schema whose view `name` an unqualified name resolves to (or the
  /// given schema), or nil when no schema has such a view.
  private func schemaID(ofView name: String, in schemaName: String?) throws -> DatabaseSchemaID? {
    for schema in try schemaName.map({ [$0] }) ?? schemaNames() where try viewExists(name, in: schema) {
      return DatabaseSchemaID(name: schema)
    }
    return nil
  }
}
