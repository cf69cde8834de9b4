/// A part of a database: tables, some of their columns, some of their rows.
///
/// A region tells which changes matter to an observation: a change outside
/// of the region does not refresh it.
///
///     let region = try Player.filter(key: 1).databaseRegion(db)   // player(*)[1]
///     let everything = DatabaseRegion.fullDatabase
public struct DatabaseRegion: Sendable, Hashable, CustomStringConvertible {
  /// Regions by table name key (`nameKey`); nil for the full database.
  private(set) var tables: [String: TableRegion]?

  /// The part of one table a region covers.
  struct TableRegion: Sendable, Hashable {
    /// The table name, as first given.
    var name: String
    /// Lowercased column names, or nil for every column.
    var columns: Set<String>?
    /// Rowids, or nil for every row.
    var rowIDs: Set<Int64>?

    func union(_ other: TableRegion) -> TableRegion {
      var result = self
      if let columns, let otherColumns = other.columns {
        result.columns = columns.union(otherColumns)
      } else {
        result.columns = nil
      }
      if let rowIDs, let otherRowIDs = other.rowIDs {
        result.rowIDs = rowIDs.union(otherRowIDs)
      } else {
        result.rowIDs = nil
      }
      return result
    }
  }

  /// The empty region.
  public init() {
    tables = [:]
  }

  private init(tables: [String: TableRegion]?) {
    self.tables = tables
  }

  /// Every table, column and row of the database.
  public static let fullDatabase = DatabaseRegion(tables: nil)

  /// A region of one table: some or all of its columns and rows.
  init(table: String, columns: Set<String>? = nil, rowIDs: Set<Int64>? = nil) {
    let lowercasedColumns = columns.map { Set($0.map { $0.nameKey }) }
    tables = [
      table.nameKey: TableRegion(name: table, columns: lowercasedColumns, rowIDs: rowIDs)
    ]
  }

  /// The region of all columns and rows of one table.
  public init(table: String) {
    self.init(table: table, columns: nil, rowIDs: nil)
  }

  /// True if the region holds nothing.
  public var isEmpty: Bool { tables?.isEmpty ?? false }

  /// True if the region is the whole database.
  public var isFullDatabase: Bool { tables == nil }

  /// The name keys of the tables of the region (nil for the full database).
  var tableNames: Set<String>? { tables.map { Set($0.keys) } }

  /// The union of two regions.
  public func union(_ other: DatabaseRegion) -> DatabaseRegion {
    var result = self
    result.formUnion(other)
    return result
  }

  /// Adds `other` to this region.
  public mutating func formUnion(_ other: DatabaseRegion) {
    guard var tables, let otherTables = other.tables else {
      self.tables = nil
      return
    }
    for (key, region) in otherTables {
      tables[key] = tables[key].map { $0.union(region) } ?? region
    }
    self.tables = tables
  }

  /// The region, restricted to the given rowids of `table` (the rows a
  /// request selects by primary key).
  func restricted(table: String, toRowIDs rowIDs: Set<Int64>) -> DatabaseRegion {
    guard var tables, var region = tables[table.nameKey] else { return self }
    region.rowIDs = region.rowIDs.map { $0.intersection(rowIDs) } ?? rowIDs
    tables[table.nameKey] = region
    return DatabaseRegion(tables: tables)
  }

  /// True if a statement that performs writes of this kind may change the region.
  public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
    guard let tables else { return true }
    guard let region = tables[eventKind.tableName.nameKey] else { return false }
    switch eventKind {
    case .insert, .delete:
      return true
    case .update(_, let columnNames):
      guard let columns = region.columns else { return true }
      // An empty column name stands for the whole table (`COUNT(*)`).
      if columns.contains("") { return true }
      return columnNames.contains { columns.contains($0.nameKey) }
    }
  }

  /// True if this row change may change the region. Meant for events of
  /// statements for which ``isModified(byEventsOfKind:)`` was true.
  ///
  /// A change of a table outside of the region is one the statement did not
  /// announce: a full-text table (FTS3, FTS4, FTS5) stores its rows in shadow
  /// tables (`document_content`…), and the update hook reports those, not the
  /// table the statement writes. Such a change may change the region, as in
  /// GRDB.
  public func isModified(by event: DatabaseEvent) -> Bool {
    guard let tables else { return true }
    guard let region = tables[event.tableName.nameKey] else { return true }
    guard let rowIDs = region.rowIDs else { return true }
    return rowIDs.contains(event.rowID)
  }

  /// True if the region meets any of these tables (name keys).
  func intersects(tableNames: Set<String>) -> Bool {
    guard let tables else { return true }
    return tableNames.contains { tables[$0] != nil }
  }

  /// True if every part of `other` is in this region.
  func contains(_ other: DatabaseRegion) -> Bool {
    guard let tables else { return true }
    guard let otherTables = other.tables else { return false }
    for (key, otherRegion) in otherTables {
      guard let region = tables[key] else { return false }
      if let columns = region.columns {
        guard let otherColumns = otherRegion.columns, otherColumns.isSubset(of: columns) else { return false }
      }
      if let rowIDs = region.rowIDs {
        guard let otherRowIDs = otherRegion.rowIDs, otherRowIDs.isSubset(of: rowIDs) else { return false }
      }
    }
    return true
  }

  /// `player(id,name)[1,2],team(*)`, or `full database`, or `empty`.
  public var description: String {
    guard let tables else { return "full database" }
    if tables.isEmpty { return "empty" }
    return tables.values.sorted { $0.name.nameKey < $1.name.nameKey }.map { region in
      var text = region.name
      if let columns = region.columns, !columns.contains("") {
        text += "(" + columns.sorted().joined(separator: ",") + ")"
      } else {
        text += "(*)"
      }
      if let rowIDs = region.rowIDs {
        text += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]"
      }
      return text
    }.joined(separator: ",")
  }
}

