/// What a program knows of its schema that SQLite does not say, given to
/// ``Configuration/schemaSource``.
///
/// A view has no primary key in SQLite; a schema source can name one, so that
/// records backed by the view are fetched by id, ordered by key, and joined
/// through associations as if it were a table:
///
///     struct ViewKeys: DatabaseSchemaSource {
///       func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "playerWithTeam" ? ["id"] : nil
///       }
///     }
///
///     var config = Configuration()
///     config.schemaSource = ViewKeys()
///     let dbQueue = try DatabaseQueue(path: path, configuration: config)
///     try dbQueue.read { db in
///       try db.primaryKey("playerWithTeam").columns  // ["id"]
///     }
///
/// A library that brings views of its own combines its source with the
/// program's with ``then(_:)``.
public protocol DatabaseSchemaSource: Sendable {
  /// The columns of the primary key of `view`, or nil when the source does not
  /// say (the default): the view then has no primary key.
  ///
  /// The columns must exist in the view, identify one row, and not be NULL.
  func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
  /// The view has no primary key, as far as this source knows.
  public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
    nil
  }

  /// A source that asks this one first, then `other` for what this one does
  /// not say. The answers are never merged: the first one given is taken whole.
  public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
    ChainedSchemaSource(first: self, second: other)
  }
}

/// Two sources asked in order (``DatabaseSchemaSource/then(_:)``).
private struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>:
  DatabaseSchemaSource
{
  let first: First
  let second: Second

  func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
    try first.columnsForPrimaryKey(db, inView: view) ?? second.columnsForPrimaryKey(db, inView: view)
  }
}
