extension SQL.StringInterpolation {
  /// The quoted table name of a record type: `"SELECT * FROM \(Player.self)"`.
  public mutating func appendInterpolation<T: TableRecord>(_ table: T.Type) {
    let name = T.databaseTableName
    elements.append(.identifier(name))
  }
}
