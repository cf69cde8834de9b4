/// A row whose foreign key refers to no row, as `PRAGMA foreign_key_check`
/// reports it (see ``Database/foreignKeyViolations()``).
public struct ForeignKeyViolation: Sendable, Hashable, CustomStringConvertible {
  /// The table of the referencing row.
  public var originTable: String
  /// The rowid of the referencing row (nil for a `WITHOUT ROWID` table).
  public var originRowID: Int64?
  /// The table it should refer to.
  public var destinationTable: String
  /// The id of the failing foreign key (``ForeignKeyInfo/id``).
  public var foreignKeyId: Int

  /// Reads a row of `PRAGMA foreign_key_check`: the origin table, the rowid,
  /// the destination table and the foreign key id, in that order.
  ///
  ///     let violations = try ForeignKeyViolation.fetchAll(db, sql: "PRAGMA foreign_key_check")
  public init(row: Row) {
    originTable = row[0]
    originRowID = row[1]
    destinationTable = row[2]
    foreignKeyId = row[3]
  }

  /// `FOREIGN KEY constraint violation - from track to artist, in rowid 3`
  public var description: String {
    var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
    if let originRowID { text += ", in rowid \(originRowID)" }
    return text
  }

  /// A description naming the columns and the row:
  /// `FOREIGN KEY constraint violation - from track(artistId) to artist(id), in rowid 3`.
  /// With ``Configuration/publicStatementArguments``, the row's values too
  /// (`in [id:3 artistId:9]`); they are left out otherwise, as rows may hold
  /// personal or secret data.
  public func failureDescription(_ db: Database) throws -> String {
    var text = "FOREIGN KEY constraint violation - from \(originTable)"
    if let foreignKey = try db.foreignKeys(on: originTable).first(where: { $0.id == foreignKeyId }) {
      text += "(\(foreignKey.originColumns.joined(separator: ", "))) to \(destinationTable)"
      text += "(\(foreignKey.destinationColumns.joined(separator: ", ")))"
    } else {
      text += " to \(destinationTable)"
    }
    if let originRowID, db.configuration.publicStatementArguments {
      let row = try Row.fetchOne(
        db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?",
        arguments: [originRowID])
      text += row.map { ", in \($0)" } ?? ", in rowid \(originRowID)"
    } else if let originRowID {
      text += ", in rowid \(originRowID)"
    }
    return text
  }

  /// The violation as a ``DatabaseError`` with code `SQLITE_CONSTRAINT_FOREIGNKEY`,
  /// whose message names the table, the columns and the row.
  public func databaseError(_ db: Database) -> DatabaseError {
    DatabaseError(
      resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: (try? failureDescription(db)) ?? description)
  }
}
