/// The foreign key made by ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``:
/// columns named after the destination and its primary key (`teamId` for a
/// table `team` whose primary key is `id`), a `REFERENCES` clause, and an index.
public final class ForeignKeyDefinition {
  let name: String
  let destinationTable: String
  let onDelete: Database.ForeignKeyAction?
  let onUpdate: Database.ForeignKeyAction?
  let deferred: Bool
  let indexed: Bool
  var notNull: ColumnDefinition.Constraint?

  init(
    name: String, destinationTable: String, onDelete: Database.ForeignKeyAction?,
    onUpdate: Database.ForeignKeyAction?, deferred: Bool, indexed: Bool
  ) {
    self.name = name
    self.destinationTable = destinationTable
    self.onDelete = onDelete
    self.onUpdate = onUpdate
    self.deferred = deferred
    self.indexed = indexed
  }

  /// Forbids NULL in the foreign key columns: every row must belong to one.
  @discardableResult
  public func notNull(onConflict: Database.ConflictResolution? = nil) -> ForeignKeyDefinition {
    notNull = ColumnDefinition.Constraint(onConflict: onConflict)
    return self
  }

  /// The columns, types and destination columns, found from the destination
  /// primary key (of the table being defined, for a reference to itself).
  func resolve(_ db: Database, definingTable: String, definingPrimaryKey: [(String, Database.ColumnType?)]?)
    throws -> [(column: String, type: Database.ColumnType?, destination: String)]
  {
    let destinationKey: [(String, Database.ColumnType?)]
    if destinationTable.caseInsensitiveCompare(definingTable) == .orderedSame {
      guard let definingPrimaryKey else {
        throw DatabaseError.misuse(
          "belongsTo(\(name.debugDescription)): the table \(definingTable) has no primary key to refer to")
      }
      destinationKey = definingPrimaryKey
    } else {
      guard try db.tableExists(destinationTable) else {
        throw DatabaseError(
          resultCode: .SQLITE_ERROR,
          message: "belongsTo(\(name.debugDescription)): no such table: \(destinationTable)")
      }
      let primaryKey = try db.primaryKey(destinationTable)
      let columns = try db.columns(in: destinationTable)
      if primaryKey.isHiddenRowID {
        destinationKey = [("rowid", .integer)]
      } else {
        destinationKey = primaryKey.columns.map { name in
          let info = columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
          return (name, info.flatMap { $0.type.isEmpty ? nil : Database.ColumnType(rawValue: $0.type) })
        }
      }
    }
    return destinationKey.map { key in
      let suffix = key.0 == "rowid" ? "Id" : key.0.prefix(1).uppercased() + key.0.dropFirst()
      return (name + suffix, key.1, key.0)
    }
  }
}
