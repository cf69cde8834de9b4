/// The changes to a table, built in the closure of ``Database/alter(table:body:)``:
///
///     try db.alter(table: "player") { t in
///       t.add(column: "email", .text).collate(.nocase)
///       t.rename(column: "score", to: "points")
///       t.drop(column: "legacyFlag")
///     }
///
/// Changes run in order. Renaming and dropping a column use SQLite's
/// `ALTER TABLE` where the linked SQLite has it (3.25.0 and 3.35.0), and
/// rebuild the table otherwise (see ``Database/alter(table:body:)``).
public final class TableAlteration {
  enum Change {
    case add(ColumnDefinition)
    case addLiteral(SQL)
    case rename(from: String, to: String)
    case drop(String)
  }

  let name: String
  var changes: [Change] = []

  init(name: String) {
    self.name = name
  }

  /// Adds a column (`ALTER TABLE … ADD COLUMN`). SQLite's rules apply: no
  /// primary key or unique constraint, and a `NOT NULL` column needs a default.
  @discardableResult
  public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
    let column = ColumnDefinition(name: name, type: type)
    changes.append(.add(column))
    return column
  }

  /// Adds a column written in SQL.
  public func addColumn(sql: String) {
    changes.append(.addLiteral(SQL(sql: sql)))
  }

  /// Adds a column written as an SQL literal.
  public func addColumn(literal: SQL) {
    changes.append(.addLiteral(literal))
  }

  /// Renames a column. Indexes, triggers and views that use it follow.
  public func rename(column name: String, to newName: String) {
    changes.append(.rename(from: name, to: newName))
  }

  /// Drops a column. Like SQLite, refuses a column that is part of the
  /// primary key, a unique constraint, an index, a foreign key or a check.
  public func drop(column name: String) {
    changes.append(.drop(name))
  }
}