extension Statement {
  /// The part of the database the statement reads.
  public var databaseRegion: DatabaseRegion {
    var region = DatabaseRegion()
    if authorization.mayReadUnreportedTables {
      // Old SQLite versions do not report tables read without columns: the
      // statement's program tells them.
      for table in tablesOpenedForReading where !StatementAuthorization.isInternal(table) {
        region.formUnion(DatabaseRegion(table: table))
      }
    }
    for (table, columns) in authorization.reads {
      // An empty column name means the whole table was read (`COUNT(*)`).
      region.formUnion(DatabaseRegion(table: table, columns: columns.contains("") ? nil : columns))
    }
    return region
  }
}

extension DatabaseRegion {
  /// The region one run of a statement reads: only the rows `restriction`
  /// names, when the run knows them.
  func restricted(by restriction: RowIDRestriction?) -> DatabaseRegion {
    guard let restriction else { return self }
    return restricted(table: restriction.table, toRowIDs: restriction.rowIDs)
  }
}

extension DatabaseRegion {
  /// The region an observation tracks: its tables under their names in the
  /// schema, without SQLite's own tables (whose changes are never reported)
  /// and without views. A view is read through its tables, which the region
  /// of a statement that reads the view holds too: a change can only come
  /// from them, and observing the view as well would count it twice (or
  /// refresh on writes that go nowhere, such as an `INSTEAD OF` trigger that
  /// does nothing).
  func observableRegion(_ db: Database) throws -> DatabaseRegion {
    guard let tables else { return .fullDatabase }
    var result: [String: TableRegion] = [:]
    for (key, region) in tables where !StatementAuthorization.isInternal(key) {
      guard let name = try db.canonicalTableName(region.name) else { continue }
      var region = region
      region.name = name
      result[name.nameKey] = result[name.nameKey].map { $0.union(region) } ?? region
    }
    return DatabaseRegion(tables: result)
  }

  /// The region, with only the tables (SQLite's own included) that exist in
  /// the schema, under their names there.
  func existingTables(_ db: Database) throws -> DatabaseRegion {
    guard let tables else { return .fullDatabase }
    var result: [String: TableRegion] = [:]
    for region in tables.values {
      guard let name = try db.canonicalTableName(region.name) else { continue }
      var region = region
      region.name = name
      result[name.nameKey] = result[name.nameKey].map { $0.union(region) } ?? region
    }
    return DatabaseRegion(tables: result)
  }

  /// Every kind of change that may modify the region: inserts, deletions
  /// and updates of its columns (all of them unless the region names some)
  /// in each of its tables, or in every table of every schema for the full
  /// database. The region must hold existing tables (``existingTables(_:)``).
  func eventKinds(_ db: Database) throws -> [DatabaseEventKind] {
    let regions: [TableRegion]
    if let tables {
      regions = Array(tables.values)
    } else {
      regions = try db.allTableNames().map { TableRegion(name: $0, columns: nil, rowIDs: nil) }
    }
    return regions.flatMap { region -> [DatabaseEventKind] in
      // SQLite's own tables have no columns to introspect.
      let columns = region.columns ?? Set(((try? db.columns(in: region.name)) ?? []).map(\.name))
      return [
        .delete(tableName: region.name), .insert(tableName: region.name),
        .update(tableName: region.name, columnNames: columns),
      ]
    }
  }
}
