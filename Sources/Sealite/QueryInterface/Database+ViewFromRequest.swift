extension Database {
  /// Creates a view from a request:
  ///
  ///     // CREATE VIEW "hero" AS SELECT * FROM "player" WHERE "isHero" = 1
  ///     try db.create(view: "hero", as: Table("player").filter(Column("isHero") == true))
  ///
  /// In migrations, prefer `Table("player")` to a record type of the
  /// application, which may change later. Values of the request are written
  /// into the statement as SQL literals, since SQLite takes no arguments in
  /// schema statements.
  public func create(
    view name: String, options: ViewOptions = [], columns: [String]? = nil, as request: some SQLSubqueryable
  ) throws {
    let definition = try request.sqlSubquery.sql(.inliningValues(db: self))
    try createView(name, options: options, columns: columns, definition: definition)
  }
}
