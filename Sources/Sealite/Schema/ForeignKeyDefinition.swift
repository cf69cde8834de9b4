/// The foreign key made by ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``:
/// columns named after the association and the destination primary key
/// (`teamId` for a table `team` whose primary key is `id`), a `REFERENCES`
/// clause, and an index.
///
/// As in GRDB, the destination is `inTable` when given; otherwise the table
/// named after the association, or else its plural (`t.belongsTo("team")`
/// refers to `teams` when there is no `team` table). A single-column key is
/// a column constraint, indexed as `<table>_on_<column>`; a composite key is
/// a table constraint, indexed as `index_<table>_on_<columns>`.
public final class ForeignKeyDefinition {
  enum Indexing {
    case index
    case unique
  }

  let name: String
  let destinationTable: String?
  let onDelete: Database.ForeignKeyAction?
  let onUpdate: Database.ForeignKeyAction?
  let deferred: Bool
  var indexing: Indexing?
  var notNull: ColumnDefinition.Constraint?

  init(
    name: String, destinationTable: String?, onDelete: Database.ForeignKeyAction?,
    onUpdate: Database.ForeignKeyAction?, deferred: Bool, indexed: Bool
  ) {
    self.name = name
    self.destinationTable = destinationTable
    self.onDelete = onDelete
    self.onUpdate = onUpdate
    self.deferred = deferred
    self.indexing = indexed ? .index : nil
  }

  /// Forbids NULL in the foreign key columns: every row must belong to one.
  @discardableResult
  public func notNull(onConflict: Database.ConflictResolution? = nil) -> ForeignKeyDefinition {
    notNull = ColumnDefinition.Constraint(onConflict: onConflict)
    return self
  }

  /// Makes the foreign key unique (one row at most per destination row):
  /// a `UNIQUE` column, or a unique index for a composite key, instead of
  /// the plain index.
  @discardableResult
  public func unique() -> ForeignKeyDefinition {
    indexing = .unique
    return self
  }

  /// The destination table and its primary key. `originKey` is the primary
  /// key of the table being defined, for a reference to itself; nil while
  /// that key is still being resolved (a table can not belong to itself in
  /// its own primary key).
  func destination(_ db: Database, originTable: String, originKey: PrimaryKeyDescriptor?) throws
    -> PrimaryKeyDescriptor
  {
    if let destinationTable {
      if let originKey, originTable.sameName(as: destinationTable) { return originKey }
      return try PrimaryKeyDescriptor.find(db, table: destinationTable)
    }
    if let originKey,
      Inflections.singularize(originTable).sameName(as: Inflections.singularize(name))
    {
      return originKey
    }
    if try db.tableExists(name) { return try PrimaryKeyDescriptor.find(db, table: name) }
    let plural = Inflections.pluralize(name)
    if try db.tableExists(plural) { return try PrimaryKeyDescriptor.find(db, table: plural) }
    throw DatabaseError.noSuchTable(name)
  }

  /// The names of the columns this foreign key adds, in the key's order.
  func columnNames(for destination: PrimaryKeyDescriptor) -> [String] {
    guard let columns = destination.columns else { return [name + "Id"] }
    return columns.map { name + $0.name.prefix(1).uppercased() + $0.name.dropFirst() }
  }
}

/// A table and its primary key columns, as a foreign key refers to them.
struct PrimaryKeyDescriptor {
  struct KeyColumn {
    var name: String
    var type: Database.ColumnType?
  }

  var table: String
  /// Nil for the hidden rowid.
  var columns: [KeyColumn]?

  /// The referenced columns: `rowid` for the hidden rowid, as GRDB writes it.
  var referencedColumns: [KeyColumn] {
    columns ?? [KeyColumn(name: Column.rowID.name, type: .integer)]
  }

  /// The primary key of an existing table. Throws if there is no such table.
  static func find(_ db: Database, table: String) throws -> PrimaryKeyDescriptor {
    let primaryKey = try db.primaryKey(table)
    if primaryKey.isHiddenRowID { return PrimaryKeyDescriptor(table: table, columns: nil) }
    let infos = try db.columns(in: table)
    return PrimaryKeyDescriptor(
      table: table,
      columns: primaryKey.columns.map { name in
        let info = infos.first { $0.name.sameName(as: name) }
        let type = info.flatMap { $0.type.isEmpty ? nil : Database.ColumnType(rawValue: $0.type) }
        return KeyColumn(name: name, type: type)
      })
  }
}
