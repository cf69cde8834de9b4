/// A table, view, index or trigger of one schema of a connection: what a
/// ``DatabaseSchemaSource`` is asked about.
public struct DatabaseObjectID: Hashable, Sendable {
  /// The name of the object, as the schema spells it.
  public var name: String

  /// The schema that holds the object.
  public var schemaID: DatabaseSchemaID

  /// The object `name` of the schema `schemaID`.
  public init(name: String, schemaID: DatabaseSchemaID) {
    self.name = name
    self.schemaID = schemaID
  }
}
