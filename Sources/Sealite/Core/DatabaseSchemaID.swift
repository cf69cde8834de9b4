/// One schema of a connection: `main`, `temp`, or an attached database.
///
///     let id = DatabaseObjectID(name: "player", schemaID: .main)
public struct DatabaseSchemaID: Hashable, Sendable {
  private enum Kind: Hashable, Sendable {
    case main
    case temp
    case attached(String)
  }

  private let kind: Kind

  private init(_ kind: Kind) { self.kind = kind }

  /// The schema named `name` (`"main"`, `"temp"` or an attached database),
  /// as SQLite names them, ignoring ASCII case.
  init(name: String) {
    switch name.lowercased() {
    case "main": self = .main
    case "temp": self = .temp
    default: self = .attached(name)
    }
  }

  /// The main database.
  public static let main = DatabaseSchemaID(.main)

  /// The database of temporary tables, views, indexes and triggers.
  public static let temp = DatabaseSchemaID(.temp)

  /// The attached database `name` (`ATTACH DATABASE … AS name`).
  public static func attached(_ name: String) -> DatabaseSchemaID { DatabaseSchemaID(.attached(name)) }

  /// The name of the schema in SQL: `"main"`, `"temp"`, or the attached name.
  public var name: String {
    switch kind {
    case .main: return "main"
    case .temp: return "temp"
    case .attached(let name): return name
    }
  }

  /// The table that lists the schema's objects: `sqlite_master`,
  /// `sqlite_temp_master`, or `name.sqlite_master`.
  public var schemaTableName: String {
    switch kind {
    case .main: return "sqlite_master"
    case .temp: return "sqlite_temp_master"
    case .attached(let name): return "\(name).sqlite_master"
    }
  }

  /// How an error message names a view of this schema.
  func describeView(_ name: String) -> String {
    switch kind {
    case .main: return "view \(name)"
    case .temp: return "temporary view \(name)"
    case .attached(let schema): return "view \(schema).\(name)"
    }
  }
}
