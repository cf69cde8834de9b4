extension ColumnDefinition {
  /// The custom collation used to compare the column's values (`COLLATE`).
  /// Every connection that reads the table must have the collation: the
  /// built-in ones are always there, add others in
  /// ``Configuration/prepareDatabase(_:)``.
  ///
  ///     try db.create(table: "player") { t in
  ///       t.column("name", .text).collate(.localizedCaseInsensitiveCompare)
  ///     }
  @discardableResult
  public func collate(_ collation: DatabaseCollation) -> ColumnDefinition {
    collate(Database.CollationName(rawValue: collation.name))
  }
}
