/// What a connection learned of the schema, one dictionary per kind of fact,
/// by table name key (`nameKey`: SQLite compares names ignoring ASCII case).
///
/// Core tells it when the schema may have changed (see
/// ``ConnectionState/schemaDidChange()``): a schema statement of this
/// connection, a schema version another connection changed since the last
/// access, a rollback that took back schema changes, `clearSchemaCache()`.
final class SchemaCache: ConnectionState {
  var columns: [String: [ColumnInfo]] = [:]
  var primaryKeys: [String: PrimaryKeyInfo] = [:]
  var indexes: [String: [IndexInfo]] = [:]
  var foreignKeys: [String: [ForeignKeyInfo]] = [:]
  /// The name of a table as the schema spells it; nil for no such table.
  var canonicalTableNames: [String: String?] = [:]
  /// Whether a table of that name exists (main or temp schema).
  var tableExistence: [String: Bool] = [:]

  static func make(for db: Database) -> SchemaCache { SchemaCache() }

  func schemaDidChange() {
    columns.removeAll()
    primaryKeys.removeAll()
    tableExistence.removeAll()
    indexes.removeAll()
    foreignKeys.removeAll()
    canonicalTableNames.removeAll()
  }
}

extension Database {
  /// The fact of `kind` about `table`, computed on first use and kept until
  /// the schema changes.
  func cachedSchemaFact<Fact>(
    _ kind: ReferenceWritableKeyPath<SchemaCache, [String: Fact]>, _ table: String,
    in schemaName: String? = nil,
    compute: () throws -> Fact
  ) throws -> Fact {
    // Facts of a named schema are read each time: the schema version that
    // validates the cache is the main schema's.
    if let schemaName {
      try requireSchema(schemaName)
      return try compute()
    }
    // Once per access (and after a schema statement) the schema version is
    // read again: another connection may have changed the schema.
    validateSchemaFacts()
    let cache = state(for: SchemaCache.self)
    let key = table.nameKey
    if let fact = cache[keyPath: kind][key] { return fact }
    let fact = try compute()
    cache[keyPath: kind][key] = fact
    return fact
  }

  /// Throws "no such schema" for a name that is neither `main`, `temp` nor
  /// an attached database, as GRDB does (SQLite's own message would name
  /// the PRAGMA that read the schema: `unknown database "x"`).
  func requireSchema(_ schemaName: String) throws {
    if schemaName.sameName(as: "main") || schemaName.sameName(as: "temp") { return }
    guard try schemaNames().contains(where: { $0.sameName(as: schemaName) }) else {
      throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such schema: \(schemaName)")
    }
  }
}
