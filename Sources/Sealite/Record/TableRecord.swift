import Foundation

/// A type tied to a database table: the base of the query interface.
///
///     struct Player: TableRecord {
///       // databaseTableName defaults to "player"
///     }
///     let request = Player.filter(Column("score") > 100)
public protocol TableRecord {
  /// A type that names the record's columns, usually a nested enum:
  ///
  ///     struct Player: TableRecord, Codable {
  ///       var id: Int64
  ///       var score: Int
  ///       enum Columns {
  ///         static let id = Column(CodingKeys.id)
  ///         static let score = Column(CodingKeys.score)
  ///       }
  ///     }
  ///
  /// It is inferred from a nested type named `Columns`, and is `Never`
  /// for a record without one.
  associatedtype Columns = Never

  /// What the closures of the query interface receive (`$0` in
  /// `Player.filter { $0.score > 100 }`): `Columns.Type` by default.
  associatedtype DatabaseComponents = Columns.Type

  /// The table name. Defaults to the type name with a lowercase initial
  /// (`Player` → `player`, `HTTPRequest` → `httpRequest`).
  static var databaseTableName: String { get }

  /// The columns selected by requests of this type. Defaults to all columns.
  static var databaseSelection: [any SQLSelectable] { get }

  /// The value given to the closures of the query interface:
  ///
  ///     let request = Player.order(\.score.desc)
  ///     let request = Player.filter { $0.score > 100 }
  static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord where DatabaseComponents == Columns.Type {
  /// The record's `Columns` type, given to the closures of the query
  /// interface: `$0.score` is `Columns.score`.
  public static var databaseComponents: DatabaseComponents { Columns.self }
}

extension TableRecord {
  public static var databaseTableName: String {
    defaultDatabaseTableName(for: Self.self)
  }

  public static var databaseSelection: [any SQLSelectable] { allColumnsSelection }
}

/// The default selection, one array for every record type: no allocation per
/// request, and a selection that upserts find again by its storage (see
/// `RecordStatementCache.returningClause`). Immutable, of a Sendable value.
nonisolated(unsafe) private let allColumnsSelection: [any SQLSelectable] = [AllColumns()]

/// The SQL of the default selection, shared as well: a request of a record
/// type that keeps the default builds no array of its own.
private let allColumnsSQLSelection = [AllColumns().sqlSelection]

extension TableRecord {
  /// The SQL of ``databaseSelection``: for the default selection, the array
  /// every request of such a record type shares (found by its storage, which
  /// lives as long as the program).
  static var databaseSQLSelection: [SQLSelection] {
    let selection = databaseSelection
    let isDefault = selection.withUnsafeBufferPointer { selection in
      allColumnsSelection.withUnsafeBufferPointer { selection.baseAddress == $0.baseAddress }
    }
    return isDefault ? allColumnsSQLSelection : selection.map { $0.sqlSelection }
  }
}

/// GRDB's rule: the type name (without module or enclosing types), with its
/// leading uppercase run lowercased, keeping the last capital of an acronym
/// when a lowercase letter follows it.
func defaultDatabaseTableName(for type: Any.Type) -> String {
  let fullName = String(describing: type)
  let base = fullName.split(separator: ".").last.map(String.init) ?? fullName
  let name = base.split(separator: "<").first.map(String.init) ?? base
  let characters = Array(name)
  var uppercaseRun = 0
  while uppercaseRun < characters.count && characters[uppercaseRun].isUppercase { uppercaseRun += 1 }
  if uppercaseRun == 0 { return name }
  if uppercaseRun == 1 || uppercaseRun == characters.count {
    return String(characters[..<uppercaseRun]).lowercased() + String(characters[uppercaseRun...])
  }
  // "HTTPRequest": lowercase "HTTP" but keep "R" of "Request".
  let lowered = String(characters[..<(uppercaseRun - 1)]).lowercased()
  return lowered + String(characters[(uppercaseRun - 1)...])
}
