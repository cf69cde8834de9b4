extension Database {
  /// The schema source of the statements that run now: the configuration's
  /// (``Configuration/schemaSource``), or the one given to
  /// ``withSchemaSource(_:execute:)``.
  public internal(set) var schemaSource: (any DatabaseSchemaSource)? {
    get { state(for: SchemaSourceState.self).source }
    set { state(for: SchemaSourceState.self).source = newValue }
  }

  /// Runs `block` with another schema source (nil: none), then restores the
  /// previous one. What the connection learned of the schema is forgotten on
  /// both sides, so that neither source's answers outlive it.
  ///
  ///     try db.withSchemaSource(ViewKeys()) {
  ///       try Player.fetchOne(db, id: 1)
  ///     }
  public func withSchemaSource<T>(
    _ schemaSource: (any DatabaseSchemaSource)?, execute block: () throws -> T
  ) rethrows -> T {
    let previous = self.schemaSource
    self.schemaSource = schemaSource
    schemaDidChange()
    defer {
      self.schemaSource = previous
      schemaDidChange()
    }
    return try block()
  }
}

/// The schema source of one connection, from its configuration at first.
final class SchemaSourceState: ConnectionState {
  var source: (any DatabaseSchemaSource)?

  init(source: (any DatabaseSchemaSource)?) { self.source = source }

  static func make(for db: Database) -> SchemaSourceState {
    SchemaSourceState(source: db.configuration.schemaSource)
  }
}
